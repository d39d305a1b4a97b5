import { join } from 'node:path';
import type { BackendChoice } from '@maou/bench-use-cases';
import * as S from '@maou/bench-domain';
import {
  DEFAULT_POLICY_TARGET_MODE,
  POLICY_TARGET_MODES,
  describeDefault as dflt,
  describeRange,
  describeSetting as range,
} from '@maou/bench-domain';
import { optionGroup, type OptionTable } from '../options/option-table';
import {
  describeGpuChoices,
  describeHostBackends,
  describeMaxBatchSearch,
  describeMixedPrecision,
  describeThreads,
} from './backend-help';
import { MODEL_OPTIONS } from './model-options';
import { ADAPTIVE_BATCH_OPTIONS } from './adaptive-batch-options';

const data = optionGroup('Data:');
const device = optionGroup('Device:');
const pipeline = optionGroup('Data pipeline:');
const loss = optionGroup('Loss and optimiser:');
const heads = optionGroup('Stage 1/2 heads:');
const run = optionGroup('Run:');
const study = optionGroup('Batch study:');
const output = optionGroup('Output:');
const calibration = optionGroup('Calibration:');

/**
 * How the data is read, shared by `benchmark-training` and `benchmark-dataloader` (maou gives both the same set); the
 * datasource flags themselves come from the registered plug-ins (`sourceOptions`).
 * @public
 */
export const STAGE3_INPUT_OPTIONS = {
  streaming: { ...data.flag('stream files (default with 2+ files); --no-streaming forces map-style'), default: true },
  'input-cache-mode': {
    ...data.str('map-style files: file (read on demand) or memory (load all); mmap = file'),
    choices: ['file', 'memory', 'mmap'],
  },
  'input-file-packed': data.flag('accepted for compatibility; packing is detected from the file'),
  seed: data.num(
    `seed of row splits, shuffles, weights, sample data and cloud sampling (streamed files split as maou, seed 42) ${dflt(S.SEED)}`,
  ),
} as const satisfies OptionTable;

/**
 * The run flags of `benchmark-training` (calibration and the datasource plug-ins' flags apart); the help of `--gpu`,
 * `--threads`, `--mixed-precision` and `--find-max-batch` comes from the registered backends' capabilities. Ranges are checked by `toBenchmarkConfig`.
 * @public
 */
