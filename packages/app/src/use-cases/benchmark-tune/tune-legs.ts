import {
  err,
  ok,
  type BenchmarkConfig,
  type BenchmarkTrainingReport,
  type Result,
  type TuneSide,
} from '@maou/bench-domain';
import type { BenchmarkTrainingError } from '../benchmark-training/benchmark-training.errors';
import type { BenchmarkTrainingUseCase, TrainingSession } from '../benchmark-training/benchmark-training.use-case';
import type { BenchmarkTuneInput } from './benchmark-tune.input';
import type { StopRequest } from '../benchmark-training/benchmark-training.input';
import { StepFailure } from '../step-failure';
import type { ClockPort } from '../../ports/clock.port';

/**
 * A leg measures the training pass alone, for `ms` of training batches whatever cap the user typed (the stopping rule
 * never stops it early, so every leg of a tune is as long), without validation, profiling or resource sampling.
 */
export const legConfig = (config: BenchmarkConfig, ms: number): BenchmarkConfig => ({
  ...config,
  runValidation: false,
  enableProfiling: false,
  enableResourceMonitoring: false,
  stopping: { targetPrecision: 0, timeBudgetMs: ms, capGiven: false },
});

/**
 * The caller's stop request without `lastBatchDone`: a leg's last batch is not the tune's, so a signal after it must
 * still stop the tune.
 */
const legStop = (stop: StopRequest | undefined): StopRequest | undefined =>
  stop && {
    get aborted() {
      return stop.aborted;
    },
    get reason() {
      return stop.reason;
    },
  };

/**
 * Runs the legs of a tune on one session: the datasource opened once, the backend switched when a leg's compute
 * settings differ from the active ones. Each leg is a whole `benchmark-training` run.
 */
export class TuneLegs {
  private active: BenchmarkConfig['compute'];
  /** per configuration, what each of its legs cost besides its training batches */
  private readonly startups = new Map<string, number[]>();
  done = 0;

  constructor(
    private readonly training: BenchmarkTrainingUseCase,
    private session: TrainingSession,
    private readonly input: BenchmarkTuneInput,
    private readonly clock: ClockPort,
  ) {
    this.active = input.config.compute;
  }

  /**
   * What a leg of `config` costs besides its training batches (backend switch, loader and trainer start-up, replica
   * warm-up, a memory cache loaded), the mean over its legs so far; null before its first.
   */
  startupOf(config: BenchmarkConfig): number | null {
    const ms = this.startups.get(JSON.stringify(config));
    return ms ? ms.reduce((s, x) => s + x, 0) / ms.length : null;
  }

  /**
   * Makes `compute` the active backend, as a leg does before it trains; one that does not start (a package that is not
   * installed, no adapter) is the error, and the active backend stays as it was.
   */
  async activate(compute: BenchmarkConfig['compute']): Promise<Result<void, BenchmarkTrainingError>> {
    this.throwIfStopped();
    if (JSON.stringify(compute) === JSON.stringify(this.active)) return ok(undefined);
    const switched = await this.training.switchBackend(this.session, compute);
    if (!switched.ok) return switched;
    this.session = switched.value;
    this.active = compute;
    return ok(undefined);
  }

  /** One leg of `ms` training time; a stop request fails the whole tune as interrupted. */
  async run(config: BenchmarkConfig, ms: number): Promise<Result<BenchmarkTrainingReport, BenchmarkTrainingError>> {
    const start = this.clock.now();
    const active = await this.activate(config.compute);
    if (!active.ok) return active;
    const r = await this.training.executeIn(this.session, {
      config: legConfig(config, ms),
      warnings: this.input.warnings,
      resourceLimits: this.input.resourceLimits,
      stop: legStop(this.input.stop),
    });
    if ((!r.ok && r.error.kind === 'interrupted') || (r.ok && r.value.report.interrupted)) this.throwIfStopped(true);
    this.done += 1;
    if (!r.ok) return err(r.error);
    const key = JSON.stringify(config);
    const training = r.value.report.batches.reduce((sum, b) => sum + b.wallMs, 0);
    this.startups.set(key, [...(this.startups.get(key) ?? []), Math.max(0, this.clock.now() - start - training)]);
    return ok(r.value.report);
  }

  private throwIfStopped(force = false): void {
    const stop = this.input.stop;
    if (!force && !stop?.aborted) return;
    const reason = stop?.reason === undefined ? 'stop requested' : String(stop.reason);
    throw new StepFailure<BenchmarkTrainingError>({
      kind: 'interrupted',
      message: `interrupted after ${this.done} leg(s) of the tune (${reason}); nothing was concluded`,
      interruption: { reason, completed_batches: this.done, planned_batches: 0 },
    });
  }
}

/** A side's speed over its legs and the epoch its median leg predicted (each leg's estimate is the single run's). */
export const sideOf = (reports: readonly BenchmarkTrainingReport[], samplesPerSecond: number): TuneSide => {
  const sorted = [...reports].sort((a, b) => a.epoch_estimate.predicted_ms - b.epoch_estimate.predicted_ms);
  const mid = sorted[Math.floor((sorted.length - 1) / 2)];
  return {
    samples_per_second: samplesPerSecond,
    epoch: mid
      ? {
          predicted_ms: mid.epoch_estimate.predicted_ms,
          predicted_ms_ci95: mid.epoch_estimate.predicted_ms_ci95,
          ...(mid.epoch_estimate.half_width_fraction === undefined
            ? {}
            : { half_width_fraction: mid.epoch_estimate.half_width_fraction }),
        }
      : null,
    legs: reports.length,
  };
};
