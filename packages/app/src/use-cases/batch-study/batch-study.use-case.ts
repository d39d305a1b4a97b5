import { inject, injectable } from 'tsyringe';
import {
  compareNoiseScales,
  estimateCriticalBatch,
  recommendAdaptiveBatch,
  recommendStrategy,
  type CriticalBatchEstimate,
  recommendBatchStudy,
  MAOU_SWEEP_OMITTED,
  toMaouSweepPayload,
  type BatchStudyReport,
  type GradientNoiseMeasurement,
  type MaxBatchResult,
  type Result,
  type SweepPoint,
  type SweepPointOk,
  type BenchmarkConfig,
  type Interruption,
} from '@maou/bench-domain';
import type { TrainerFactory } from '@maou/bench-engine/contracts';
import type { ClockPort } from '../../ports/clock.port';
import type { DataLoaderFactoryPort } from '../../ports/data-loader.port';
import type { EnvironmentPort } from '../../ports/environment.port';
import type { LoggerPort } from '../../ports/logger.port';
import { TOKENS } from '../../ports/tokens';
import type { BenchmarkTrainingError } from '../benchmark-training/benchmark-training.errors';
import { BenchmarkTrainingUseCase, type TrainingSession } from '../benchmark-training/benchmark-training.use-case';
import { during, settleSteps, StepFailure } from '../step-failure';
import { backendFields } from '../backend-fields';
import type { BatchStudyInput } from './batch-study.input';
import type { StopRequest } from '../benchmark-training/benchmark-training.input';
import { interruptionText } from '../benchmark-training/interruption';
import { measureGradientNoise } from './gradient-noise-pass';
import { searchMaxBatch } from './max-batch-probe';
import { pointConfig, pointRun, toSweepPoint } from './sweep-point';

/**
 * "What should I change?" for the batch: a sweep over batch sizes or learning rates (each point a full run of
 * `BenchmarkTrainingUseCase` on the same backend and data, so a point measures what a single run at its settings
 * measures), the critical batch size from the sweep's throughput and the gradient noise scale from gradient norms,
 * and the largest batch that fits. A failed point is reported with its reason and the others still run.
 * @public
 */
@injectable()
export class BatchStudyUseCase {
  constructor(
    @inject(BenchmarkTrainingUseCase) private readonly training: BenchmarkTrainingUseCase,
    @inject(TOKENS.DataLoaderFactory) private readonly loaders: DataLoaderFactoryPort,
    @inject(TOKENS.TrainerFactory) private readonly createTrainer: TrainerFactory,
    @inject(TOKENS.Clock) private readonly clock: ClockPort,
    @inject(TOKENS.Logger) private readonly logger: LoggerPort,
    @inject(TOKENS.Environment) private readonly environment: EnvironmentPort,
  ) {}

  async execute(input: BatchStudyInput): Promise<Result<BatchStudyReport, BenchmarkTrainingError>> {
    const log = this.logger.child({ useCase: 'batch-study' });
    for (const w of input.warnings ?? []) log.warn({ note: w }, 'option note');
    const opened = await this.training.openSession(input.config);
    if (!opened.ok) return opened;
    return settleSteps(() => this.run(opened.value, input));
  }

  private async run(session: TrainingSession, input: BatchStudyInput): Promise<BatchStudyReport> {
    const { config } = input;
    const stopped = (): boolean => input.stop?.aborted === true;
    const maxBatch = input.findMaxBatch && !stopped() ? await this.findMaxBatch(session, input) : null;
    const points: SweepPoint[] = [];
    for (const value of input.sweep?.values ?? []) {
      if (stopped()) break;
      const { config: cfg, limits } = pointRun(config, input.resourceLimits, input.sweep!.type, value);
      input.onStage?.(`${input.sweep!.type === 'batch_size' ? 'batch size' : 'learning rate'} ${value}`, true);
      const r = await this.training.executeIn(session, {
        config: cfg,
        warnings: input.warnings,
        resourceLimits: limits,
        onBatch: input.onBatch,
        stop: pointStop(input.stop),
      });
      if (!r.ok)
        this.logger
          .child({ useCase: 'batch-study' })
          .warn({ point: value, kind: r.error.kind, reason: r.error.message }, 'sweep point failed; the sweep goes on');
      points.push(
        r.ok && r.value.report.interruption ? cutPoint(cfg, r.value.report.interruption) : toSweepPoint(cfg, r),
      );
    }
    const planned = input.sweep?.values.length ?? 0;
    const finished = points.filter((p) => p.status === 'ok' || p.error_kind !== 'interrupted').length;
    const interruption = stopped()
      ? { reason: stopReason(input.stop), completed_points: finished, planned_points: planned }
      : undefined;
    const ok = points.filter((p): p is SweepPointOk => p.status === 'ok');
    const criticalBatch = withAdaptiveRecommendation(
      input.estimateCbs && input.sweep?.type === 'batch_size'
        ? estimateCriticalBatch(
            ok.map((p) => ({
              batchSize: p.batch_size,
              samplesPerSecond: p.samples_per_second,
              ci95: p.samples_per_second_ci95,
            })),
          )
        : null,
      ok,
    );
    const noise = !input.estimateCbs
      ? { measured: null, skipped: null }
      : interruption
        ? { measured: null, skipped: `the study was interrupted (${interruption.reason})` }
        : await this.gradientNoise(session, input, ok);
    const sweep = input.sweep ? { type: input.sweep.type, points } : null;
    const first = ok[0]?.report;
    return {
      schema_version: 1,
      command: 'benchmark-training',
      kind: 'batch-study',
      created_at: this.clock.wallTime().toISOString(),
      stage: config.stage,
      model: { preset: config.training.preset },
      environment: first?.environment ?? {
        ...this.environment.describe(),
        ...backendFields(session.backend),
      },
      sweep,
      critical_batch: criticalBatch,
      critical_batch_skipped:
        input.estimateCbs && !criticalBatch ? `${ok.length} sweep point(s) ran; the estimate needs two` : null,
      gradient_noise: noise.measured && {
        ...noise.measured,
        comparison: compareNoiseScales(criticalBatch, noise.measured),
      },
      gradient_noise_skipped: noise.skipped,
      max_batch: maxBatch,
      recommendations: recommendBatchStudy({
        sweep,
        criticalBatch,
        gradientNoise: noise.measured,
        maxBatch,
        settings: { batchSize: config.loader.batchSize, learningRate: config.training.learningRate },
      }),
      ...(sweep ? { maou: toMaouSweepPayload(sweep, criticalBatch), maou_omitted: MAOU_SWEEP_OMITTED } : {}),
      ...(interruption ? { interruption } : {}),
    };
  }

