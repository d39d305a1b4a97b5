import { inject, injectable } from 'tsyringe';
import {
  buildChromeTrace,
  clampWarmup,
  costedKnobs,
  settleDecisions,
  summarizeResources,
  type BackendStepSummary,
  type BenchmarkTrainingReport,
  type HostBatch,
  type Result,
  type ValidationMetrics,
  type TraceEvent,
  type FileBoundaryPlan,
} from '@maou/bench-domain';
import type { ClockPort } from '../../ports/clock.port';
import type { ComputeBackendPort } from '../../ports/compute-backend.port';
import type { BackendInfo, TrainerFactory } from '@maou/bench-engine/contracts';
import type { DataSourcePort } from '../../ports/data-source.port';
import type { DataLoaderFactoryPort, DataLoaderPort } from '../../ports/data-loader.port';
import type { DataSourceFactoryPort } from '../../ports/data-source-factory.port';
import type { EnvironmentPort } from '../../ports/environment.port';
import type { LoggerPort } from '../../ports/logger.port';
import type { ResourceMonitorPort } from '../../ports/resource-monitor.port';
import { TOKENS } from '../../ports/tokens';
import { CalibrateLoaderUseCase } from '../calibrate-loader/calibrate-loader.use-case';
import { calibrationInputFor } from '../calibrate-loader/calibration-input';
import { calibrationDecisions } from '../calibrate-loader/calibration-decisions';
import { backendThreadsDecision } from '../backend-fields';
import type { BenchmarkTrainingError } from './benchmark-training.errors';
import { checkNetworkFits, explainHeapTrap, planMicroBatches } from '../micro-batch-plan';
import { during, settleSteps, StepFailure } from '../step-failure';
import type { BenchmarkTrainingInput } from './benchmark-training.input';
import { prefetchesToDevice } from './prefetched-batches';
import { runTrainingPass } from './training-pass';
import { runValidationPass } from './validation-pass';
import { buildTrainingReport, MONITOR_INTERVAL_MS } from './training-report';
import { readFailuresAsDatasource } from '../../loader/loader-failures';
import { requireRows } from '../../loader/require-rows';
import { interruptedFailure, interruptionOf } from './interruption';
import { StopWatch } from './stop-watch';
import { MachineRecord } from './machine-record';
import type { CalibrationStorePort } from '../../ports/calibration-store.port';
import { AdaptiveBatchTrainer } from './adaptive-batch-trainer';
import { measureKnobCost } from './knob-cost';

/** The report plus the Chrome trace of the measured batches when profiling was on. @public */
export interface BenchmarkTrainingOutput {
  readonly report: BenchmarkTrainingReport;
  readonly trace: { traceEvents: TraceEvent[] } | null;
}

/** An activated backend and an opened datasource, shared by the runs of a sweep. @public */
export interface TrainingSession {
  readonly backend: BackendInfo;
  readonly source: DataSourcePort;
}

const PROFILED_BATCHES = 3;

/**
 * The training pass's file boundaries as the loader plans them; batches uploaded ahead to the device are ready too
 * when a loader thread starts its next read (the main thread's reads block the upload as well).
 */
const boundaryPlan = (loader: DataLoaderPort, uploadedAhead: number): FileBoundaryPlan | null => {
  const plan = loader.fileBoundaries?.('train') ?? null;
  return plan && plan.besideStep ? { ...plan, leadBatches: plan.leadBatches + uploadedAhead } : plan;
};

/**
 * A timed single-epoch dry run: datasource → loader → network → loss → optimiser, warm-up and measured batches,
 * optional validation pass, estimates and recommendations. Nothing is saved but the report.
 * @public
 */
