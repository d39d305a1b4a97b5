import { flag, inGroup, num, str } from '../options/option-table';

const paths = (stage: number) => ({ type: 'string', array: true, describe: `Stage ${stage} .feather/.npy files or directories` }) as const;

/** Cloud datasource flags (S3, GCS, BigQuery), shared by the commands that read Stage 3 data. @public */
export const CLOUD_INPUT_OPTIONS = inGroup('Cloud input (Stage 3):', {
  'input-s3': flag('read from S3'), 'input-gcs': flag('read from Google Cloud Storage'),
  'input-bucket-name': str('bucket'), 'input-prefix': str('object prefix'), 'input-data-name': str('data name filter'),
  'input-local-cache-dir': str('local cache for downloaded objects'), 'input-max-workers': num('parallel downloads (default 8)'),
  'input-enable-bundling': flag('bundle small objects into larger Arrow files'), 'input-bundle-size-gb': num('bundle size in GB (default 1.0)'),
  'input-endpoint': str('custom S3/GCS/BigQuery endpoint (e.g. a local server)'),
  'input-dataset-id': str('BigQuery dataset'), 'input-table-name': str('BigQuery table'),
  'input-batch-size': num('BigQuery rows per page (default 10000)'), 'input-max-cached-bytes': num('BigQuery local cache budget in bytes (default 500 MiB)'),
  'input-clustering-key': str('BigQuery clustering key'), 'input-partitioning-key-date': str('BigQuery DATE partition column name'),
  'input-local-cache': flag('cache BigQuery pages locally'),
} as const);

/** Local Stage 3 input flags, shared by `benchmark-training` and `benchmark-dataloader` (maou gives both the same set). @public */
export const STAGE3_INPUT_OPTIONS = inGroup('Data:', {
  'stage3-data-path': paths(3),
  streaming: { ...flag('stream files (default with 2+ files); --no-streaming forces map-style'), default: true },
  'input-cache-mode': { ...str('map-style files: file (read on demand) or memory (load all); mmap = file'), choices: ['file', 'memory', 'mmap'] },
  'input-file-packed': flag('accepted for compatibility; packing is detected from the file'),
  'sample-positions': num('positions in the embedded sample dataset when no data is given, 16 to 1,000,000 (default 4096)'),
  'sample-cache-dir': str('where the embedded sample dataset is generated and reused'),
  seed: num('seed of splits, shuffles, weights, sample data and cloud sampling (default 1)'),
} as const);

