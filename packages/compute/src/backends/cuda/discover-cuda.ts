import { err, ok, type Result } from '@maou/bench-domain';
import { type CudaLibrary, type CudaLibraryId, versionAtLeast } from './cuda-libraries';
import { describeSearch, findCudaLibraries, type FoundLibraries } from './find-libraries';
import { readLibraryVersion, type LibraryVersion } from './library-versions';
import { cudaSearchPlaces, type CudaSearchInputs, defaultCudaSearch } from './search-places';

/** A library found, opened and new enough. @public */
export interface CudaLibraryFound extends LibraryVersion {
  readonly id: CudaLibraryId;
  readonly title: string;
  readonly path: string;
}

/** Every library the cuda backend needs, each found, opened and checked. @public */
export type CudaLibrarySet = Readonly<Record<CudaLibraryId, CudaLibraryFound>>;

/** Why the libraries cannot be used, with every folder searched. @public */
export interface CudaDiscoveryError {
  /** one line per library that is missing or unusable, then the libraries found, then the folders searched */
  readonly message: string;
  readonly hint: string;
}

/** What to do about a missing or old library. @public */
export const CUDA_INSTALL_HINT =
  "NVIDIA's GPU driver brings libcuda.so.1; PyTorch's CUDA wheels bring the rest (python3 -m pip install torch installs " +
  'nvidia-cudnn, nvidia-cublas and nvidia-cuda-nvrtc beside it), or set CUDA_HOME to a CUDA 12 or 13 toolkit with cuDNN 9';

type Checked = { ok: true; found: CudaLibraryFound } | { ok: false; problem: string };

function checkOne(library: CudaLibrary, file: string | null): Checked {
  const names = library.files.join(' or ');
  if (file === null)
    return { ok: false, problem: `${library.title} (${names}): not found; it comes with ${library.source}` };
  let version: LibraryVersion;
  try {
    version = readLibraryVersion(library.id, file);
  } catch (e) {
    return {
      ok: false,
      problem: `${library.title}: ${file} could not be used: ${(e as Error).message.split('\n')[0]}`,
    };
  }
  if (!versionAtLeast(version.version, library.minimum))
    return {
      ok: false,
      problem: `${library.title}: ${file} is version ${version.version}; ${library.minimum} or newer is needed`,
    };
  return { ok: true, found: { id: library.id, title: library.title, path: file, ...version } };
}

/** Pairs that must agree: a toolkit newer than the driver does not run, and cuBLAS needs its own cuBLASLt. */
function crossChecks(found: ReadonlyMap<CudaLibraryId, CudaLibraryFound>): string[] {
  const problems: string[] = [];
  const major = (v: string) => Number(v.split('.')[0]);
  const driver = found.get('driver');
  if (driver)
    for (const lib of found.values())
      if (lib.id !== 'driver' && major(lib.cuda) > major(driver.cuda))
        problems.push(
          `${lib.title}: ${lib.path} is built for CUDA ${lib.cuda}, but the driver (${driver.path}) runs CUDA ${driver.cuda} at most; update the driver or use CUDA ${major(driver.cuda)} wheels`,
        );
  const [blas, lt] = [found.get('cublas'), found.get('cublasLt')];
  if (blas && lt && major(blas.version) !== major(lt.version))
    problems.push(`cuBLAS ${blas.version} (${blas.path}) and cuBLASLt ${lt.version} (${lt.path}) are different majors`);
  return problems;
}

/**
 * The whole error: a first line naming the libraries at fault (what `--gpu auto` notes when it skips cuda), what is
 * wrong with each, what was found, and every folder searched in order.
 */
function describeFailure(
  problems: string[],
  found: CudaLibraryFound[],
  search: FoundLibraries,
  notes: readonly string[],
): string {
  const faulty = search.libraries.filter((l) => !found.some((f) => f.id === l.library.id)).map((l) => l.library.title);
  return [
    `NVIDIA's libraries for --gpu cuda are missing or unusable: ${faulty.length ? faulty.join(', ') : 'they do not match'}`,
    ...problems.map((p) => `  - ${p}`),
    ...(found.length ? ['found:', ...found.map((f) => `  - ${f.title} ${f.version} (CUDA ${f.cuda}): ${f.path}`)] : []),
    'searched, in this order:',
    ...describeSearch(search.places).map((line) => `  - ${line}`),
    ...notes.map((n) => `  - ${n}`),
  ].join('\n');
}

/**
 * Finds the CUDA driver, cuDNN, cuBLAS(Lt) and NVRTC where a PyTorch user has them (see `cudaSearchPlaces`), opens
 * each and reads its version from the library itself. Anything missing, old or mismatched is an error naming every
 * folder searched and what it held; nothing falls back to another copy or another backend.
 * @public
 */
export function discoverCuda(
  inputs: CudaSearchInputs = defaultCudaSearch(),
): Result<CudaLibrarySet, CudaDiscoveryError> {
  const plan = cudaSearchPlaces(inputs);
  const search = findCudaLibraries(plan.places);
  const found = new Map<CudaLibraryId, CudaLibraryFound>();
  const problems: string[] = [];
  for (const { library, path } of search.libraries) {
    const checked = checkOne(library, path);
    if (checked.ok) found.set(library.id, checked.found);
    else problems.push(checked.problem);
  }
  problems.push(...crossChecks(found));
  if (problems.length)
    return err({
      message: describeFailure(problems, [...found.values()], search, plan.notes),
      hint: CUDA_INSTALL_HINT,
    });
  return ok(Object.fromEntries(found) as CudaLibrarySet);
}
