import { NETWORK_PRESETS, SeededRandom } from '@maou/bench-engine';
import type { NetworkShape } from '@maou/bench-engine/contracts';
import { type HostBatch, type Stage, type TrainingConfig } from '@maou/bench-domain';

// Shared by the engine specs: training settings that exercise every loss option, and random batches.
/** @public */
export const TRAINING: TrainingConfig = {
  preset: 'lite',
  optimizer: 'adamw',
  learningRate: 1e-3,
  momentum: 0.9,
  beta1: 0.9,
  beta2: 0.999,
  eps: 1e-8,
  weightDecay: 0.01,
  lrScheduler: 'none',
  policyLossRatio: 1,
  valueLossRatio: 0.7,
  gradientClip: 1,
  gradientAccumulationSteps: 1,
  detectAnomaly: false,
  stage1PosWeight: 2,
  stage2PosWeight: 1,
  stage2GammaPos: 1,
  stage2GammaNeg: 2,
  stage2Clip: 0.05,
  stage2HiddenDim: 16,
  stage2HeadDropout: 0,
};

/** @public */
export function randomBatch(stage: Stage, size: number, seed: number): HostBatch {
  const r = new SeededRandom(seed);
  const boardIds = Int32Array.from({ length: size * 81 }, () => Math.floor(r.next() * 29));
  const hands = Float32Array.from({ length: size * 14 }, () => Math.floor(r.next() * 3));
  const bits = (n: number, p: number) => Float32Array.from({ length: n }, () => (r.next() < p ? 1 : 0));
  if (stage === 1) return { stage, size, boardIds, hands, targets: { stage, reachableSquares: bits(size * 81, 0.3) } };
  if (stage === 2) return { stage, size, boardIds, hands, targets: { stage, legalMoves: bits(size * 1496, 0.02) } };
  const moveLabel = bits(size * 1496, 0.004);
  return {
    stage,
    size,
    boardIds,
    hands,
    targets: {
      stage,
      moveLabel,
      resultValue: Float32Array.from({ length: size }, () => [0, 0.5, 1][Math.floor(r.next() * 3)]),
    },
  };
}

/**
 * resnet's topology (blocks 2,2,2,2, the strides, each projection shortcut, expansion 4) at 1/8 of its widths: the
 * WebGPU specs check every kernel of its plan at a fraction of the cost; `pnpm test:gpu-full` runs the full widths.
 * @public
 */
export const NARROW_RESNET: NetworkShape = {
  blocks: NETWORK_PRESETS.resnet.blocks,
  widths: NETWORK_PRESETS.resnet.widths.map((w) => w / 8),
};
