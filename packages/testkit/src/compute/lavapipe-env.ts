import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defaultVulkanSearch, diagnoseVulkan } from '@maou/bench-compute';

/** Folder scripts/setup-lavapipe.sh fills (override: MAOU_LAVAPIPE_DIR). */
const lavapipeDir = (): string =>
  process.env.MAOU_LAVAPIPE_DIR ?? path.resolve(__dirname, '../../../../.cache/lavapipe');

/**
 * Sets variables in the real process environment, where native code (the Vulkan loader) reads them.
 * Under jest `process.env` is a copy; `process.loadEnvFile` writes the real one (and keeps set ones).
 */
function setNativeEnv(vars: Readonly<Record<string, string>>): void {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'maou-vk-')), 'vulkan.env');
  fs.writeFileSync(
    file,
    Object.entries(vars)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n'),
  );
  process.loadEnvFile(file);
  fs.rmSync(path.dirname(file), { recursive: true });
  Object.assign(process.env, vars);
}

/**
 * For specs: points the Vulkan loader at the local lavapipe (when VK_DRIVER_FILES is unset) and says
 * whether a WebGPU adapter can be expected. Once the setup script has completed, a missing adapter
 * is a failure, not a skip, so CI cannot pass silently without running these specs.
 * @public
 */
export function useLavapipe(): { readonly available: boolean; readonly required: boolean; readonly reason: string } {
  const dir = lavapipeDir();
  const icd = path.join(dir, 'lvp_icd.json');
  if (!process.env.VK_DRIVER_FILES && fs.existsSync(icd)) {
    setNativeEnv({
      VK_DRIVER_FILES: icd,
      VK_ICD_FILENAMES: icd,
      XDG_RUNTIME_DIR: process.env.XDG_RUNTIME_DIR ?? os.tmpdir(),
    });
  }
  const required = process.env.MAOU_REQUIRE_WEBGPU === '1' || fs.existsSync(path.join(dir, '.complete'));
  let reason = '';
  try {
    require.resolve('webgpu/package.json');
  } catch {
    reason = 'the optional npm package `webgpu` is not installed';
  }
  const found = diagnoseVulkan(defaultVulkanSearch());
  if (!reason && (!found.loader || !found.icds.some((i) => i.found))) {
    reason = `no Vulkan loader/driver (${found.problems.join('; ')}); run scripts/setup-lavapipe.sh`;
  }
  return { available: reason === '' || required, required, reason };
}
