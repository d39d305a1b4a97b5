import * as S from '@maou/bench-domain';
import {
  BATCH_SIZE,
  checkBoundedNumber,
  checkBoundedNumbers,
  describeDefault as dflt,
  describeRange,
  type ModelPreset,
  type Stage,
  type TrainingConfig,
  type ValidationIssue,
} from '@maou/bench-domain';

import { optionGroup, type OptionTable } from '../options/option-table';

const model = optionGroup('Model (maou HEAD):');

/** maou HEAD's backbone and freezing flags, and its per-stage batch sizes. @public */
export const MODEL_OPTIONS = {
  'vit-embed-dim': model.num(
    `ViT embedding width ${dflt(S.VIT_EMBED_DIM)}, divisible by --vit-num-heads; ignored by other backbones`,
  ),
  'vit-num-layers': model.num(`ViT encoder blocks ${dflt(S.VIT_NUM_LAYERS)}; ignored by other backbones`),
  'vit-num-heads': model.num(`ViT attention heads ${dflt(S.VIT_NUM_HEADS)}; ignored by other backbones`),
  'vit-mlp-ratio': model.num(
    `ViT MLP hidden width over the embedding width ${dflt(S.VIT_MLP_RATIO)}; ignored by other backbones`,
  ),
  'vit-dropout': model.num(
    `ViT dropout, ${describeRange(S.VIT_DROPOUT.bounds)} ${dflt(S.VIT_DROPOUT)}; ignored by other backbones`,
  ),
  'gradient-checkpointing': model.flag(
    'ViT: recompute each encoder block in backward (less memory, more time); no effect on other backbones',
  ),
  'freeze-backbone': model.flag('train only the heads: embedding, hand projection and backbone frozen'),
  'trainable-layers': model.num(
    "trailing backbone groups that still train (maou's grouping: resnet stages, mixer or encoder blocks; more than there are = all); wins over --freeze-backbone",
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
// what maou's get_freezable_groups() returns for each backbone
const GROUPS_OF: Record<ModelPreset, string> = {
  lite: 'its stages',
  resnet: 'its stages',
  'mlp-mixer': 'its mixer blocks',
  vit: 'its encoder blocks, --vit-num-layers',
};
const inBounds = (v: number, s: S.Setting) => checkBoundedNumber(s.flag, v, s.bounds) === null;

/**
 * Checks maou HEAD's model flags before any I/O: maou's bounds and messages where it has them (trainable_layers,
 * stageN_batch_size, whose value the resource plan takes), torch's construction errors as usage errors otherwise (a width not divisible by the heads, a
 * dropout outside [0, 1)). What maou accepts and ignores is accepted with a note saying it has no effect: `--vit-*`
 * and `--gradient-checkpointing` without `--model-architecture vit`, and `--trainable-layers` past the network's
 * groups (maou clamps it).
 * @public
 */
export const checkModelOptions = (
  raw: RawModelOptions,
  preset: ModelPreset,
  stage: Stage,
): { fields: ModelFields; issues: ValidationIssue[]; warnings: string[] } => {
  const issues: ValidationIssue[] = [];
  const warnings: string[] = [];
  issues.push(
    ...checkBoundedNumbers([
      [S.VIT_EMBED_DIM.flag, raw.vitEmbedDim, S.VIT_EMBED_DIM.bounds],
      [S.VIT_NUM_LAYERS.flag, raw.vitNumLayers, S.VIT_NUM_LAYERS.bounds],
      [S.VIT_NUM_HEADS.flag, raw.vitNumHeads, S.VIT_NUM_HEADS.bounds],
      [S.VIT_MLP_RATIO.flag, raw.vitMlpRatio, S.VIT_MLP_RATIO.bounds],
    ]),
  );
  // torch's wording outside [0, 1]; at 1 torch builds the layer, but every activation is dropped
  const p = raw.vitDropout;
  if (p !== undefined && !inBounds(p, S.VIT_DROPOUT))
    issues.push({
      field: '--vit-dropout',
      message:
        p === 1
          ? `must be in ${describeRange(S.VIT_DROPOUT.bounds)}, got 1: every activation would be dropped and the encoder could learn nothing`
          : `dropout probability has to be between 0 and 1, got ${p}`,
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
  if (preset !== 'vit' && vitFlags.length)
    warnings.push(
      `${vitFlags.map(([flag]) => flag).join(', ')} ${vitFlags.length > 1 ? 'have' : 'has'} no effect with --model-architecture ${preset}: ${vitFlags.length > 1 ? 'they shape' : 'it shapes'} the ViT only (maou accepts and ignores ${vitFlags.length > 1 ? 'them' : 'it'} too)`,
    );
  const width = raw.vitEmbedDim ?? S.VIT_EMBED_DIM.default;
  const heads = raw.vitNumHeads ?? S.VIT_NUM_HEADS.default;
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
  if (tl !== undefined && !inBounds(tl, S.TRAINABLE_LAYERS))
    issues.push({ field: '--trainable-layers', message: `trainable_layers must be non-negative, got ${tl}` });
  const groups = S.freezableGroupCount(preset, raw.vitNumLayers ?? S.VIT_NUM_LAYERS.default);
  if (tl !== undefined && inBounds(tl, S.TRAINABLE_LAYERS) && tl > groups)
    warnings.push(
      `--trainable-layers ${tl} is more than the ${groups} freezable group(s) of ${preset} (${GROUPS_OF[preset]}): all ${groups} train, as maou clamps it`,
    );
  if (tl !== undefined && raw.freezeBackbone)
    warnings.push(`--freeze-backbone and --trainable-layers both given: using trainable_layers=${tl}, as maou does`);
  const stageBatch = (n: 1 | 2, v: number | undefined) => {
    if (v === undefined) return;
    if (!inBounds(v, BATCH_SIZE))
      issues.push({
        field: `--stage${n}-batch-size`,
        message: `stage${n}_batch_size must be positive (at most ${BATCH_SIZE.bounds.max.toLocaleString('en-US')}), got ${v}`,
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
  return {
    fields: {
      ...(preset === 'vit' ? { vit } : {}),
      gradientCheckpointing: preset === 'vit' && (raw.gradientCheckpointing ?? false),
      freezeBackbone: raw.freezeBackbone ?? false,
      trainableLayers: tl ?? null,
    },
    issues,
    warnings,
  };
};
