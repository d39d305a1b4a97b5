import type { EpochEstimate, SamplingEstimate, TrainingMetrics } from '../report/benchmark-report';

/**
 * Relative spread between repeated runs of the same configuration that one run cannot observe (machine load,
 * frequency scaling). Measured with `pnpm bench:epoch` on a shared 2-core VM: eight capped-run predictions were
 * 0.928–1.104 of the full epoch (standard deviation 0.058), so ±11 % (≈ 1.96 σ) is allowed for.
 * @public
 */
export const RUN_TO_RUN_SPREAD = 0.11;

/** Per-batch half-width: the widest of the CI of the mean, the drift between halves, and the run-to-run spread. */
const batchHalfWidth = (m: TrainingMetrics): number =>
  Math.max((m.batch_ms.ci95[1] - m.batch_ms.ci95[0]) / 2, m.batch_ms_drift, RUN_TO_RUN_SPREAD * m.batch_ms.mean);

/**
 * Predicted first-epoch time: the measured warm-up as it happened, plus the steady mean batch time for every other
 * batch of the epoch. The interval's half-width per batch is the widest of the 95 % CI of the mean, the drift
 * between the two halves of the measured batches (batch times that still trend are not iid noise), and the
 * run-to-run spread.
 * @public
 */
export const estimateEpoch = (m: TrainingMetrics, batchesPerEpoch: number, samplesPerEpoch: number): EpochEstimate => {
  const warm = m.steady_state_start;
  const rest = Math.max(0, batchesPerEpoch - warm);
  const warmupCost = m.warmup_total_ms;
  const half = batchHalfWidth(m);
  const [lo, hi] = [m.batch_ms.mean - half, m.batch_ms.mean + half];
  return {
    batches_per_epoch: batchesPerEpoch,
    samples_per_epoch: samplesPerEpoch,
    predicted_ms: warmupCost + m.batch_ms.mean * rest,
    predicted_ms_ci95: [warmupCost + Math.max(0, lo) * rest, warmupCost + hi * rest],
    warmup_cost_ms: warmupCost,
    method: `warm-up as measured (${warm} batches, ${warmupCost.toFixed(0)} ms) + steady mean batch time × ${rest} remaining batches; interval = ±max(95 % CI of the mean, half-to-half drift ${m.batch_ms_drift.toFixed(1)} ms, run-to-run spread ${RUN_TO_RUN_SPREAD * 100} %) per batch × remaining batches`,
  };
};

/**
 * Scales the steady-state rate from a sampled dataset to the full one: the full epoch has 1/ratio times the
 * batches, each costing the steady mean; warm-up is a one-time cost and is not scaled.
 * @public
 */
export const estimateFromSample = (m: TrainingMetrics, epoch: EpochEstimate, ratio: number): SamplingEstimate => {
  const fullBatches = Math.ceil(epoch.batches_per_epoch / ratio);
  const rest = Math.max(0, fullBatches - m.steady_state_start);
  const half = batchHalfWidth(m);
  const [lo, hi] = [m.batch_ms.mean - half, m.batch_ms.mean + half];
  return {
    sample_ratio: ratio,
    sampled_samples_per_epoch: epoch.samples_per_epoch,
    full_samples_per_epoch: Math.round(epoch.samples_per_epoch / ratio),
    full_epoch_ms: m.warmup_total_ms + m.batch_ms.mean * rest,
    full_epoch_ms_ci95: [m.warmup_total_ms + Math.max(0, lo) * rest, m.warmup_total_ms + hi * rest],
    method: `sampled epoch of ${epoch.batches_per_epoch} batches ÷ ratio ${ratio} = ${fullBatches} batches; warm-up (${m.warmup_total_ms.toFixed(0)} ms) once + steady mean batch time × ${rest}; warm-up time is not divided by the ratio`,
  };
};
