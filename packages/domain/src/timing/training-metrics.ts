import type { TrainingMetrics } from '../report/benchmark-report';
import { summarize, type SeriesSummary } from '../stats/summary';
import { rateInterval } from '../stats/rate-interval';
import { PHASES, type BatchTiming, type Phase } from './phases';

const sum = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0);
const mean = (xs: readonly number[]): number => sum(xs) / xs.length;

/** How far the second half of a series moved from the first; 0 with fewer than 4 values. */
const halfDrift = (xs: readonly number[]): number =>
  xs.length < 4
    ? 0
    : Math.abs(mean(xs.slice(Math.floor(xs.length / 2))) - mean(xs.slice(0, Math.floor(xs.length / 2))));

/** Per-phase summary and share of wall time over a set of batches, whose phases tile their wall time. @public */
export const phaseBreakdown = (
  batches: readonly BatchTiming[],
): { phase_ms: Record<Phase, SeriesSummary>; phase_share: Record<Phase, number> } => {
  const totalMs = sum(batches.map((b) => b.wallMs));
  return {
    phase_ms: Object.fromEntries(PHASES.map((p) => [p, summarize(batches.map((b) => b.phases[p]))])) as Record<
      Phase,
      SeriesSummary
    >,
    phase_share: Object.fromEntries(PHASES.map((p) => [p, sum(batches.map((b) => b.phases[p])) / totalMs])) as Record<
      Phase,
      number
    >,
  };
};

/**
 * Aggregates the batches of one training pass. Batches before `steadyStart` are warm-up: reported, never counted
 * in throughput. Throughput = measured samples ÷ measured wall time; its interval comes from the batch-time interval.
 * @public
 */
export const computeTrainingMetrics = (
  batches: readonly BatchTiming[],
  steadyStart: number,
  requestedWarmup: number,
): TrainingMetrics => {
  const measured = batches.slice(steadyStart);
  if (measured.length === 0) throw new Error('no measured batches: the run produced fewer batches than its warm-up');
  const warm = batches.slice(0, steadyStart);
  const wall = measured.map((b) => b.wallMs);
  const batchMs = summarize(wall);
  const samples = sum(measured.map((b) => b.samples));
  const totalMs = sum(wall);
  const meanSamples = samples / measured.length;
  const phases = phaseBreakdown(measured);
  const throughput = rateInterval(meanSamples, batchMs.ci95, `the batch time over ${measured.length} measured batches`);
  return {
    total_batches: batches.length,
    warmup_batches: Math.min(requestedWarmup, batches.length),
    steady_state_start: steadyStart,
    measured_batches: measured.length,
    measured_samples: samples,
    batch_size: measured[0]!.samples,
    samples_per_second: (samples / totalMs) * 1000,
    samples_per_second_ci95: throughput.ci95,
    samples_per_second_ci95_note: throughput.note,
    batch_ms: batchMs,
    batch_ms_drift: halfDrift(wall),
    batch_ms_including_warmup_mean: sum(batches.map((b) => b.wallMs)) / batches.length,
    warmup_total_ms: sum(warm.map((b) => b.wallMs)),
    ...phases,
    initial_loss: batches[0]!.loss,
    final_loss: batches[batches.length - 1]!.loss,
    tensors_per_batch: {
      first: measured[0]!.numTensors,
      last: measured[measured.length - 1]!.numTensors,
      leaked_per_batch:
        measured.length < 2
          ? 0
          : (measured[measured.length - 1]!.numTensors - measured[0]!.numTensors) / (measured.length - 1),
    },
  };
};
