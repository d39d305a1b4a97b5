import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * The folders of the libraries the ld.so cache lists (`ldconfig -p`), those whose file name matches `name`, in the
 * cache's order; none where there is no ldconfig. Native loaders (Vulkan's, NVIDIA's libraries) are looked for there.
 * @public
 */
export function ldCacheDirs(name: RegExp = /./): string[] {
  let listing: string;
  try {
    listing = execFileSync('ldconfig', ['-p'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return [];
  }
  const dirs = new Set<string>();
  for (const line of listing.split('\n')) {
    const at = line.lastIndexOf('=> ');
    const file = at >= 0 ? line.slice(at + 3).trim() : '';
    if (file && name.test(path.basename(file))) dirs.add(path.dirname(file));
  }
  return [...dirs];
}
