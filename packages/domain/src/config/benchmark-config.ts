import type { Stage } from '../data/stage';
import type { PolicyTargetMode } from '../data/policy-target';
import type { AdaptiveBatchSettings } from '../adaptive-batch/adaptive-batch';
import { MIXER_DEPTH, RESNET_STAGES, VIT_NUM_LAYERS } from './model-settings';

/** The convolutional presets: `resnet` (maou's default) and `lite`, the shogi-optimised configuration. @public */
export type ResNetPreset = 'lite' | 'resnet';
/** `--model-architecture`: a ResNet preset, or maou's token backbones `mlp-mixer` and `vit`. @public */
export type ModelPreset = ResNetPreset | 'mlp-mixer' | 'vit';
/** @public */
export const isResNetPreset = (p: ModelPreset): p is ResNetPreset => p === 'lite' || p === 'resnet';

/**
 * The groups `--trainable-layers` counts in maou's grouping (`get_freezable_groups`): the ResNet stages, the Mixer
 * blocks or the ViT's encoder blocks. maou clamps a larger value to this.
 * @public
 */
export const freezableGroupCount = (preset: ModelPreset, vitLayers: number = VIT_NUM_LAYERS.default): number =>
  isResNetPreset(preset) ? RESNET_STAGES : preset === 'mlp-mixer' ? MIXER_DEPTH : vitLayers;

/** The ViT's shape (`--vit-*`); maou's `VisionTransformerConfig` defaults are 512, 6, 8, 4.0 and 0.1. @public */
export interface VitSettings {
  readonly embedDim: number;
  readonly numLayers: number;
  readonly numHeads: number;
  readonly mlpRatio: number;
  readonly dropout: number;
}
/** @public */
export type OptimizerName = 'adamw' | 'sgd';
/** @public */
export type LrSchedulerName = 'warmup_cosine_decay' | 'cosine_annealing' | 'step' | 'none';
/** How map-style files are held: read on demand or loaded whole. @public */
export type CacheMode = 'file' | 'memory';

/**
 * Where the records come from, exactly one per run: the spec a datasource plug-in parsed from its flags. Its kind
 * picks the plug-in that opens it; the fields here are what the rest of the run needs to know about it, so nothing
 * outside the plug-in tests kinds. A plug-in's own settings (bucket, paths, ...) are fields of its extension of this.
 * @public
 */
export interface DataSourceSpec {
  readonly kind: string;
  /** how notes and messages name it: `local files`, `the embedded sample data`, `S3` */
  readonly label: string;
  /** `--sample-ratio` samples it (cloud objects or pages); otherwise it is read whole */
  readonly sampled: boolean;
  /** its files may be streamed (the loader's default with 2+ files) */
  readonly streamable: boolean;
  /** generated data, not the user's: summaries say so */
  readonly synthetic?: boolean;
  /** paths it reads, which no output may overwrite */
  readonly reads?: readonly string[];
  /** a directory it writes (a cache), checked before the run; `field` names the flag (or the default) that set it */
  readonly writes?: { readonly field: string; readonly dir: string };
  /** JS heap it may need in this process to open (generated data), checked before the run against the heap limit */
  readonly heapNeed?: { readonly bytes: number; readonly what: string };
}

/** Loader settings. @public */
export interface DataLoaderConfig {
  readonly batchSize: number;
  readonly workers: number;
  readonly prefetchFactor: number;
  readonly pinMemory: boolean;
  readonly persistentWorkers: boolean;
  readonly streaming: boolean;
  readonly shuffle: boolean;
  readonly testRatio: number;
  readonly cacheMode: CacheMode;
  /** batches prepared ahead on the device; 0 turns device prefetch off */
  readonly devicePrefetch: number;
  readonly seed: number;
  /** Stage 3 training: what the policy head learns; absent: the files' moveLabel as read */
  readonly policyTargetMode?: PolicyTargetMode;
}

