import type { EpochEstimate, SamplingEstimate, TrainingMetrics } from '../report/benchmark-report';

/**
 * Predicted first-epoch time: the measured warm-up as it happened, plus the steady mean batch time for every other
 * batch of the epoch. The interval scales the 95 % interval of the mean batch time the same way.
 * @public
 */
export const estimateEpoch = (m: TrainingMetrics, batchesPerEpoch: number, samplesPerEpoch: number): EpochEstimate => {
  const warm = m.steady_state_start;
  const rest = Math.max(0, batchesPerEpoch - warm);
  const warmupCost = m.warmup_total_ms;
  const [lo, hi] = m.batch_ms.ci95;
  return {
    batches_per_epoch: batchesPerEpoch,
    samples_per_epoch: samplesPerEpoch,
    predicted_ms: warmupCost + m.batch_ms.mean * rest,
    predicted_ms_ci95: [warmupCost + Math.max(0, lo) * rest, warmupCost + hi * rest],
    warmup_cost_ms: warmupCost,
    method: `warm-up as measured (${warm} batches, ${warmupCost.toFixed(0)} ms) + steady mean batch time × ${rest} remaining batches; interval = 95 % CI of the mean batch time × remaining batches`,
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
  const [lo, hi] = m.batch_ms.ci95;
  return {
    sample_ratio: ratio,
    sampled_samples_per_epoch: epoch.samples_per_epoch,
    full_samples_per_epoch: Math.round(epoch.samples_per_epoch / ratio),
    full_epoch_ms: m.warmup_total_ms + m.batch_ms.mean * rest,
    full_epoch_ms_ci95: [m.warmup_total_ms + Math.max(0, lo) * rest, m.warmup_total_ms + hi * rest],
    method: `sampled epoch of ${epoch.batches_per_epoch} batches ÷ ratio ${ratio} = ${fullBatches} batches; warm-up (${m.warmup_total_ms.toFixed(0)} ms) once + steady mean batch time × ${rest}; warm-up time is not divided by the ratio`,
  };
};
