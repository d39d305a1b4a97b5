import fs from 'node:fs';
import path from 'node:path';
import { CUDA_LIBRARIES, type CudaLibrary } from './cuda-libraries';
import { type SearchPlace } from './search-places';

/** What one searched folder holds of NVIDIA's libraries. @public */
export interface PlaceContents extends SearchPlace {
  /** false: no such folder */
  readonly exists: boolean;
  /** the library files in it, accepted or not (`libcudnn.so.8` is listed, and refused by name) */
  readonly files: readonly string[];
}

/** The file each library is loaded from: the first accepted name in the first folder that has one. @public */
export interface LibraryFind {
  readonly library: CudaLibrary;
  /** absolute path, or null when no folder has an accepted file */
  readonly path: string | null;
}

/** The search's result: every folder as it was found, and where each library is. @public */
export interface FoundLibraries {
  readonly places: readonly PlaceContents[];
  readonly libraries: readonly LibraryFind[];
}

const listLibraries = (dir: string): { exists: boolean; files: string[] } => {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return { exists: false, files: [] };
  }
  const files = names.filter((n) => CUDA_LIBRARIES.some((l) => l.anyVersion.test(n))).sort();
  return { exists: true, files };
};

/**
 * Looks for every library in `places`, in order. A library is taken from the first folder that holds one of its
 * accepted names (its newest major first); nothing later is tried if that one turns out unusable, so what is loaded
 * is always the first match a user can predict from the search order.
 * @public
 */
export function findCudaLibraries(
  places: readonly SearchPlace[],
  libraries: readonly CudaLibrary[] = CUDA_LIBRARIES,
): FoundLibraries {
  const contents = places.map((p) => ({ ...p, ...listLibraries(p.dir) }));
  const found = libraries.map((library) => {
    for (const place of contents)
      for (const file of library.files)
        if (place.files.includes(file)) return { library, path: path.join(place.dir, file) };
    return { library, path: null };
  });
  return { places: contents, libraries: found };
}

/** One line per searched folder: what it held of these libraries, or that it held none or does not exist. @public */
export function describeSearch(places: readonly PlaceContents[]): string[] {
  return places.map(
    (p) =>
      `${p.dir} (${p.source}): ${!p.exists ? 'no such folder' : p.files.length ? p.files.join(', ') : 'none of them'}`,
  );
}