  /** B_simple at the largest batch that ran (more pieces per update), over as many steps as a point measures. */
  private async gradientNoise(
    session: TrainingSession,
    input: BatchStudyInput,
    ok: readonly SweepPointOk[],
  ): Promise<{ measured: GradientNoiseMeasurement | null; skipped: string | null }> {
    if (ok.length === 0)
      return { measured: null, skipped: 'no sweep point ran, so there was no batch size to measure at' };
    const largest = ok.reduce((a, b) => (b.batch_size > a.batch_size ? b : a));
    const cfg = pointConfig(input.config, 'batch_size', largest.batch_size);
    input.onStage?.(`gradient noise scale at batch ${largest.batch_size}`, false);
    const measured = await during('training-failed', () =>
      measureGradientNoise(
        { loaders: this.loaders, createTrainer: this.createTrainer },
        session,
        cfg,
        largest.report.training_metrics.total_batches,
      ),
    );
    return measured
      ? { measured, skipped: null }
      : { measured: null, skipped: `batch ${largest.batch_size} gave no update with two or more pieces` };
  }

  private async findMaxBatch(session: TrainingSession, input: BatchStudyInput): Promise<MaxBatchResult> {
    const loader = await during('datasource', () => this.loaders.create(session.source, input.config.loader));
    let sample;
    try {
      sample = (await loader.iterate('train', 0).next()).value;
    } finally {
      await loader.close();
    }
    if (!sample)
      throw new StepFailure({
        kind: 'too-few-batches',
        message: '--find-max-batch: the training split yields no batch to build probe batches from',
      });
    return searchMaxBatch(
      this.createTrainer,
      session,
      input.config,
      sample,
      (b) => input.onStage?.(`max batch: trying ${b}`, false),
      input.maxBatchCap,
    );
  }
}

/**
 * A point's stop request: the study's (read through it, so an abort later is seen), but without `lastBatchDone`: a
 * point's last batch is not the study's.
 */
const pointStop = (stop: StopRequest | undefined): StopRequest | undefined =>
  stop && (Object.create(stop, { lastBatchDone: { value: undefined } }) as StopRequest);

const stopReason = (stop: StopRequest | undefined): string =>
  stop?.reason === undefined ? 'stop requested' : String(stop.reason);

/** A point a stop request cut short: failed, saying how far it got (its few batches are no point's measurement). */
const cutPoint = (config: BenchmarkConfig, i: Interruption): SweepPoint => ({
  status: 'failed',
  batch_size: config.loader.batchSize,
  learning_rate: config.training.learningRate,
  error_kind: 'interrupted',
  reason: interruptionText(i),
});

/** maou's `--estimate-cbs` adds the `--adaptive-batch` settings for the CBS it found, and its strategy guide. */
const withAdaptiveRecommendation = (
  cbs: CriticalBatchEstimate | null,
  ok: readonly SweepPointOk[],
): CriticalBatchEstimate | null => {
  const rec =
    cbs &&
    recommendAdaptiveBatch(
      cbs.estimated_cbs,
      ok.map((p) => p.batch_size),
      ok[0]?.report.model.trainable_parameters ?? ok[0]?.report.model.parameters ?? null,
    );
  return cbs && rec
    ? {
        ...cbs,
        adaptive_batch_recommendation: rec,
        strategy_recommendation: recommendStrategy(cbs.estimated_cbs, cbs.cbs_exceeds_tested, rec),
      }
    : cbs;
};
