import { BATCH_SIZE, describeSetting } from '@maou/bench-domain';
import { optionGroup, type ParsedOptions, type OptionTable } from '../options/option-table';
import type { BackendChoice } from '@maou/bench-app';
import { STAGE3_INPUT_OPTIONS } from '../benchmark-training/benchmark-training.options';
import { describeGpuChoices } from '../benchmark-training/choices';

const data = optionGroup('Data:');
const measurement = optionGroup('Measurement:');
const output = optionGroup('Output:');

/** Flags of `maou utility benchmark-dataloader`; the input flags are `benchmark-training`'s Stage 3 set (the datasource plug-ins' flags apart, see `sourceOptions`), `--gpu` from the registered backends. @public */
export const benchmarkDataloaderOptions = (backends: readonly BackendChoice[]) =>
  ({
    ...STAGE3_INPUT_OPTIONS,
    'sample-ratio': data.num('share of cloud data to read, 0.01..1'),
    'test-ratio': data.num('validation share left out of the measured split (default 0.2)'),
    'batch-size': measurement.num(`batch size, ${describeSetting(BATCH_SIZE)}`),
    'num-batches': { ...measurement.num('batches timed per repeat'), default: 100 },
    'pin-memory': measurement.flag('reuse transfer buffers instead of fresh allocations'),
    workers: { ...measurement.num('worker counts of the grid (default 0 1 2 … up to the spare cores)'), array: true },
    'prefetch-factors': {
      ...measurement.num('prefetch factors of the grid (workers > 0)'),
      array: true,
      default: [2, 4],
    },
    'batch-sizes': { ...measurement.num('batch sizes of the grid (default: --batch-size)'), array: true },
    repeats: { ...measurement.num('repeats per grid point; the spread is reported'), default: 3 },
    'noise-margin': {
      ...measurement.num('a setting must beat the model rate by this share to count as feeding it'),
      default: 0.1,
    },
    'consumption-steps': {
      ...measurement.num("timed training steps for the model's own rate; 0 skips the model"),
      default: 5,
    },
    gpu: measurement.str(`backend for the model: ${describeGpuChoices(backends)}`),
    threads: measurement.num('backend threads; on wasm, data-parallel replicas (default: one per usable core)'),
    'model-architecture': measurement.str(
      "network whose own rate the loader must keep up with: resnet (maou's default) or lite",
    ),
    'enable-resource-monitoring': measurement.flag(
      'per point: CPU and memory per loading thread, worker efficiency (busy share), cache hit rate, process CPU/RSS, GPU utilisation on a GPU backend',
    ),
    'output-json': output.str('write the results as JSON to this path'),
    json: output.flag('print JSON instead of the table'),
    'report-html': output.str('write a self-contained HTML report with plots'),
  }) as const satisfies OptionTable;

/** `benchmark-dataloader`'s flags as yargs hands them over. @public */
export type BenchmarkDataloaderArgs = ParsedOptions<ReturnType<typeof benchmarkDataloaderOptions>>;
