import type { ComputeConfig } from '@maou/bench-domain';
import type { BackendInfo } from '@maou/bench-engine/contracts';

/**
 * How one registered backend is chosen on the command line and described in `--help`. The backend registry in the
 * compute package lists them; the interface layer validates `--gpu` against that list.
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

/**
 * The backends a `--gpu` value may start, by its parsed request: `auto` tries every one, `host` (no `--gpu`) the
 * `host` ones, a name that backend alone. The same rule as the compute adapter's, for decisions made before it runs.
 * @public
 */
export const candidateBackends = <B extends BackendChoice>(backend: string, choices: readonly B[]): B[] =>
  backend === 'auto'
    ? [...choices]
    : backend === 'host'
      ? choices.filter((b) => b.placement === 'host')
      : choices.filter((b) => b.name === backend);
