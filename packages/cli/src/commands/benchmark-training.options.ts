import { describeGpuChoices, describeHostBackends } from '@maou/bench-interface';
import type { Options } from 'yargs';
import { BACKENDS } from '../backends';

const num = (describe: string, extra: Options = {}): Options => ({ type: 'number', describe, ...extra });
const str = (describe: string, extra: Options = {}): Options => ({ type: 'string', describe, ...extra });
const flag = (describe: string, extra: Options = {}): Options => ({ type: 'boolean', describe, ...extra });
const paths = (stage: number): Options => ({ type: 'string', array: true, describe: `Stage ${stage} .feather/.npy files or directories`, group: 'Data:' });

const group = (name: string, opts: Record<string, Options>): Record<string, Options> =>
  Object.fromEntries(Object.entries(opts).map(([k, o]) => [k, { group: name, ...o }]));

/** Cloud datasource flags (S3, GCS, BigQuery), shared by the commands that read Stage 3 data. */
export const CLOUD_INPUT_OPTIONS: Record<string, Options> = group('Cloud input (Stage 3):', {
  'input-s3': flag('read from S3'), 'input-gcs': flag('read from Google Cloud Storage'),
  'input-bucket-name': str('bucket'), 'input-prefix': str('object prefix'), 'input-data-name': str('data name filter'),
  'input-local-cache-dir': str('local cache for downloaded objects'), 'input-max-workers': num('parallel downloads (default 8)'),
  'input-enable-bundling': flag('bundle small objects into larger Arrow files'), 'input-bundle-size-gb': num('bundle size in GB (default 1.0)'),
  'input-endpoint': str('custom S3/GCS/BigQuery endpoint (e.g. a local server)'),
  'input-dataset-id': str('BigQuery dataset'), 'input-table-name': str('BigQuery table'),
  'input-batch-size': num('BigQuery rows per page (default 10000)'), 'input-max-cached-bytes': num('BigQuery local cache budget in bytes (default 500 MiB)'),
  'input-clustering-key': str('BigQuery clustering key'), 'input-partitioning-key-date': str('BigQuery DATE partition column name'),
  'input-local-cache': flag('cache BigQuery pages locally'),
});

/** Local Stage 3 input flags, shared by `benchmark-training` and `benchmark-dataloader` (maou gives both the same set). */
export const STAGE3_INPUT_OPTIONS: Record<string, Options> = group('Data:', {
  'stage3-data-path': paths(3),
  streaming: flag('stream files (default with 2+ files); --no-streaming forces map-style', { default: true }),
  'input-cache-mode': str('map-style files: file (read on demand) or memory (load all); mmap = file', { choices: ['file', 'memory', 'mmap'] }),
  'input-file-packed': flag('accepted for compatibility; packing is detected from the file'),
  'sample-positions': num('positions in the embedded sample dataset when no data is given, 16 to 1,000,000 (default 4096)'),
  'sample-cache-dir': str('where the embedded sample dataset is generated and reused'),
  seed: num('seed of splits, shuffles, weights, sample data and cloud sampling (default 1)'),
});

