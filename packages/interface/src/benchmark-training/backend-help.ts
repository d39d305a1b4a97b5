import { hasMemoryLimit, type BackendChoice } from '@maou/bench-use-cases';

// Every help line about backends, made from the registered backends' usage and capabilities (highest priority
// first), never from their names: a new backend shows up in each line its capabilities put it in.

const usageOf = (b: BackendChoice): string => (b.help ? `${b.usage} (${b.help})` : b.usage);

const listed = (words: readonly string[], last = 'or'): string =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} ${last} ${words.at(-1)!}` : (words[0] ?? '');

const gpuFlags = (backends: readonly BackendChoice[]): string => listed(backends.map((b) => `--gpu ${b.usage}`));

/** `--gpu`'s values for `--help`, from the registered backends (highest priority first) plus `auto`. @public */
export const describeGpuChoices = (backends: readonly BackendChoice[]): string =>
  `${[...backends.map(usageOf), 'auto (the highest-priority one that starts)'].join(', ')}`;

/** The backends no `--gpu` tries, by name, for `--help`. @public */
export const describeHostBackends = (backends: readonly BackendChoice[]): string =>
  backends
    .filter((b) => b.placement === 'host')
    .map((b) => b.name)
    .join(', ');

/** `--threads`: what a thread is on the backends that train data-parallel. @public */
export const describeThreads = (backends: readonly BackendChoice[]): string => {
  const replicas = backends.filter((b) => b.dataParallel).map((b) => b.name);
  return replicas.length ? `; on ${listed(replicas, 'and')}, data-parallel replicas in worker threads` : '';
};

/** `--mixed-precision`: the backends with f16 activations. @public */
export const describeMixedPrecision = (backends: readonly BackendChoice[]): string => {
  const f16 = backends.filter((b) => b.mixedPrecision);
  return `f16 activations, f32 master weights and optimiser, dynamic loss scaling (maou's AMP on CUDA), with ${gpuFlags(f16) || 'a backend that has them (none is registered)'}; refused on every other backend`;
};

/** `--find-max-batch`: what "fits" means on each kind of memory limit, and the backends without one. @public */
export const describeMaxBatchSearch = (backends: readonly BackendChoice[]): string => {
  const heap = backends.filter((b) => b.boundedHeap);
  const device = backends.filter((b) => !b.boundedHeap && hasMemoryLimit(b));
  const none = backends.filter((b) => !hasMemoryLimit(b)).map((b) => b.name);
  return [
    'largest batch that fits, doubling from --batch-size then bisecting',
    ...(heap.length
      ? [
          `${gpuFlags(heap)}: fits = each replica's share of the batch trains as one piece (no micro-batching) in its bounded heap; larger batches still run as micro-batches`,
        ]
      : []),
    ...(device.length ? [`${gpuFlags(device)}: the step completes without a GPU allocation failure`] : []),
    ...(none.length ? [`Refused on ${listed(none, 'and')} (no memory limit to search against)`] : []),
  ].join('. ');
};
