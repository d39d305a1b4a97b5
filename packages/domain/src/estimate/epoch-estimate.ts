import type { EpochEstimate, FileBoundaries, SamplingEstimate, TrainingMetrics } from '../report/benchmark-report';
import { projectEpoch, RUN_TO_RUN_SPREAD, type RunAssessment } from './run-assessment';
import { RESIDUAL_FALL } from './residual-fall';
import type { AdaptiveEpochCorrection } from '../adaptive-batch/adaptive-batch-report';

const seconds = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;

/** The fall the remaining batches are counted with, and where it came from. */
const fallText = (a: RunAssessment): string => {
  const f = a.basis.residualFall;
  const size = `${(Math.abs(f) * 100).toFixed(1)} % ${f < 0 ? 'slower' : 'faster'}`;
  return a.fall
    ? `${size} (what the rest of this machine's last ${a.fall.runs.toFixed(1)} runs did after a look of ${a.fall.afterBatches} batches, drawn toward the assumed ${(RESIDUAL_FALL * 100).toFixed(1)} % as far as they disagreed)`
    : `${size} (assumed: the fall full epochs had after 20–400 batches, less after more; no earlier runs on this machine measured it)`;
};

/** The file boundaries ahead, as the method line says them. */
const boundaryText = (a: RunAssessment): string => {
  const b = a.boundaries;
  if (!b || b.ahead === 0) return '';
  const why =
    b.source === 'observed'
      ? `what the ${b.observed} crossed so far cost over the steady mean`
      : `the loader's read time ${b.readMs.toFixed(0)} ms less ${b.plan.leadBatches} batch(es) it holds ready; none crossed yet`;
  return ` + ${b.ahead} file boundaries ahead × ${b.stallMs.toFixed(0)} ms (${why})`;
};

/** The report's view of the boundaries. */
const fileBoundaries = (a: RunAssessment): FileBoundaries | null => {
  const b = a.boundaries;
  return b
    ? {
        reads_per_epoch: b.plan.readsPerEpoch,
        lead_batches: b.plan.leadBatches,
        beside_step: b.plan.besideStep,
        reads_seen: b.seen,
        ahead: b.ahead,
        stall_ms: b.stallMs,
        source: b.source,
        observed: b.observed,
        read_ms: b.readMs,
      }
    : null;
};

/**
 * Predicted first-epoch time from a run's assessment: the batches run as they happened (warm-up included), plus the
 * steady mean for every batch still to come, with the interval of `assessRun`.
 * @public
 */
export const estimateEpoch = (
  m: TrainingMetrics,
  batchesPerEpoch: number,
  samplesPerEpoch: number,
  a: RunAssessment,
): EpochEstimate => {
  const rest = Math.max(0, batchesPerEpoch - m.total_batches);
  return {
    batches_per_epoch: batchesPerEpoch,
    samples_per_epoch: samplesPerEpoch,
    predicted_ms: a.predictedMs,
    predicted_ms_ci95: a.intervalMs,
    warmup_cost_ms: m.warmup_total_ms,
    method: `${m.total_batches} batches as run (warm-up ${a.steadyStart} batches, ${seconds(m.warmup_total_ms)}) + steady mean ${a.meanMs.toFixed(1)} ms × ${rest} remaining batches, ${fallText(a)}${boundaryText(a)}; interval = 95 % CI of the mean (block means) × remaining, noise of the remaining batches, run-to-run spread ${(a.basis.runToRun * 100).toFixed(1)} % (${a.wander ? `this machine's wander over ${a.wander.windowS} s windows in its last ${a.wander.runs} runs, at least ${(RUN_TO_RUN_SPREAD * 100).toFixed(1)} %` : 'assumed: no earlier runs measured on this machine'}), that fall ± itself${a.boundaries?.ahead ? ', the boundaries ± half themselves' : ''}, in quadrature${a.trending ? ', widened for the trend' : ''}${a.disturbed ? ', down to the quiet floor' : ''}`,
    half_width_fraction: a.halfWidthFraction,
    trend: a.trend,
    trending: a.trending,
    excluded_disturbed_batches: a.excludedDisturbed,
    disturbed: a.disturbed,
    run_to_run: {
      fraction: a.basis.runToRun,
      source: a.wander ? 'machine' : 'assumed',
      window_s: a.wander?.windowS ?? null,
      runs: a.wander?.runs ?? 0,
    },
    residual_fall: {
      fraction: a.basis.residualFall,
      source: a.fall ? 'machine' : 'assumed',
      after_batches: a.fall?.afterBatches ?? null,
      runs: a.fall ? Math.round(a.fall.runs * 10) / 10 : 0,
    },
    file_boundaries: fileBoundaries(a),
    notes: a.notes,
  };
};

/**
 * Scales the steady-state rate from a sampled dataset to the full one: the full epoch has 1/ratio times the
 * batches, each costing the steady mean; warm-up is a one-time cost and is not scaled.
 * @public
 */
export const estimateFromSample = (
  m: TrainingMetrics,
  epoch: EpochEstimate,
  ratio: number,
  a: RunAssessment,
): SamplingEstimate => {
  const fullBatches = Math.ceil(epoch.batches_per_epoch / ratio);
  const full = projectEpoch(a.basis, fullBatches);
  return {
    sample_ratio: ratio,
    sampled_samples_per_epoch: epoch.samples_per_epoch,
    full_samples_per_epoch: Math.round(epoch.samples_per_epoch / ratio),
    full_epoch_ms: full.predictedMs,
    full_epoch_ms_ci95: full.intervalMs,
    method: `sampled epoch of ${epoch.batches_per_epoch} batches ÷ ratio ${ratio} = ${fullBatches} batches; the ${m.total_batches} batches run (warm-up ${seconds(m.warmup_total_ms)} once) + steady mean batch time, ${fallText(a)}, × ${Math.max(0, fullBatches - m.total_batches)}; warm-up time is not divided by the ratio`,
  };
};

/** The epoch estimate with the correction added to the prediction and its interval. @public */
export const withAdaptiveCorrection = (epoch: EpochEstimate, c: AdaptiveEpochCorrection | null): EpochEstimate =>
  c === null
    ? epoch
    : {
        ...epoch,
        predicted_ms: epoch.predicted_ms + c.correction_ms,
        predicted_ms_ci95: [epoch.predicted_ms_ci95[0] + c.correction_ms, epoch.predicted_ms_ci95[1] + c.correction_ms],
        method: `${epoch.method}; adaptive batch: ${c.predicted_remaining_steps} optimiser steps predicted for the ${c.remaining_batches} remaining batches at the last chosen accumulation steps, where the steady mean carries ${(c.measured_steps_per_batch * c.remaining_batches).toFixed(1)}, × ${c.optimizer_ms_per_step.toFixed(1)} ms per optimiser step = ${c.correction_ms >= 0 ? '+' : ''}${c.correction_ms.toFixed(1)} ms`,
      };
