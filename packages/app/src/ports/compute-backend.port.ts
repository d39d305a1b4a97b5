import { err, ok, type ComputeConfig, type Result, type ValidationIssue } from '@maou/bench-domain';
import type { BackendInfo } from '@maou/bench-engine/contracts';

/**
 * How one registered backend is chosen on the command line and described in `--help`: its name, usage and
 * capabilities. The compute package's backend registry lists them (highest priority first); `resolveGpu` reads
 * `--gpu` against that list, and every help line about backends is made from these fields.
 * @public
 */
export interface BackendChoice {
  readonly name: string;
  /** what `--gpu` takes for it: the name itself, or a form such as `cuda:N` */
  readonly usage: string;
  /** a few words for `--help` after the usage, e.g. `tfjs-node-gpu`; empty for none */
  readonly help: string;
  /** `host` computes on the CPU (these are tried, by priority, when no `--gpu` is given); `device` on a GPU */
  readonly placement: 'host' | 'device';
  /** a training pass stops at a fixed per-instance heap (wasm32's 4 GiB), which `--find-max-batch` can search against */
  readonly boundedHeap?: boolean;
  /** a correctness fallback, not for speed: a run on it is told what to use instead */
  readonly fallback?: boolean;
  /** a note every run that names it gets (the cpu backend: how much slower it is) */
  readonly note?: string;
  /** `--mixed-precision` runs on it (f16 activations, f32 master weights) */
  readonly mixedPrecision?: boolean;
  /** each thread reserves its own heap, so threads and loader workers must fit the address-space limit (RLIMIT_AS) */
  readonly reservesAddressSpace?: boolean;
  /** with more than one thread, training runs as data-parallel replicas in worker threads */
  readonly dataParallel?: boolean;
  /** the device index when `value` (lower case) selects this backend, otherwise null */
  selects(value: string): number | null;
}

/**
 * Whether a run's memory has a limit that a largest-batch search can find: a bounded heap, or GPU memory. The same
 * rule as the search's own check of the started backend, here for the choice `--gpu` names, before anything runs.
 * @public
 */
export const hasMemoryLimit = (b: Pick<BackendChoice, 'placement' | 'boundedHeap'>): boolean =>
  b.placement === 'device' || b.boundedHeap === true;

/** Makes a tfjs backend active in this process. @public */
export interface ComputeBackendPort {
  activate(config: ComputeConfig): Promise<BackendInfo>;
}

/** What `--gpu` asks for, read against the registered backends. @public */
export interface GpuRequest<B extends BackendChoice = BackendChoice> extends Pick<
  ComputeConfig,
  'backend' | 'deviceIndex'
> {
  /** the backends the run may start, in the order they are tried */
  readonly candidates: readonly B[];
}

const listed = (names: readonly string[]): string =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)!}` : (names[0] ?? '');

/**
 * The backends a parsed request (`ComputeConfig.backend`) may start, in `backends`' order: `auto` every one, `host`
 * (no `--gpu`) the `host` ones, a name that backend alone (none for a name no backend has). `--mixed-precision`
 * is refused here, and only here, unless every one of them has that capability.
 * @public
 */
export const candidateBackends = <B extends BackendChoice>(
  request: Pick<ComputeConfig, 'backend' | 'mixedPrecision'>,
  backends: readonly B[],
): Result<B[], ValidationIssue> => {
  const { backend } = request;
  const candidates =
    backend === 'auto'
      ? [...backends]
      : backends.filter((b) => (backend === 'host' ? b.placement === 'host' : b.name === backend));
  if (!request.mixedPrecision || candidates.every((b) => b.mixedPrecision)) return ok(candidates);
  const f16 = backends.filter((b) => b.mixedPrecision).map((b) => `--gpu ${b.usage}`);
  return err({
    field: '--mixed-precision',
    message: `needs ${listed(f16) || 'a backend with f16 activations (none is registered)'} (the backends with f16 activations; got ${backend === 'host' ? 'no --gpu' : `--gpu ${backend}`}); maou's AMP is CUDA-only too`,
  });
};

/**
 * The one reading of `--gpu`, which validation, the resource plan and the compute adapter share: no value or `none`
 * is `host`, `auto` is `auto`, anything else (any case) the first backend whose `selects` takes it, with its device
 * index; then `candidateBackends`. `backends` highest priority first (the registry's `byPriority()`): the order
 * `auto` and `host` try them. A value no backend selects is an issue naming `--gpu` and the values it takes.
 * @public
 */
export const resolveGpu = <B extends BackendChoice>(
  gpu: string | undefined,
  backends: readonly B[],
  mixedPrecision = false,
): Result<GpuRequest<B>, ValidationIssue> => {
  const value = gpu?.toLowerCase() ?? '';
  const keyword = value === '' || value === 'none' ? 'host' : value === 'auto' ? 'auto' : null;
  const chosen = keyword === null ? backends.find((b) => b.selects(value) !== null) : undefined;
  if (keyword === null && chosen === undefined)
    return err({
      field: '--gpu',
      message: `unknown device '${gpu}'; use ${[...backends.map((b) => b.usage), 'auto'].join(', ')}`,
    });
  const request = { backend: keyword ?? chosen!.name, deviceIndex: chosen?.selects(value) ?? 0 };
  const candidates = candidateBackends({ ...request, mixedPrecision }, backends);
  return candidates.ok ? ok({ ...request, candidates: candidates.value }) : candidates;
};