/** Model, loss and optimiser settings. @public */
export interface TrainingConfig {
  readonly preset: ModelPreset;
  readonly optimizer: OptimizerName;
  readonly learningRate: number;
  readonly momentum: number;
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  readonly weightDecay: number;
  readonly lrScheduler: LrSchedulerName;
  readonly policyLossRatio: number;
  readonly valueLossRatio: number;
  readonly gradientClip: number;
  readonly gradientAccumulationSteps: number;
  readonly detectAnomaly: boolean;
  readonly stage1PosWeight: number;
  readonly stage2PosWeight: number;
  readonly stage2GammaPos: number;
  readonly stage2GammaNeg: number;
  readonly stage2Clip: number;
  readonly stage2HiddenDim: number;
  readonly stage2HeadDropout: number;
  /**
   * `--mixed-precision` (webgpu's planned step only): f16 activations, f32 master weights, dynamic loss scaling, as
   * maou's AMP on CUDA. Absent or false: f32 throughout.
   */
  readonly mixedPrecision?: boolean;
  /** `--vit-*` overrides (only with `vit`); absent fields take maou's defaults */
  readonly vit?: Partial<VitSettings>;
  /** `--gradient-checkpointing` (ViT): blocks recompute their activations in backward */
  readonly gradientCheckpointing?: boolean;
  /** `--freeze-backbone` as given (maou's configuration echoes it) */
  readonly freezeBackbone?: boolean;
  /** `--trainable-layers N` as given: the trailing backbone groups that train; wins over `freezeBackbone` */
  readonly trainableLayers?: number | null;
  /** `--adaptive-batch` (Stage 3): the controller's settings; absent or null: fixed `gradientAccumulationSteps` */
  readonly adaptiveBatch?: AdaptiveBatchSettings | null;
}

/**
 * The trailing backbone groups that train, as maou resolves its two flags: `--trainable-layers` when given (it wins
 * over `--freeze-backbone`), else 0 with `--freeze-backbone`, else null (no freezing).
 * @public
 */
export const effectiveTrainableLayers = (
  t: Pick<TrainingConfig, 'freezeBackbone' | 'trainableLayers'>,
): number | null => t.trainableLayers ?? (t.freezeBackbone ? 0 : null);

/**
 * Compute backend request: the name of a registered backend (the compute package's registry owns the names; the
 * interface layer checks `--gpu` against it); `auto` for the highest-priority one that starts; `host` for the highest-priority
 * CPU one (tfjs-node, wasm, then cpu), which is what no `--gpu` means, as in maou.
 * @public
 */
export interface ComputeConfig {
  readonly backend: string;
  readonly deviceIndex: number;
  readonly threads: number | 'auto';
  /** `--mixed-precision`: the device is created with the f16 feature it needs (webgpu: shader-f16) */
  readonly mixedPrecision?: boolean;
}

// The GPU backends by name, as they were when reports did not record the placement: only for those older reports.
const GPU_BACKENDS_BEFORE_PLACEMENT: readonly string[] = ['webgpu', 'tensorflow-gpu'];

/**
 * Whether a run's backend computed on a GPU: its placement in the backend registry, as the report records it. Only on
 * a GPU is a GPU figure (utilisation, device memory) the run's own, which is why maou samples the GPU only for a CUDA
 * device. A report without `backend_placement` predates the field and is judged by the backend's name.
 * @public
 */
export const isGpuBackend = (environment: {
  readonly backend: string;
  readonly backend_placement?: 'host' | 'device';
}): boolean =>
  environment.backend_placement === undefined
    ? GPU_BACKENDS_BEFORE_PLACEMENT.includes(environment.backend)
    : environment.backend_placement === 'device';

/** When a run may stop before its batch cap: steady, and the interval's half-width within a share of the prediction. @public */
export interface StoppingRule {
  /** half-width ÷ prediction to reach, e.g. 0.05; 0 never stops early */
  readonly targetPrecision: number;
  /** wall time of the training batches after which the run stops with what it has */
  readonly timeBudgetMs: number;
  /**
   * false: nobody typed `--max-batches`, so the rule and the budget decide how long to measure, and `maxBatches` (maou's
   * default 100) only bounds validation and the maou block; true or absent: the cap binds the training pass too.
   */
  readonly capGiven?: boolean;
}

/** Everything one `benchmark-training` run needs, validated. @public */
export interface BenchmarkConfig {
  readonly stage: Stage;
  readonly source: DataSourceSpec;
  readonly loader: DataLoaderConfig;
  readonly training: TrainingConfig;
  readonly compute: ComputeConfig;
  readonly warmupBatches: number;
  /** null runs the whole epoch */
  readonly maxBatches: number | null;
  /** stop early once the epoch prediction is good enough; absent: run exactly `maxBatches` (or the epoch) */
  readonly stopping?: StoppingRule;
  readonly runValidation: boolean;
  readonly sampleRatio: number | null;
  readonly enableProfiling: boolean;
  readonly enableResourceMonitoring: boolean;
  readonly compilation: boolean;
}
