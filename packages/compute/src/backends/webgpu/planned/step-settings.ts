import type { NetworkShape } from '@maou/bench-engine/contracts';
import type { ResNetPreset, Stage } from '@maou/bench-domain';
import type { MultiLabelSettings, UpdateSettings } from './kernels';
import type { ActivationType, Dispatch } from './wgsl';

// The planned step's settings and its description, apart from the planner (`describeStep`) so that its pieces
// (`step-plan.ts`, `step-layers.ts`, `step-heads.ts`) can name them without importing it.

/** A trainable tensor of the flat parameter buffer, in the engine's parameter order. @public */
export interface FlatParameter {
  readonly name: string;
  readonly size: number;
  readonly decay: boolean;
}

/** Sizes that split the step's long reductions over workgroups, so a large GPU has work for all its cores. @public */
export interface SplitSizes {
  /** filter gradients split K when each split keeps at least this many output pixels */
  readonly minSplitRows: number;
  /** a norm's gradient sums take this many rows a workgroup (the unsplit sums were 60–73 % of an H100's step) */
  readonly reduceChunkRows: number;
  /** the embedding gradient scans this many board positions a thread */
  readonly embeddingChunkPositions: number;
}

/** @public */
export const SPLIT_SIZES: SplitSizes = { minSplitRows: 256, reduceChunkRows: 512, embeddingChunkPositions: 2048 };

/** What the plan needs beyond the preset: the stage's head and loss, and the optimiser. @public */
export interface PlanSettings {
  readonly preset: ResNetPreset;
  /** blocks and widths instead of the preset's (the engine's `networkShape`; specs: the same topology, narrower) */
  readonly shape?: NetworkShape;
  readonly stage: Stage;
  readonly stage2HiddenDim: number;
  readonly policyLossRatio: number;
  readonly valueLossRatio: number;
  readonly stage1PosWeight: number;
  readonly stage2: Omit<MultiLabelSettings, 'posWeight'> & { readonly posWeight: number };
  readonly update: UpdateSettings;
  /** how finely the step's long reductions are split over workgroups (defaults: `SPLIT_SIZES`; tests lower them) */
  readonly split?: Partial<SplitSizes>;
  /**
   * 'f16' (`--mixed-precision`): activations and their gradients stored as f16, with dynamic loss scaling; parameters,
   * gradients, optimiser state and all arithmetic stay f32. Default 'f32'.
   */
  readonly activations?: ActivationType;
  /** good steps before the loss scale doubles (default PyTorch's 2,000; tests lower it) */
  readonly scaleGrowthInterval?: number;
}

/** The whole step as data: buffer sizes (floats) and the dispatches in order, before any GPU object exists. @public */
export interface StepDescription {
  readonly batch: number;
  readonly buffers: ReadonlyMap<string, number>;
  /** buffers stored as f16 (2 bytes an element; the rest are 4) */
  readonly halfBuffers: ReadonlySet<string>;
  readonly dispatches: readonly Dispatch[];
  /** flat offsets of every parameter (by engine name) in P and G */
  readonly offsets: ReadonlyMap<string, number>;
  /** running statistics: [mean, var] of each batch norm (by engine name) at this offset of R */
  readonly runningOffsets: ReadonlyMap<string, number>;
  readonly parameterFloats: number;
  readonly runningFloats: number;
  /** index of the first dispatch of each phase (the forward starts at 0) */
  readonly phaseStarts: Readonly<Record<'loss' | 'backward' | 'optimizer', number>>;
}

/** Bottleneck expansion of the engine's blocks (a mismatch shows as wrong parameter sizes, refused at set-up). */
export const EXPANSION = 4;
