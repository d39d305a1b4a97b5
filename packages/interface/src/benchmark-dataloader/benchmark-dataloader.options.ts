import * as S from '@maou/bench-domain';
import { describeRange, describeSetting as range } from '@maou/bench-domain';
import { optionGroup, type ParsedOptions, type OptionTable } from '../options/option-table';
import type { BackendChoice } from '@maou/bench-use-cases';
import { STAGE3_INPUT_OPTIONS } from '../benchmark-training/benchmark-training.options';
import { describeGpuChoices, describeThreads } from '../benchmark-training/backend-help';

const data = optionGroup('Data:');
const measurement = optionGroup('Measurement:');
const output = optionGroup('Output:');

/** Flags of `maou utility benchmark-dataloader`; the input flags are `benchmark-training`'s Stage 3 set (the datasource plug-ins' flags apart, see `sourceOptions`), `--gpu` from the registered backends. @public */
export const benchmarkDataloaderOptions = (backends: readonly BackendChoice[]) =>
  ({
    ...STAGE3_INPUT_OPTIONS,
    'sample-ratio': data.num(`share of cloud data to read, ${range(S.SAMPLE_RATIO)}`),
    'test-ratio': data.num(`validation share left out of the measured split, ${range(S.TEST_RATIO)}`),
    'batch-size': measurement.num(`batch size, ${range(S.BATCH_SIZE)}`),
    'num-batches': {
      ...measurement.num(`batches timed per repeat, ${describeRange(S.NUM_BATCHES.bounds)}`),
      default: S.NUM_BATCHES.default,
    },
    'pin-memory': measurement.flag('reuse transfer buffers instead of fresh allocations'),
    workers: { ...measurement.num('worker counts of the grid (default 0 1 2 … up to the spare cores)'), array: true },
    'prefetch-factors': {
      ...measurement.num('prefetch factors of the grid (workers > 0)'),
      array: true,
      default: [2, 4],
    },
    'batch-sizes': { ...measurement.num('batch sizes of the grid (default: --batch-size)'), array: true },
    repeats: {
      ...measurement.num(`repeats per grid point, ${describeRange(S.REPEATS.bounds)}; the spread is reported`),
      default: S.REPEATS.default,
    },
    'noise-margin': {
      ...measurement.num(
        `a setting must beat the model rate by this share to count as feeding it, ${describeRange(S.NOISE_MARGIN.bounds)}`,
      ),
      default: S.NOISE_MARGIN.default,
    },
    'consumption-steps': {
      ...measurement.num(
        `timed training steps for the model's own rate, ${describeRange(S.CONSUMPTION_STEPS.bounds)}; 0 skips the model`,
      ),
      default: S.CONSUMPTION_STEPS.default,
    },
    gpu: measurement.str(`backend for the model: ${describeGpuChoices(backends)}`),
    threads: measurement.num(
      `backend threads, ${range(S.THREADS)}${describeThreads(backends)} (default: one per usable core, up to ${S.MAX_DERIVED_THREADS})`,
    ),
    'model-architecture': measurement.str(
      `network whose own rate the loader must keep up with: resnet or lite; default ${S.MODEL_ARCHITECTURE.default}, maou's`,
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