/** Every flag of `benchmark-training`; ranges are checked by @maou/bench-interface, not here. */
export const BENCHMARK_TRAINING_OPTIONS: Record<string, Options> = {
  ...group('Data:', {
    stage: num('1 reachable squares, 2 legal moves, 3 policy + value', { default: 3 }),
    'stage1-data-path': paths(1), 'stage2-data-path': paths(2),
  }),
  ...STAGE3_INPUT_OPTIONS,
  ...CLOUD_INPUT_OPTIONS,
  ...group('Device:', {
    gpu: str(`backend: ${describeGpuChoices(BACKENDS.byPriority())}; default: the best CPU backend (${describeHostBackends(BACKENDS.byPriority())}), which is maou's CPU device`),
    threads: num('backend threads; on wasm, data-parallel replicas in worker threads (default: one per usable core, up to 8)'),
    'model-architecture': str("resnet (maou's default: 17.0 M parameters) or lite (1.9 M, the shogi-optimised preset, 7–11× faster to train here)"),
    compilation: { type: 'boolean', describe: 'accepted; tfjs has no graph compiler (see --help notes)' },
    'stage12-compilation': flag('accepted; as --compilation for Stages 1 and 2'),
    'detect-anomaly': flag('stop at the first non-finite loss or gradient, naming batch and tensor'),
  }),
  ...group('Data pipeline:', {
    'test-ratio': num('validation share, 0 < r < 1 (default 0.2)'), 'batch-size': num('batch size, 1 to 65,536 (default 256)'),
    'dataloader-workers': num('loader worker threads, 0 = main thread, at most 256 (default from detected CPUs)'),
    'pin-memory': flag('reuse transfer buffers instead of fresh allocations'), 'prefetch-factor': num('batches each worker prepares ahead (default 2)'),
    'device-prefetch': num('batches uploaded ahead to the device, 0 = off (default 3)'),
    'cache-transforms': flag('accepted for compatibility; records need no transform'),
  }),
  ...group('Loss and optimiser:', {
    'gce-parameter': num('accepted for compatibility (0 < g ≤ 1); unused by the KL policy loss'),
    'policy-loss-ratio': num('policy loss weight (default 1.0)'), 'value-loss-ratio': num('value loss weight (default 1.0)'),
    'learning-ratio': num('learning rate (default 0.01)'), momentum: num('SGD momentum (default 0.9)'),
    'weight-decay': num('decoupled weight decay on conv/dense/embedding weights (default 0.01)'),
    'lr-scheduler': str('warmup_cosine_decay (default), cosine_annealing, step or none; maou names accepted'),
    'stage12-lr-scheduler': str('scheduler for Stages 1 and 2'),
    optimizer: str('adamw (default) or sgd'), 'optimizer-beta1': num('default 0.9'), 'optimizer-beta2': num('default 0.999'), 'optimizer-eps': num('default 1e-8'),
    'gradient-clip': num('clip gradients to this global L2 norm; maou always clips at 1.0 (default 1.0), 0 = off'), 'gradient-accumulation-steps': num('micro-batches per optimiser step, 1 to 1024 (default 1)'),
  }),
  ...group('Stage 1/2 heads:', {
    'stage1-pos-weight': num('default 1.0'), 'stage2-pos-weight': num('default 1.0'), 'stage2-gamma-pos': num('ASL gamma+ (default 0)'),
    'stage2-gamma-neg': num('ASL gamma- (default 0)'), 'stage2-clip': num('ASL clip (default 0)'), 'stage2-hidden-dim': num('hidden units, 0 = single linear head (default 128)'),
    'stage2-head-dropout': num('default 0'), 'stage2-test-ratio': num('Stage 2 validation share, 0 = no split'),
  }),
  ...group('Run:', {
    'warmup-batches': num('batches before measuring (default 10)'), 'max-batches': num('batch cap, at least 2 (default 100)'),
    'full-epoch': flag('run the whole epoch (ignores --max-batches, --target-precision and --time-budget)'),
    'target-precision': num('stop once the batch time is steady and the epoch interval is within ± this share of the prediction (default 0.05; 0 = run to the cap)'),
    'time-budget': num('seconds of training batches after which the run answers with what it has, and says so (default 60)'),
    'enable-profiling': flag('per-kernel times by phase, and a Chrome trace'),
    'trace-path': str('where the Chrome trace goes with --enable-profiling (default maou-trace.json)'),
    'run-validation': flag('also time an inference-only validation pass, split into the same phases'),
    'sample-ratio': num('share of cloud objects sampled, 0.01–1.0; the report scales it back'),
    'enable-resource-monitoring': flag('sample CPU, RSS, heap and GPU during the training and the validation pass (each apart)'),
  }),
  ...group('Batch study:', {
    'batch-sizes': { type: 'string', array: true, describe: 'sweep: one full measured run per batch size, e.g. 64,128,256 (or 64 128 256); a failed size is reported and the rest still run' },
    'learning-rates': { type: 'string', array: true, describe: 'sweep: one full measured run per learning rate, e.g. 0.001,0.01; not with --batch-sizes' },
    'estimate-cbs': flag('with --batch-sizes: critical batch size from the sweep\'s throughput, and the gradient noise scale measured from per-micro-batch gradient norms (an extra untimed pass at the largest size)'),
    'find-max-batch': flag('largest batch that fits, doubling from --batch-size then bisecting. wasm: fits = each replica\'s share of the batch trains as one piece (no micro-batching) in its 4 GiB heap; larger batches still run as micro-batches. webgpu: the step completes without a GPU allocation failure'),
    'find-max-batch-cap': num('--find-max-batch stops doubling at this many rows (default 65536)'),
  }),
  ...group('Output:', {
    'output-json': str('write the JSON payload to this file'),
    json: flag('print the JSON payload on stdout instead of the summary'),
    'report-html': str('write a self-contained HTML report with plots'),
  }),
};
