import {
  BATCH_SIZE,
  type ModelPreset,
  type Stage,
  type TrainingConfig,
  type ValidationIssue,
} from '@maou/bench-domain';

// Widths, layers and per-stage batches share --batch-size's ceiling: past it a value is a typo, not a plan.
const MAX = BATCH_SIZE.bounds.max;
import { optionGroup, type OptionTable } from '../options/option-table';

const model = optionGroup('Model (maou HEAD):');

/** maou HEAD's backbone and freezing flags, and its per-stage batch sizes. @public */
export const MODEL_OPTIONS = {
  'vit-embed-dim': model.num('ViT embedding width (default 512; divisible by --vit-num-heads); only with vit'),
  'vit-num-layers': model.num('ViT encoder blocks (default 6); only with vit'),
  'vit-num-heads': model.num('ViT attention heads (default 8); only with vit'),
  'vit-mlp-ratio': model.num('ViT MLP hidden width over the embedding width (default 4.0); only with vit'),
  'vit-dropout': model.num('ViT dropout, 0 to 1 (default 0.1); only with vit'),
  'gradient-checkpointing': model.flag('ViT: recompute each encoder block in backward (less memory, more time)'),
  'freeze-backbone': model.flag('train only the heads: embedding, hand projection and backbone frozen'),
  'trainable-layers': model.num(
    "trailing backbone groups that still train (maou's grouping: resnet stages, mixer or encoder blocks); wins over --freeze-backbone",
  ),
  'stage1-batch-size': model.num('Stage 1 batch size (default --batch-size)'),
  'stage2-batch-size': model.num('Stage 2 batch size (default --batch-size)'),
} as const satisfies OptionTable;

/** The raw values of those flags. @public */
export interface RawModelOptions {
  readonly vitEmbedDim?: number;
  readonly vitNumLayers?: number;
  readonly vitNumHeads?: number;
  readonly vitMlpRatio?: number;
  readonly vitDropout?: number;
  readonly gradientCheckpointing?: boolean;
  readonly freezeBackbone?: boolean;
  readonly trainableLayers?: number;
  readonly stage1BatchSize?: number;
  readonly stage2BatchSize?: number;
}

type ModelFields = Pick<TrainingConfig, 'vit' | 'gradientCheckpointing' | 'freezeBackbone' | 'trainableLayers'>;

const isInt = (v: number) => Number.isInteger(v);
// maou's ViT defaults, for the divisibility check of a partial override
const VIT_WIDTH = 512;
const VIT_HEADS = 8;

/**
 * Checks maou HEAD's model flags before any I/O: maou's bounds and messages where it has them (trainable_layers,
 * stageN_batch_size), torch's construction errors as usage errors otherwise (a width not divisible by the heads, a
 * dropout outside [0, 1]). `--vit-*` and `--gradient-checkpointing` without `--model-architecture vit` are refused
 * naming both flags: maou drops them silently and would measure another network than the one asked for.
 * @public
 */