export const benchmarkTrainingOptions = (backends: readonly BackendChoice[]) =>
  ({
    stage: { ...data.num('1 reachable squares, 2 legal moves, 3 policy + value'), default: S.STAGE.default },
    ...STAGE3_INPUT_OPTIONS,
    gpu: device.str(
      `backend: ${describeGpuChoices(backends)}; default: the best CPU backend (${describeHostBackends(backends)}), which is maou's CPU device`,
    ),
    threads: device.num(
      `backend threads, ${range(S.THREADS)}${describeThreads(backends)} (default: one per usable core, up to ${S.MAX_DERIVED_THREADS})`,
    ),
    'model-architecture': device.str(
      `resnet (17.0 M parameters), mlp-mixer (9.2 M) and vit (19.8 M) as maou builds them, or lite (1.9 M, the shogi-optimised preset, 7–11× faster to train here); default ${S.MODEL_ARCHITECTURE.default}, maou's`,
    ),
    ...MODEL_OPTIONS,
    compilation: device.flag('accepted; tfjs has no graph compiler (see --help notes)'),
    'stage12-compilation': device.flag('accepted; as --compilation for Stages 1 and 2'),
    'detect-anomaly': device.flag('stop at the first non-finite loss or gradient, naming batch and tensor'),
    'mixed-precision': device.flag(describeMixedPrecision(backends)),
    'test-ratio': pipeline.num(`validation share, ${range(S.TEST_RATIO)}`),
    'batch-size': pipeline.num(`batch size, ${range(S.BATCH_SIZE)}`),
    'dataloader-workers': pipeline.num(
      `loader worker threads, 0 = main thread, ${range(S.LOADER_WORKERS)} (default from detected CPUs)`,
    ),
    'pin-memory': pipeline.flag('reuse transfer buffers instead of fresh allocations'),
    'prefetch-factor': pipeline.num(`batches each worker prepares ahead, ${range(S.PREFETCH_FACTOR)}`),
    'device-prefetch': pipeline.num(`batches uploaded ahead to the device, 0 = off; ${range(S.DEVICE_PREFETCH)}`),
    'cache-transforms': pipeline.flag('accepted for compatibility; records need no transform'),
    'gce-parameter': loss.num(`accepted for compatibility, ${range(S.GCE_PARAMETER)}; unused by the KL policy loss`),
    'policy-target-mode': {
      ...loss.str(
        `Stage 3 policy target: win-rate (per-move win rates), move-label (played-move frequencies) or weighted (their product); default ${DEFAULT_POLICY_TARGET_MODE}, maou's`,
      ),
      choices: POLICY_TARGET_MODES,
    },
    'policy-loss-ratio': loss.num(`policy loss weight ${dflt(S.POLICY_LOSS_RATIO)}`),
    'value-loss-ratio': loss.num(`value loss weight ${dflt(S.VALUE_LOSS_RATIO)}`),
    'learning-ratio': loss.num(`learning rate ${dflt(S.LEARNING_RATE)}`),
    momentum: loss.num(`SGD momentum ${dflt(S.MOMENTUM)}`),
    'weight-decay': loss.num(`decoupled weight decay on conv/dense/embedding weights ${dflt(S.WEIGHT_DECAY)}`),
    'lr-scheduler': loss.str(
      `warmup_cosine_decay, cosine_annealing, step or none; maou names accepted; default ${S.LR_SCHEDULER.default}`,
    ),
    'stage12-lr-scheduler': loss.str('scheduler for Stages 1 and 2'),
    optimizer: loss.str(`adamw or sgd; default ${S.OPTIMIZER.default}`),
    'optimizer-beta1': loss.num(`AdamW beta1 ${dflt(S.OPTIMIZER_BETA1)}`),
    'optimizer-beta2': loss.num(`AdamW beta2 ${dflt(S.OPTIMIZER_BETA2)}`),
    'optimizer-eps': loss.num(`AdamW epsilon ${dflt(S.OPTIMIZER_EPS)}`),
    'gradient-clip': loss.num(
      `clip gradients to this global L2 norm (maou always clips) ${dflt(S.GRADIENT_CLIP)}, 0 = off`,
    ),
    'gradient-accumulation-steps': loss.num(
      `batches per optimiser step, ${range(S.GRADIENT_ACCUMULATION_STEPS)}; effective batch = batch size × steps; ignored with --adaptive-batch`,
    ),
    ...ADAPTIVE_BATCH_OPTIONS,
    'stage1-pos-weight': heads.num(dflt(S.STAGE1_POS_WEIGHT)),
    'stage2-pos-weight': heads.num(dflt(S.STAGE2_POS_WEIGHT)),
    'stage2-gamma-pos': heads.num(`ASL gamma+ ${dflt(S.STAGE2_GAMMA_POS)}`),
    'stage2-gamma-neg': heads.num(`ASL gamma- ${dflt(S.STAGE2_GAMMA_NEG)}`),
    'stage2-clip': heads.num(`ASL clip ${dflt(S.STAGE2_CLIP)}`),
    'stage2-hidden-dim': heads.num(`hidden units, 0 = single linear head ${dflt(S.STAGE2_HIDDEN_DIM)}`),
    'stage2-head-dropout': heads.num(dflt(S.STAGE2_HEAD_DROPOUT)),
    'stage2-test-ratio': heads.num(`Stage 2 validation share, 0 = no split as maou HEAD ${dflt(S.STAGE2_TEST_RATIO)}`),
    'warmup-batches': run.num(`batches before measuring ${dflt(S.WARMUP_BATCHES)}`),
    'max-batches': run.num(
      `batch cap, ${describeRange(S.MAX_BATCHES.bounds)}; none given, the stopping rule decides, and maou's default ${S.MAX_BATCHES.default} still bounds validation and the maou block`,
    ),
    'full-epoch': run.flag('run the whole epoch (ignores --max-batches, --target-precision and --time-budget)'),
    'target-precision': run.num(
      `stop once the batch time is steady and the epoch interval is within ± this share of the prediction ${dflt(S.TARGET_PRECISION)}; 0 = run to the cap`,
    ),
    'time-budget': run.num(
      `seconds of training batches after which the run answers with what it has, and says so ${dflt(S.TIME_BUDGET)}`,
    ),
    'enable-profiling': run.flag('per-kernel times by phase, and a Chrome trace'),
    'trace-path': run.str(`where the Chrome trace goes; needs --enable-profiling; default ${S.TRACE_PATH.default}`),
    'run-validation': run.flag('also time an inference-only validation pass, split into the same phases'),
    'sample-ratio': run.num(`share of cloud objects sampled, ${range(S.SAMPLE_RATIO)}; the report scales it back`),
    'enable-resource-monitoring': run.flag(
      'sample CPU, RSS, heap and GPU during the training and the validation pass (each apart)',
    ),
    'batch-sizes': {
      ...study.str(
        'sweep: one full measured run per batch size, e.g. 64,128,256 (or 64 128 256); a failed size is reported and the rest still run',
      ),
      array: true,
    },
    'learning-rates': {
      ...study.str('sweep: one full measured run per learning rate, e.g. 0.001,0.01; not with --batch-sizes'),
      array: true,
    },
    'estimate-cbs': study.flag(
      "with --batch-sizes: critical batch size from the sweep's throughput, and the gradient noise scale measured from per-micro-batch gradient norms (an extra untimed pass at the largest size)",
    ),
    'find-max-batch': study.flag(describeMaxBatchSearch(backends)),
    'find-max-batch-cap': study.num(`--find-max-batch stops doubling at this many rows ${dflt(S.FIND_MAX_BATCH_CAP)}`),
    'output-json': output.str('write the JSON payload to this file'),
    json: output.flag('print the JSON payload on stdout instead of the summary'),
    'report-html': output.str('write a self-contained HTML report with plots'),
  }) as const satisfies OptionTable;

/**
 * `--calibration-file`'s default, decided here only: calibration.json in the maou-bench cache, which MAOU_BENCH_CACHE
 * moves. The help shows it for the home `~`; the cli resolves it for the real home and environment.
 * @public
 */
export const defaultCalibrationFileIn = (home: string, cacheDir: string | undefined): string =>
  join(cacheDir ?? join(home, '.cache', 'maou-bench'), 'calibration.json');

/** Flags of loader calibration, for commands that train. @public */
export const CALIBRATION_OPTIONS = {
  calibrate: calibration.flag(
    'measure loader settings (workers, prefetch) before the run, or reuse a fresh cached result; --no-calibrate turns it off',
  ),
  'force-calibration': calibration.flag('measure again even when a cached result is valid'),
  'calibration-budget': calibration.num(`how long the calibration may take, ${range(S.CALIBRATION_BUDGET)}`),
  'calibration-file': calibration.str(
    `JSON file of cached calibration results (default ${defaultCalibrationFileIn('~', undefined)}, or calibration.json in MAOU_BENCH_CACHE when set)`,
  ),
} as const satisfies OptionTable;