@injectable()
export class BenchmarkTrainingUseCase {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: ClockPort,
    @inject(TOKENS.Logger) private readonly logger: LoggerPort,
    @inject(TOKENS.ComputeBackend) private readonly compute: ComputeBackendPort,
    @inject(TOKENS.DataSourceFactory) private readonly sources: DataSourceFactoryPort,
    @inject(TOKENS.DataLoaderFactory) private readonly loaders: DataLoaderFactoryPort,
    @inject(TOKENS.TrainerFactory) private readonly createTrainer: TrainerFactory,
    @inject(TOKENS.ResourceMonitor) private readonly monitor: ResourceMonitorPort,
    @inject(TOKENS.Environment) private readonly environment: EnvironmentPort,
    @inject(CalibrateLoaderUseCase) private readonly calibrator: CalibrateLoaderUseCase,
    @inject(TOKENS.CalibrationStore) private readonly store: CalibrationStorePort,
  ) {}

  execute(input: BenchmarkTrainingInput): Promise<Result<BenchmarkTrainingOutput, BenchmarkTrainingError>> {
    return settleSteps(async () => this.runIn(await this.open(input.config, input.warnings ?? []), input));
  }

  /** Activates the backend and opens the datasource once, for runs that share them (the points of a sweep). */
  openSession(config: BenchmarkTrainingInput['config']): Promise<Result<TrainingSession, BenchmarkTrainingError>> {
    return settleSteps(() => this.open(config, []));
  }

  /**
   * The session's datasource on another compute backend (or the same with other threads): the datasource stays open,
   * the backend named by `compute` becomes the active one.
   */
  switchBackend(
    session: TrainingSession,
    compute: BenchmarkTrainingInput['config']['compute'],
  ): Promise<Result<TrainingSession, BenchmarkTrainingError>> {
    return settleSteps(async () => ({
      source: session.source,
      backend: await during('backend-unavailable', () => this.compute.activate(compute)),
    }));
  }

  /** One run on an opened session, exactly as `execute` runs it: calibration, loader, trainer, measured pass. */
  executeIn(
    session: TrainingSession,
    input: BenchmarkTrainingInput,
  ): Promise<Result<BenchmarkTrainingOutput, BenchmarkTrainingError>> {
    return settleSteps(() => this.runIn(session, input));
  }

  private async open(
    requested: BenchmarkTrainingInput['config'],
    warnings: readonly string[],
  ): Promise<TrainingSession> {
    const log = this.logger.child({ useCase: 'benchmark-training' });
    for (const w of warnings) log.warn({ note: w }, 'option note');
    const backend = await during('backend-unavailable', () => this.compute.activate(requested.compute));
    log.info({ backend: backend.name, threads: backend.threads, device: backend.device }, 'backend ready');
    const source = await during('datasource', () =>
      this.sources.open(requested.source, requested.stage, requested.sampleRatio),
    );
    await during('datasource', () => requireRows(source));
    return { backend, source };
  }

  private async runIn(
    { backend, source }: TrainingSession,
    input: BenchmarkTrainingInput,
  ): Promise<BenchmarkTrainingOutput> {
    const { config: requested, onBatch, calibration, stop } = input;
    let warnings = input.warnings ?? [];
    const log = this.logger.child({ useCase: 'benchmark-training' });
    // before calibration, the loader or any batch: a network this backend cannot hold is refused with its figures
    checkNetworkFits(requested.training, backend);
    const calibrated =
      calibration && calibration.mode !== 'off'
        ? await during('calibration-failed', () =>
            this.calibrate(requested, source, backend, calibration, input.resourceLimits),
          )
        : null;
    // the backend's threads and calibration's choices are recorded over the plan's decisions; the run and its
    // report read the result
    const { config, limits: resourceLimits } = settleDecisions(
      calibrated
        ? { ...requested, loader: { ...requested.loader, prefetchFactor: calibrated.prefetchFactor } }
        : requested,
      input.resourceLimits,
      [
        ...backendThreadsDecision(requested.compute.threads, backend),
        ...(calibrated ? calibrationDecisions(requested.loader, calibrated) : []),
      ],
    );
    const loader = await during('datasource', () => this.loaders.create(source, config.loader));
    const trainBatches = loader.batchesPerEpoch.train;
    // Without a cap the user typed, the stopping rule and its time budget decide (maou's 100 stays in the maou block).
    const planned =
      config.maxBatches === null || config.stopping?.capGiven === false
        ? trainBatches
        : Math.min(config.maxBatches, trainBatches);
    if (planned < 2) {
      await loader.close();
      throw new StepFailure({
        kind: 'too-few-batches',
        message: `the training split yields ${trainBatches} batch(es) of ${config.loader.batchSize}; at least 2 are needed (lower --batch-size or add data)`,
      });
    }
    if (stop?.aborted) {
      await loader.close();
      throw interruptedFailure(stop, 0, planned);
    }
    const warmup = clampWarmup(config.warmupBatches, planned);
    if (warmup !== config.warmupBatches)
      log.warn(
        { requested: config.warmupBatches, used: warmup, planned },
        'warm-up clamped to leave two measured batches',
      );
    const micro = planMicroBatches(config.training, config.loader.batchSize, backend);
    if (micro.note) {
      log.warn({ note: micro.note }, 'option note');
      warnings = [...warnings, micro.note];
    }
    const created = this.createTrainer({
      stage: config.stage,
      training: config.training,
      totalSteps: trainBatches,
      seed: config.loader.seed,
      backend,
      microBatchSize: micro.microBatchSize,
    });
    // maou applies --adaptive-batch to Stage 3 only; the interface refuses it elsewhere.
    const adaptiveSettings = config.stage === 3 ? config.training.adaptiveBatch : null;
    let adaptive: AdaptiveBatchTrainer | null = null;
    try {
      adaptive = adaptiveSettings ? new AdaptiveBatchTrainer(created, adaptiveSettings, config.loader.batchSize) : null;
    } catch (e) {
      created.dispose();
      await loader.close();
      throw e;
    }
    const trainer = adaptive ?? created;
    let output: BenchmarkTrainingOutput;
    let knobBatch: HostBatch | null = null;
    try {
      await during('training-failed', async () => trainer.ready?.());
      output = await this.measure(config, warnings, {
        loader,
        trainer,
        source,
        backend,
        planned,
        warmup,
        onBatch,
        resourceLimits,
        stop,
        adaptive,
      });
      if (costedKnobs(config.training).length && !output.report.interrupted && !stop?.aborted)
        knobBatch = await during('datasource', async () => (await loader.iterate('train', 0).next()).value ?? null);
    } catch (e) {
      throw explainHeapTrap(e, config.training, config.loader.batchSize, backend);
    } finally {
      trainer.dispose();
      await loader.close();
    }
    // After the run's trainer is gone: each side of the comparison gets the memory the run had.
    const knobCost = knobBatch
      ? await during('training-failed', () => {
          log.info({ knobs: costedKnobs(config.training) }, 'timing the same steps without the knobs');
          return measureKnobCost({
            config,
            createTrainer: this.createTrainer,
            backend,
            batch: knobBatch!,
            clock: this.clock,
            totalSteps: trainBatches,
          });
        })
      : null;
    const report: BenchmarkTrainingReport = {
      ...output.report,
      ...(calibrated ? { data_load_method: { ...output.report.data_load_method, calibration: calibrated } } : {}),
      ...(knobCost ? { knob_cost: knobCost } : {}),
    };
    return { ...output, report };
  }

  /** Runs (or reuses) loader calibration and returns the chosen workers, prefetch and batch size. */
  private async calibrate(
    config: BenchmarkTrainingInput['config'],
    source: Awaited<ReturnType<DataSourceFactoryPort['open']>>,
    backend: Awaited<ReturnType<ComputeBackendPort['activate']>>,
    calibration: NonNullable<BenchmarkTrainingInput['calibration']>,
    limits: BenchmarkTrainingInput['resourceLimits'],
  ) {
    const host = this.environment.describe();
    const input = await calibrationInputFor({
      mode: calibration.mode,
      source,
      loader: config.loader,
      backend,
      fixed: calibration.fixed,
      budgetMs: calibration.budgetMs,
      host: {
        cpus: host.cpus,
        memoryBytes: host.memory_bytes,
        os: host.platform,
        node: host.node,
        tfjs: host.tfjs_version,
      },
      // Detected limits bound the worker candidates; without them, the host's CPU count.
      limits: { maxWorkers: limits?.cpu_cores ?? host.cpus },
    });
    const out = await this.calibrator.execute(input);
    return { origin: out.origin, ...out.choice };
  }

  private async measure(
    config: BenchmarkTrainingInput['config'],
    warnings: readonly string[],
    ctx: {
      loader: Awaited<ReturnType<DataLoaderFactoryPort['create']>>;
      trainer: ReturnType<TrainerFactory>;
      source: Awaited<ReturnType<DataSourceFactoryPort['open']>>;
      backend: Awaited<ReturnType<ComputeBackendPort['activate']>>;
      planned: number;
      warmup: number;
      onBatch: BenchmarkTrainingInput['onBatch'];
      resourceLimits: BenchmarkTrainingInput['resourceLimits'];
      stop: BenchmarkTrainingInput['stop'];
      adaptive: AdaptiveBatchTrainer | null;
    },
  ): Promise<BenchmarkTrainingOutput> {
    const { loader, trainer, source, backend, planned, resourceLimits, stop } = ctx;
    const profile = new Set(
      config.enableProfiling
        ? Array.from({ length: Math.min(PROFILED_BATCHES, planned - ctx.warmup) }, (_, i) => ctx.warmup + i)
        : [],
    );
    if (config.enableResourceMonitoring) this.monitor.start(MONITOR_INTERVAL_MS);
    const host = this.environment.describe();
    const machine = await MachineRecord.open(this.store, this.logger, host, backend);
    const watch = new StopWatch(config.stopping ?? null, {
      warmup: ctx.warmup,
      planned,
      batchesPerEpoch: loader.batchesPerEpoch.train,
      machine: machine.kept,
      files: boundaryPlan(
        loader,
        prefetchesToDevice(trainer, config.loader.devicePrefetch) ? config.loader.devicePrefetch : 0,
      ),
    });
    const pass = await during('training-failed', () =>
      runTrainingPass({
        batches: readFailuresAsDatasource(loader.iterate('train', 0)),
        trainer,
        clock: this.clock,
        planned,
        warmup: ctx.warmup,
        profile,
        devicePrefetch: config.loader.devicePrefetch,
        onBatch: (t) => ctx.onBatch?.(t, planned),
        stop,
        cpuCounters: () => this.monitor.cpuCounters(),
        stopAfter: config.stopping ? (ts, elapsed) => watch.shouldStop(ts, elapsed) : undefined,
      }),
    );
    if (!pass.interrupted) {
      this.logger.child({ useCase: 'benchmark-training' }).info({ batches: pass.timings.length }, 'last batch done');
      stop?.lastBatchDone?.();
    }
    if (pass.interrupted && pass.timings.length < 2) {
      if (config.enableResourceMonitoring) await this.monitor.stop();
      throw interruptedFailure(stop, pass.timings.length, planned);
    }
    // A stopped run reports what it measured: the warm-up shrinks to leave two measured batches, as for a short run.
    const warmup = pass.interrupted ? clampWarmup(ctx.warmup, pass.timings.length) : ctx.warmup;
    const samples = config.enableResourceMonitoring ? await this.monitor.stop() : null;
    const validation = config.runValidation && !pass.interrupted ? await this.validate(config, loader, trainer) : null;
    if (pass.timings.length < 2)
      throw new StepFailure({
        kind: 'too-few-batches',
        message: `the loader produced ${pass.timings.length} batch(es); at least 2 are needed`,
      });
    const { assessment, series, timings, epochExtras } = watch.conclude(pass.timings);
    if (!pass.interrupted) await machine.add(series, assessment.steadyStart, ctx.warmup);
    const report = buildTrainingReport({
      createdAt: this.clock.wallTime().toISOString(),
      config,
      warnings,
      host,
      backend,
      model: {
        parameters: trainer.parameterCount,
        trainableParameters: trainer.trainableParameterCount ?? trainer.parameterCount,
        multiplyAddsPerSample: trainer.multiplyAddsPerSample,
        ...stepSummaryOf(trainer),
      },
      data: {
        source: source.describe(),
        loader: loader.describe(),
        batchesPerEpoch: loader.batchesPerEpoch,
        samplesPerEpoch: loader.samplesPerEpoch,
        devicePrefetch: prefetchesToDevice(trainer, config.loader.devicePrefetch),
        io: source.ioStats() as Record<string, unknown> | null,
      },
      measured: { timings, assessment, epochExtras, warmup, kernels: pass.kernels },
      validation,
      samples,
      adaptive: ctx.adaptive?.report(timings, assessment.steadyStart, loader.batchesPerEpoch.train) ?? null,
      resourceLimits,
      interruption: pass.interrupted ? interruptionOf(stop, pass.timings.length, planned) : null,
    });
    return { report, trace: config.enableProfiling ? buildChromeTrace(timings, pass.kernels) : null };
  }

  /** The validation pass, with its own resource samples when monitoring is on (maou monitors each pass apart). */
  private async validate(
    config: BenchmarkTrainingInput['config'],
    loader: Awaited<ReturnType<DataLoaderFactoryPort['create']>>,
    trainer: ReturnType<TrainerFactory>,
  ): Promise<ValidationMetrics | null> {
    if (config.enableResourceMonitoring) this.monitor.start(MONITOR_INTERVAL_MS);
    let samples = null;
    let pass;
    try {
      pass = await during('training-failed', () =>
        runValidationPass(
          readFailuresAsDatasource(loader.iterate('validation', 0)),
          trainer,
          this.clock,
          config.maxBatches ?? Number.MAX_SAFE_INTEGER,
          config.loader.devicePrefetch,
        ),
      );
    } finally {
      samples = config.enableResourceMonitoring ? await this.monitor.stop() : null;
    }
    return pass && { ...pass, resources: samples ? summarizeResources(samples, MONITOR_INTERVAL_MS) : null };
  }
}

/**
 * A trainer that plans its step (webgpu's planned step) says how in `stepSummary`; the engine's Trainer interface
 * does not declare it, so it is read where present.
 */
const stepSummaryOf = (trainer: object): { stepSummary?: BackendStepSummary } => {
  const summary = (trainer as { stepSummary?: () => BackendStepSummary }).stepSummary?.();
  return summary ? { stepSummary: summary } : {};
};
