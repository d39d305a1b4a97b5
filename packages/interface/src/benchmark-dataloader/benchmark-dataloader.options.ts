import { flag, inGroup, num, str, type ParsedOptions } from '../options/option-table';
import { CLOUD_INPUT_OPTIONS, STAGE3_INPUT_OPTIONS } from '../benchmark-training/benchmark-training.options';

/** Flags of `maou utility benchmark-dataloader`; the input flags are `benchmark-training`'s Stage 3 set. @public */
export const BENCHMARK_DATALOADER_OPTIONS = {
  ...STAGE3_INPUT_OPTIONS,
  ...inGroup('Data:', {
    'sample-ratio': num('share of cloud data to read, 0.01..1'),
    'test-ratio': num('validation share left out of the measured split (default 0.2)'),
  } as const),
  ...CLOUD_INPUT_OPTIONS,
  ...inGroup('Measurement:', {
    'batch-size': num('batch size (default 256)'),
    'num-batches': { ...num('batches timed per repeat'), default: 100 },
    'pin-memory': flag('reuse transfer buffers instead of fresh allocations'),
    workers: { ...num('worker counts of the grid (default 0 1 2 … up to the spare cores)'), array: true },
    'prefetch-factors': { ...num('prefetch factors of the grid (workers > 0)'), array: true, default: [2, 4] },
    'batch-sizes': { ...num('batch sizes of the grid (default: --batch-size)'), array: true },
    repeats: { ...num('repeats per grid point; the spread is reported'), default: 3 },
    'noise-margin': { ...num('a setting must beat the model rate by this share to count as feeding it'), default: 0.1 },
    'consumption-steps': { ...num("timed training steps for the model's own rate; 0 skips the model"), default: 5 },
    gpu: str('backend for the model: cpu, wasm, webgpu, tensorflow, auto, cuda:N'),
    threads: num('backend threads; on wasm, data-parallel replicas (default: one per usable core)'),
    'model-architecture': str("network whose own rate the loader must keep up with: resnet (maou's default) or lite"),
    'enable-resource-monitoring': flag('per point: CPU and memory per loading thread, worker efficiency (busy share), cache hit rate, process CPU/RSS, GPU utilisation on a GPU backend'),
  } as const),
  ...inGroup('Output:', {
    'output-json': str('write the results as JSON to this path'),
    json: flag('print JSON instead of the table'),
    'report-html': str('write a self-contained HTML report with plots'),
  } as const),
};

/** `benchmark-dataloader`'s flags as yargs hands them over. @public */
export type BenchmarkDataloaderArgs = ParsedOptions<typeof BENCHMARK_DATALOADER_OPTIONS>;