/** The run flags of `benchmark-training` (calibration apart); ranges are checked by `toBenchmarkConfig`. @public */
export const BENCHMARK_TRAINING_OPTIONS = {
  ...inGroup('Data:', {
    stage: { ...num('1 reachable squares, 2 legal moves, 3 policy + value'), default: 3 },
    'stage1-data-path': paths(1), 'stage2-data-path': paths(2),
  } as const),
  ...STAGE3_INPUT_OPTIONS,
  ...CLOUD_INPUT_OPTIONS,
  ...inGroup('Device:', {
    gpu: str("backend: wasm, webgpu, tensorflow, auto, cuda:N (tfjs-node-gpu) or cpu (pure JavaScript, 160–1,500× slower: a warning says so); default: the best CPU backend (tfjs-node, wasm), which is maou's CPU device"),
    threads: num('backend threads; on wasm, data-parallel replicas in worker threads (default: one per usable core, up to 8)'),
    'model-architecture': str("resnet (maou's default: 17.0 M parameters) or lite (1.9 M, the shogi-optimised preset, 7–11× faster to train here)"),
    compilation: flag('accepted; tfjs has no graph compiler (see --help notes)'),
    'stage12-compilation': flag('accepted; as --compilation for Stages 1 and 2'),
    'detect-anomaly': flag('stop at the first non-finite loss or gradient, naming batch and tensor'),
  } as const),
  ...inGroup('Data pipeline:', {
    'test-ratio': num('validation share, 0 < r < 1 (default 0.2)'), 'batch-size': num('batch size, 1 to 65,536 (default 256)'),
    'dataloader-workers': num('loader worker threads, 0 = main thread, at most 256 (default from detected CPUs)'),
    'pin-memory': flag('reuse transfer buffers instead of fresh allocations'), 'prefetch-factor': num('batches each worker prepares ahead (default 2)'),
    'device-prefetch': num('batches uploaded ahead to the device, 0 = off (default 3)'),
    'cache-transforms': flag('accepted for compatibility; records need no transform'),
  } as const),
  ...inGroup('Loss and optimiser:', {
    'gce-parameter': num('accepted for compatibility (0 < g ≤ 1); unused by the KL policy loss'),
    'policy-loss-ratio': num('policy loss weight (default 1.0)'), 'value-loss-ratio': num('value loss weight (default 1.0)'),
    'learning-ratio': num('learning rate (default 0.01)'), momentum: num('SGD momentum (default 0.9)'),
    'weight-decay': num('decoupled weight decay on conv/dense/embedding weights (default 0.01)'),
    'lr-scheduler': str('warmup_cosine_decay (default), cosine_annealing, step or none; maou names accepted'),
    'stage12-lr-scheduler': str('scheduler for Stages 1 and 2'),
    optimizer: str('adamw (default) or sgd'), 'optimizer-beta1': num('default 0.9'), 'optimizer-beta2': num('default 0.999'), 'optimizer-eps': num('default 1e-8'),
    'gradient-clip': num('clip gradients to this global L2 norm; maou always clips at 1.0 (default 1.0), 0 = off'), 'gradient-accumulation-steps': num('micro-batches per optimiser step, 1 to 1024 (default 1)'),
  } as const),
  ...inGroup('Stage 1/2 heads:', {
    'stage1-pos-weight': num('default 1.0'), 'stage2-pos-weight': num('default 1.0'), 'stage2-gamma-pos': num('ASL gamma+ (default 0)'),
    'stage2-gamma-neg': num('ASL gamma- (default 0)'), 'stage2-clip': num('ASL clip (default 0)'), 'stage2-hidden-dim': num('hidden units, 0 = single linear head (default 128)'),
    'stage2-head-dropout': num('default 0'), 'stage2-test-ratio': num('Stage 2 validation share, 0 = no split'),
  } as const),
  ...inGroup('Run:', {
    'warmup-batches': num('batches before measuring (default 10)'), 'max-batches': num('batch cap, at least 2 (default 100)'),
    'full-epoch': flag('run the whole epoch (ignores --max-batches, --target-precision and --time-budget)'),
    'target-precision': num('stop once the batch time is steady and the epoch interval is within ± this share of the prediction (default 0.05; 0 = run to the cap)'),
    'time-budget': num('seconds of training batches after which the run answers with what it has, and says so (default 60)'),
    'enable-profiling': flag('per-kernel times by phase, and a Chrome trace'),
    'trace-path': str('where the Chrome trace goes with --enable-profiling (default maou-trace.json)'),
    'run-validation': flag('also time an inference-only validation pass, split into the same phases'),
    'sample-ratio': num('share of cloud objects sampled, 0.01–1.0; the report scales it back'),
    'enable-resource-monitoring': flag('sample CPU, RSS, heap and GPU during the training and the validation pass (each apart)'),
  } as const),
  ...inGroup('Batch study:', {
    'batch-sizes': { type: 'string', array: true, describe: 'sweep: one full measured run per batch size, e.g. 64,128,256 (or 64 128 256); a failed size is reported and the rest still run' },
    'learning-rates': { type: 'string', array: true, describe: 'sweep: one full measured run per learning rate, e.g. 0.001,0.01; not with --batch-sizes' },
    'estimate-cbs': flag('with --batch-sizes: critical batch size from the sweep\'s throughput, and the gradient noise scale measured from per-micro-batch gradient norms (an extra untimed pass at the largest size)'),
    'find-max-batch': flag('largest batch that fits, doubling from --batch-size then bisecting. wasm: fits = each replica\'s share of the batch trains as one piece (no micro-batching) in its 4 GiB heap; larger batches still run as micro-batches. webgpu: the step completes without a GPU allocation failure'),
    'find-max-batch-cap': num('--find-max-batch stops doubling at this many rows (default 65536)'),
  } as const),
  ...inGroup('Output:', {
    'output-json': str('write the JSON payload to this file'),
    json: flag('print the JSON payload on stdout instead of the summary'),
    'report-html': str('write a self-contained HTML report with plots'),
  } as const),
};

/** Flags of loader calibration, for commands that train. @public */
export const CALIBRATION_OPTIONS = inGroup('Calibration:', {
  calibrate: flag('measure loader settings (workers, prefetch) before the run, or reuse a fresh cached result; --no-calibrate turns it off'),
  'force-calibration': flag('measure again even when a cached result is valid'),
  'calibration-budget': num('seconds the calibration may take, 0.1 to 3600 (default 20)'),
  'calibration-file': str('JSON file of cached calibration results (default ~/.cache/maou-bench/calibration.json)'),
} as const);
