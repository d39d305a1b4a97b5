import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The environment that points the built binary's Vulkan loader at the lavapipe that scripts/setup-lavapipe.sh
 * installs (its env.sh), or why there is none. Once the set-up has completed (or with MAOU_REQUIRE_WEBGPU=1) a
 * missing lavapipe is `required`: the caller fails instead of skipping, so CI cannot pass without running.
 */
export function lavapipeEnv(): { env: Record<string, string> | null; required: boolean; reason: string } {
  const dir = process.env.MAOU_LAVAPIPE_DIR ?? join(__dirname, '..', '..', '..', '.cache', 'lavapipe');
  const required = process.env.MAOU_REQUIRE_WEBGPU === '1' || existsSync(join(dir, '.complete'));
  const script = join(dir, 'env.sh');
  if (!existsSync(script)) return { env: null, required, reason: `no ${script}; run scripts/setup-lavapipe.sh` };
  const r = spawnSync('bash', ['-c', `source "${script}" && env -0`], { encoding: 'utf8' });
  if (r.status !== 0) return { env: null, required, reason: `sourcing ${script} failed: ${r.stderr}` };
  const env: Record<string, string> = {};
  for (const entry of r.stdout.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0 && /^(VK_|XDG_RUNTIME_DIR$|LD_LIBRARY_PATH$)/.test(entry.slice(0, eq)))
      env[entry.slice(0, eq)] = entry.slice(eq + 1);
  }
  return { env, required, reason: '' };
}
