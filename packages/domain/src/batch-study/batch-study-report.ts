import type { BenchmarkTrainingReport, EnvironmentInfo, Recommendation } from '../report/benchmark-report';
import type { CriticalBatchEstimate } from './critical-batch';
import type { GradientNoiseMeasurement } from './gradient-noise';
import type { MaxBatchResult } from './max-batch-search';
import type { RateCi95 } from '../stats/rate-interval';
import type { MaouSweepPayload } from '../report/maou-sweep-payload';

/** Which setting a sweep varies. @public */
export type SweepKind = 'batch_size' | 'learning_rate';

/** One sweep point that ran: its headline figures and the full single-run report. @public */
export interface SweepPointOk {
  readonly status: 'ok';
  readonly batch_size: number;
  readonly learning_rate: number;
  /** samples of an epoch ÷ the epoch estimate: the single run's estimator, warm-up once, its interval inverted */
  readonly samples_per_second: number;
  readonly samples_per_second_ci95: RateCi95;
  /** why `samples_per_second_ci95` has no high end (the epoch interval reaches 0 ms); null when it has one */
  readonly samples_per_second_ci95_note: string | null;
  /** the point's own epoch estimate and interval, as a single run at this setting reports them */
  readonly epoch_ms: number;
  readonly epoch_ms_ci95: readonly [number, number];
  readonly epoch_half_width_fraction: number;
  readonly batch_ms_mean: number;
  readonly batch_ms_ci95: readonly [number, number];
  readonly measured_batches: number;
  readonly initial_loss: number;
  readonly final_loss: number;
  readonly report: BenchmarkTrainingReport;
}

/** One sweep point that failed (out of memory, heap limit, …); the others still ran. @public */
export interface SweepPointFailed {
  readonly status: 'failed';
  readonly batch_size: number;
  readonly learning_rate: number;
  readonly error_kind: string;
  readonly reason: string;
}

/** @public */
export type SweepPoint = SweepPointOk | SweepPointFailed;

/** How the throughput CBS and the measured gradient noise scale compare. @public */
export interface NoiseScaleComparison {
  /** throughput CBS (unrounded) ÷ measured B_simple */
  readonly ratio: number;
  /** whether the throughput CBS lies inside B_simple's interval */
  readonly within_interval: boolean;
  readonly note: string;
}

/** The payload of `benchmark-training` with `--batch-sizes`, `--learning-rates` or `--find-max-batch`. @public */
export interface BatchStudyReport {
  readonly schema_version: 1;
  readonly command: 'benchmark-training';
  readonly kind: 'batch-study';
  readonly created_at: string;
  readonly stage: 1 | 2 | 3;
  readonly model: { readonly preset: string };
  readonly environment: EnvironmentInfo;
  readonly sweep: { readonly type: SweepKind; readonly points: readonly SweepPoint[] } | null;
  readonly critical_batch: CriticalBatchEstimate | null;
  /** why the CBS could not be estimated, when it was asked for */
  readonly critical_batch_skipped: string | null;
  readonly gradient_noise: (GradientNoiseMeasurement & { readonly comparison: NoiseScaleComparison | null }) | null;
  /** why the gradient noise scale could not be measured, when it was asked for */
  readonly gradient_noise_skipped: string | null;
  readonly max_batch: MaxBatchResult | null;
  readonly recommendations: readonly Recommendation[];
  /** the sweep in maou's payload layout (`--batch-sizes` / `--learning-rates`); absent without a sweep */
  readonly maou?: MaouSweepPayload;
  /** maou sweep keys `maou` leaves out, each with why; absent without a sweep */
  readonly maou_omitted?: Readonly<Record<string, string>>;
  /** set when a stop request ended the study early: the points it finished are reported, the one it cut is failed */
  readonly interruption?: PointsInterruption;
}

/** Why and when a run of several measured points (a batch study's sweep, a loader grid) stopped early. @public */
export interface PointsInterruption {
  readonly reason: string;
  readonly completed_points: number;
  readonly planned_points: number;
}

/** Compares the throughput model's CBS with the measured B_simple. @public */
export const compareNoiseScales = (
  cbs: CriticalBatchEstimate | null,
  measured: GradientNoiseMeasurement,
): NoiseScaleComparison | null => {
  if (!cbs || cbs.gradient_noise_scale === null || measured.b_simple === null) return null;
  const x = cbs.gradient_noise_scale;
  const ratio = x / measured.b_simple;
  const [lo, hi] = measured.b_simple_ci95;
  const within = x >= lo && (hi === null || x <= hi);
  const factor = ratio >= 1 ? ratio : 1 / ratio;
  return {
    ratio,
    within_interval: within,
    note:
      `the throughput CBS (${x.toFixed(1)}) is ${factor.toFixed(1)}× ${ratio >= 1 ? 'above' : 'below'} the measured B_simple (${measured.b_simple.toFixed(1)})` +
      `${within ? ', inside its interval' : ', outside its interval'}. They measure different things: the first is where this machine's ` +
      'samples/s stops growing with the batch, the second where larger batches stop reducing the number of steps training needs.',
  };
};
