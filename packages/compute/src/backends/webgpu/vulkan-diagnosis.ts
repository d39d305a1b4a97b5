import fs from 'node:fs';
import path from 'node:path';
import { ldCacheDirs } from '../../ld-cache';

/** Where to look; defaults are the Vulkan loader's own search places on Linux. @public */
export interface VulkanSearch {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** folders holding shared libraries (besides LD_LIBRARY_PATH) */
  readonly libDirs: readonly string[];
  /** folders holding ICD json files, used when VK_DRIVER_FILES / VK_ICD_FILENAMES are unset */
  readonly icdDirs: readonly string[];
}

/** What the search found. @public */
export interface VulkanDiagnosis {
  readonly loader: string | null;
  readonly icds: readonly { readonly file: string; readonly library: string; readonly found: boolean }[];
  /** one line each, naming what is missing and how to get it */
  readonly problems: readonly string[];
}

/** Where a stock Linux keeps libraries and ICD files (plus the ld.so cache's folders). @public */
export function defaultVulkanSearch(env: Readonly<Record<string, string | undefined>> = process.env): VulkanSearch {
  const libDirs = new Set([
    '/lib/x86_64-linux-gnu',
    '/usr/lib/x86_64-linux-gnu',
    '/lib/aarch64-linux-gnu',
    '/usr/lib/aarch64-linux-gnu',
    '/usr/lib64',
    '/lib64',
    '/usr/lib',
    '/lib',
    '/usr/local/lib',
  ]);
  for (const dir of ldCacheDirs()) libDirs.add(dir);
  return {
    env,
    libDirs: [...libDirs],
    icdDirs: ['/etc/vulkan/icd.d', '/usr/local/share/vulkan/icd.d', '/usr/share/vulkan/icd.d'],
  };
}

const exists = (file: string): boolean => fs.existsSync(file);
const listJson = (dir: string): string[] =>
  exists(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => path.join(dir, f))
    : [];

/** Finds the Vulkan loader and drivers and says what is missing, for the "no adapter" error. @public */
export function diagnoseVulkan(search: VulkanSearch): VulkanDiagnosis {
  const dirs = [...(search.env.LD_LIBRARY_PATH ?? '').split(':').filter(Boolean), ...search.libDirs];
  const findLib = (name: string): string | null => {
    if (path.isAbsolute(name)) return exists(name) ? name : null;
    for (const dir of dirs) if (exists(path.join(dir, name))) return path.join(dir, name);
    return null;
  };
  const problems: string[] = [];
  const loader = findLib('libvulkan.so.1');
  if (!loader)
    problems.push('no Vulkan loader (libvulkan.so.1): install it (Debian/Ubuntu: apt-get install libvulkan1)');
  const chosen = (search.env.VK_DRIVER_FILES ?? search.env.VK_ICD_FILENAMES ?? '').split(':').filter(Boolean);
  const files =
    chosen.length > 0
      ? chosen.flatMap((f) => (exists(f) && fs.statSync(f).isDirectory() ? listJson(f) : [f]))
      : search.icdDirs.flatMap(listJson);
  const icds = files.map((file) => {
    let library = '';
    try {
      library = String(
        (JSON.parse(fs.readFileSync(file, 'utf8')) as { ICD?: { library_path?: string } }).ICD?.library_path ?? '',
      );
    } catch {
      /* unreadable: reported below as not found */
    }
    const resolved =
      library && !path.isAbsolute(library) && library.includes('/')
        ? path.resolve(path.dirname(file), library)
        : library;
    return { file, library: resolved, found: resolved !== '' && findLib(resolved) !== null };
  });
  if (icds.length === 0) {
    problems.push(
      chosen.length > 0
        ? `no Vulkan driver: VK_DRIVER_FILES/VK_ICD_FILENAMES name ${chosen.join(', ')}, which holds no ICD json`
        : 'no Vulkan driver (ICD json in /usr/share/vulkan/icd.d or /etc/vulkan/icd.d): install the GPU ' +
            "driver's Vulkan part (NVIDIA: the driver's nvidia_icd.json), or lavapipe for a CPU-only run (scripts/setup-lavapipe.sh)",
    );
  }
  for (const icd of icds.filter((i) => !i.found))
    problems.push(`the Vulkan driver ${icd.file} points to ${icd.library || 'nothing'}, which is not found`);
  if (icds.some((i) => /GLX_nvidia|nvidia/i.test(i.library)) && !findLib('libGLdispatch.so.0')) {
    problems.push(
      "NVIDIA's Vulkan driver (libGLX_nvidia.so.0) needs libglvnd (libGLdispatch.so.0, libGLX.so.0): " +
        'apt-get install libglvnd0 libglx0 libegl1',
    );
  }
  if (icds.some((i) => i.library.includes('lvp'))) {
    problems.push(
      'lavapipe is present: Dawn rejects the one from Mesa older than 23 (Debian 12 ships 22.3); ' +
        'scripts/setup-lavapipe.sh fetches Mesa 25 into .cache/lavapipe',
    );
  }
  return { loader, icds, problems };
}

/** One sentence for the user: what Dawn needed and what is missing. @public */
export function describeNoAdapter(diagnosis: VulkanDiagnosis, platform: string = process.platform): string {
  const head = 'WebGPU (Dawn) found no GPU adapter';
  if (platform !== 'linux') return `${head}: check the GPU driver (Dawn uses Metal on macOS, D3D12 on Windows)`;
  if (diagnosis.problems.length > 0) return `${head}: ${diagnosis.problems.join('; ')}`;
  return (
    `${head}, although the Vulkan loader (${diagnosis.loader}) and drivers (${diagnosis.icds.map((i) => i.file).join(', ')}) ` +
    'are present: run with VK_LOADER_DEBUG=error,warn to see why the loader or Dawn rejects them'
  );
}
