import type { AddressSpace, AddressSpaceFit } from '@maou/bench-domain';
import { readFile } from 'node:fs/promises';

/** The flag that turns V8's wasm guard regions off (a process-start flag: it cannot be set at run time). @public */
export const NO_GUARD_REGIONS_FLAG = '--disable-wasm-trap-handler';

/** "Max address space  <soft>  <hard>  bytes" of /proc/self/limits; "unlimited" or a missing line is no limit. */
export const parseAddressSpaceLimit = (limits: string): number | null => {
  const soft = /^Max address space\s+(\S+)/m.exec(limits)?.[1];
  return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : null;
};

/** Reads this process's limit and node's flags (arguments are for tests). @public */
export const readAddressSpace = async (
  limitsPath = '/proc/self/limits',
  nodeFlags: readonly string[] = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)],
): Promise<AddressSpace> => ({
  limitBytes: parseAddressSpaceLimit(await readFile(limitsPath, 'utf8').catch(() => '')),
  guardRegions: !nodeFlags.includes(NO_GUARD_REGIONS_FLAG),
});

const GIB = 1024 ** 3;
// Measured with Node 20.20 on the lite preset, batch 8 (VmPeak, and the smallest `prlimit --as` that trained): with
// guard regions the main wasm backend reserved 21 GiB and each data-parallel replica 10.5 GiB more, heaps included;
// without them, 2 GiB and 2.5 GiB plus the heaps, which then grow by copying (old and new heap live at once). A loader
// worker thread (its own isolate) takes 0.5 GiB.
const BASE = { guarded: { main: 21 * GIB, replica: 10.5 * GIB }, unguarded: { main: 2 * GIB, replica: 2.5 * GIB } };
const LOADER_WORKER = 0.5 * GIB;
/** the least heap worth planning per wasm instance without guard regions (lite's weights, optimiser and a batch) */
const MIN_HEAP = GIB;
const WASM32_HEAP = 4 * GIB;

const instancesOf = (threads: number): number => (threads > 1 ? threads + 1 : 1);
const baseNeed = (threads: number, workers: number, guardRegions: boolean): number => {
  const b = guardRegions ? BASE.guarded : BASE.unguarded;
  return b.main + (threads > 1 ? threads * b.replica : 0) + workers * LOADER_WORKER;
};

/**
 * The address space a wasm run reserves: the main backend, `threads` replicas when more than one, the loader workers,
 * and without guard regions room for each instance's heap to grow to {@link MIN_HEAP}.
 * @public
 */
export const wasmAddressSpaceNeed = (threads: number, workers: number, guardRegions: boolean): number =>
  baseNeed(threads, workers, guardRegions) + (guardRegions ? 0 : instancesOf(threads) * 2 * MIN_HEAP);

/**
 * The heap each wasm instance (the main backend, and each replica when there are several) may use: wasm32's 4 GiB, at
 * most an equal share of the memory limit and, without guard regions, of the address space the run leaves (halved:
 * a growing heap is copied). Loader workers are counted at the most the plan derives (2).
 * @public
 */
export const wasmHeapLimit = (space: AddressSpace, memoryBytes: number, threads: number): number => {
  const n = instancesOf(threads);
  const left =
    space.limitBytes === null || space.guardRegions ? Infinity : space.limitBytes - baseNeed(threads, 2, false);
  const share = Math.min(memoryBytes / n, left / n / 2);
  return Math.max(MIN_HEAP / 4, Math.min(WASM32_HEAP, Math.floor(share / 2 ** 20) * 2 ** 20));
};

const gib = (bytes: number): string => `${(bytes / GIB).toFixed(1)} GiB`;

/**
 * Fits a wasm run in the address-space limit: derived threads and workers shrink until the run fits (threads first,
 * they cost most); settings the user gave stay as given. A run that cannot fit is refused with the limit and the need.
 * @public
 */
export const fitAddressSpace = (
  space: AddressSpace,
  wanted: { readonly threads: number; readonly workers: number },
  given: { readonly threads: boolean; readonly workers: boolean },
): AddressSpaceFit => {
  const limit = space.limitBytes;
  if (limit === null) return { ok: true, ...wanted, reduced: false };
  for (let t = wanted.threads; t >= (given.threads ? wanted.threads : 1); t--)
    for (let w = wanted.workers; w >= (given.workers ? wanted.workers : 0); w--)
      if (wasmAddressSpaceNeed(t, w, space.guardRegions) <= limit)
        return { ok: true, threads: t, workers: w, reduced: t !== wanted.threads || w !== wanted.workers };
  const least = {
    threads: given.threads ? wanted.threads : 1,
    workers: given.workers ? wanted.workers : 0,
  };
  const need = wasmAddressSpaceNeed(least.threads, least.workers, space.guardRegions);
  const fix = space.guardRegions
    ? `each wasm heap reserves about 10 GiB while V8's trap handler bounds-checks it: run node with ${NO_GUARD_REGIONS_FLAG} (e.g. NODE_OPTIONS=${NO_GUARD_REGIONS_FLAG}), or raise the limit`
    : given.threads || given.workers
      ? 'give fewer --threads / --dataloader-workers, or raise the limit'
      : 'raise the limit';
  return {
    ok: false,
    message: `the address-space limit (RLIMIT_AS: ulimit -v, prlimit --as) is ${gib(limit)}; the wasm backend with ${least.threads} thread(s) and ${least.workers} loader worker(s) needs about ${gib(need)}: ${fix}`,
  };
};