export const checkModelOptions = (
  raw: RawModelOptions,
  preset: ModelPreset,
  stage: Stage,
): { fields: ModelFields; batchSize?: number; issues: ValidationIssue[]; warnings: string[] } => {
  const issues: ValidationIssue[] = [];
  const warnings: string[] = [];
  const positiveInt = (flag: string, v: number | undefined, min = 1) => {
    if (v !== undefined && !(isInt(v) && v >= min && v <= MAX))
      issues.push({
        field: flag,
        message: `must be an integer from ${min} to ${MAX.toLocaleString('en-US')}, got ${v}`,
      });
  };
  positiveInt('--vit-embed-dim', raw.vitEmbedDim);
  positiveInt('--vit-num-layers', raw.vitNumLayers, 0);
  positiveInt('--vit-num-heads', raw.vitNumHeads);
  if (raw.vitMlpRatio !== undefined && !(raw.vitMlpRatio > 0 && raw.vitMlpRatio <= 1024))
    issues.push({ field: '--vit-mlp-ratio', message: `must be positive, at most 1024, got ${raw.vitMlpRatio}` });
  if (raw.vitDropout !== undefined && !(raw.vitDropout >= 0 && raw.vitDropout <= 1))
    issues.push({
      field: '--vit-dropout',
      message: `dropout probability has to be between 0 and 1, got ${raw.vitDropout}`,
    });
  const vitFlags = (
    [
      ['--vit-embed-dim', raw.vitEmbedDim],
      ['--vit-num-layers', raw.vitNumLayers],
      ['--vit-num-heads', raw.vitNumHeads],
      ['--vit-mlp-ratio', raw.vitMlpRatio],
      ['--vit-dropout', raw.vitDropout],
      ['--gradient-checkpointing', raw.gradientCheckpointing || undefined],
    ] as const
  ).filter(([, v]) => v !== undefined);
  if (preset !== 'vit')
    for (const [flag] of vitFlags)
      issues.push({ field: flag, message: `needs --model-architecture vit (got --model-architecture ${preset})` });
  const width = raw.vitEmbedDim ?? VIT_WIDTH;
  const heads = raw.vitNumHeads ?? VIT_HEADS;
  if (preset === 'vit' && isInt(width) && isInt(heads) && heads > 0 && width % heads !== 0)
    issues.push({
      field: '--vit-embed-dim',
      message: `embed_dim must be divisible by num_heads for multi-head attention: --vit-embed-dim ${width}, --vit-num-heads ${heads}`,
    });
  if (
    preset === 'vit' &&
    raw.vitMlpRatio !== undefined &&
    raw.vitMlpRatio > 0 &&
    Math.trunc(width * raw.vitMlpRatio) < 1
  )
    issues.push({
      field: '--vit-mlp-ratio',
      message: `int(--vit-embed-dim ${width} × --vit-mlp-ratio ${raw.vitMlpRatio}) is 0: the MLP needs a hidden unit`,
    });
  const tl = raw.trainableLayers;
  if (tl !== undefined && !(isInt(tl) && tl >= 0 && tl <= 1_000_000))
    issues.push({ field: '--trainable-layers', message: `trainable_layers must be non-negative, got ${tl}` });
  if (tl !== undefined && raw.freezeBackbone)
    warnings.push(`--freeze-backbone and --trainable-layers both given: using trainable_layers=${tl}, as maou does`);
  const stageBatch = (n: 1 | 2, v: number | undefined) => {
    if (v === undefined) return;
    if (!(isInt(v) && v >= BATCH_SIZE.bounds.min && v <= MAX))
      issues.push({
        field: `--stage${n}-batch-size`,
        message: `stage${n}_batch_size must be positive (at most ${MAX.toLocaleString('en-US')}), got ${v}`,
      });
    else if (stage !== n)
      warnings.push(`--stage${n}-batch-size ${v} applies to Stage ${n}; this run is Stage ${stage}`);
  };
  stageBatch(1, raw.stage1BatchSize);
  stageBatch(2, raw.stage2BatchSize);
  const vit = {
    ...(raw.vitEmbedDim !== undefined ? { embedDim: raw.vitEmbedDim } : {}),
    ...(raw.vitNumLayers !== undefined ? { numLayers: raw.vitNumLayers } : {}),
    ...(raw.vitNumHeads !== undefined ? { numHeads: raw.vitNumHeads } : {}),
    ...(raw.vitMlpRatio !== undefined ? { mlpRatio: raw.vitMlpRatio } : {}),
    ...(raw.vitDropout !== undefined ? { dropout: raw.vitDropout } : {}),
  };
  const batchSize = stage === 1 ? raw.stage1BatchSize : stage === 2 ? raw.stage2BatchSize : undefined;
  return {
    fields: {
      ...(preset === 'vit' ? { vit } : {}),
      gradientCheckpointing: raw.gradientCheckpointing ?? false,
      freezeBackbone: raw.freezeBackbone ?? false,
      trainableLayers: tl ?? null,
    },
    ...(batchSize !== undefined ? { batchSize } : {}),
    issues,
    warnings,
  };
};
