import { inject, injectable } from 'tsyringe';
import {
  REPORT_SCHEMA_VERSION, buildChromeTrace, clampWarmup, computeTrainingMetrics, estimateEpoch,
  estimateFromSample, recommend, summarizeResources, type BenchmarkTrainingReport, type Result, type TraceEvent,
} from '@maou/bench-domain';
import type { ClockPort } from '../../ports/clock.port';
import type { ComputeBackendPort } from '../../ports/compute-backend.port';
import type { DataLoaderFactoryPort } from '../../ports/data-loader.port';
import type { DataSourceFactoryPort } from '../../ports/data-source-factory.port';
import type { EnvironmentPort } from '../../ports/environment.port';
import type { LoggerPort } from '../../ports/logger.port';
import type { ResourceMonitorPort } from '../../ports/resource-monitor.port';
import { TOKENS } from '../../ports/tokens';
import type { TrainerFactory } from '../../engine/trainer';
import { CalibrateLoaderUseCase } from '../calibrate-loader/calibrate-loader.use-case';
import { calibrationInputFor } from '../calibrate-loader/calibration-input';
import type { BenchmarkTrainingError } from './benchmark-training.errors';
import { planMicroBatches } from '../micro-batch-plan';
import { during, settleSteps, StepFailure } from '../step-failure';
import type { BenchmarkTrainingInput } from './benchmark-training.input';
import { flattenConfig } from './report-config';
import { summarizeProfile } from './profile-summary';
import { prefetchesToDevice } from './prefetched-batches';
import { runTrainingPass } from './training-pass';
import { runValidationPass } from './validation-pass';
import { StopWatch } from './stop-watch';

/** The report plus the Chrome trace of the measured batches when profiling was on. @public */
export interface BenchmarkTrainingOutput {
  readonly report: BenchmarkTrainingReport;
  readonly trace: { traceEvents: TraceEvent[] } | null;
}

const MONITOR_INTERVAL_MS = 250;
const PROFILED_BATCHES = 3;

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
  ) {}

  execute(input: BenchmarkTrainingInput): Promise<Result<BenchmarkTrainingOutput, BenchmarkTrainingError>> {
    return settleSteps(() => this.run(input));
  }


  private async run({ config: requested, warnings = [], onBatch, calibration }: BenchmarkTrainingInput): Promise<BenchmarkTrainingOutput> {
    const log = this.logger.child({ useCase: 'benchmark-training' });
    for (const w of warnings) log.warn({ note: w }, 'option note');
    const backend = await during('backend-unavailable', () => this.compute.activate(requested.compute));
    log.info({ backend: backend.name, threads: backend.threads, device: backend.device }, 'backend ready');
    const source = await during('datasource', () => this.sources.open(requested.source, requested.stage, requested.sampleRatio));
    const calibrated = calibration && calibration.mode !== 'off' ? await during('datasource', () => this.calibrate(requested, source, backend, calibration)) : null;
    const config = calibrated ? { ...requested, loader: { ...requested.loader, workers: calibrated.workers, prefetchFactor: calibrated.prefetchFactor, batchSize: calibrated.batchSize } } : requested;
    const loader = await during('datasource', () => this.loaders.create(source, config.loader));
    const trainBatches = loader.batchesPerEpoch.train;
    const planned = config.maxBatches === null ? trainBatches : Math.min(config.maxBatches, trainBatches);
    if (planned < 2) {
      await loader.close();
      throw new StepFailure({ kind: 'too-few-batches', message: `the training split yields ${trainBatches} batch(es) of ${config.loader.batchSize}; at least 2 are needed (lower --batch-size or add data)` });
    }
    const warmup = clampWarmup(config.warmupBatches, planned);
    if (warmup !== config.warmupBatches) log.warn({ requested: config.warmupBatches, used: warmup, planned }, 'warm-up clamped to leave two measured batches');
    const micro = planMicroBatches(config.training.preset, config.loader.batchSize, backend);
    if (micro.note) {
      log.warn({ note: micro.note }, 'option note');
      warnings = [...warnings, micro.note];
    }
    const trainer = this.createTrainer({ stage: config.stage, training: config.training, totalSteps: trainBatches, seed: config.loader.seed, backend, microBatchSize: micro.microBatchSize });
    try {
      await during('training-failed', async () => trainer.ready?.());
      const output = await this.measure(config, warnings, { loader, trainer, source, backend, planned, warmup, onBatch });
      return calibrated ? { ...output, report: { ...output.report, data_load_method: { ...output.report.data_load_method, calibration: calibrated } } } : output;
    } finally {
      trainer.dispose();
      await loader.close();
    }
  }

  /** Runs (or reuses) loader calibration and returns the chosen workers, prefetch and batch size. */
  private async calibrate(config: BenchmarkTrainingInput['config'], source: Awaited<ReturnType<DataSourceFactoryPort['open']>>,
    backend: Awaited<ReturnType<ComputeBackendPort['activate']>>, calibration: NonNullable<BenchmarkTrainingInput['calibration']>) {
    const host = this.environment.describe();
    const input = await calibrationInputFor({
      mode: calibration.mode, source, loader: config.loader, backend, fixed: calibration.fixed, budgetMs: calibration.budgetMs,
      host: { cpus: host.cpus, memoryBytes: host.memory_bytes, os: host.platform, node: host.node, tfjs: host.tfjs_version },
      limits: { maxWorkers: host.cpus, maxBatchSize: null },
    });
    const out = await this.calibrator.execute(input);
    return { origin: out.origin, ...out.choice };
  }

  private async measure(
    config: BenchmarkTrainingInput['config'], warnings: readonly string[],
    ctx: { loader: Awaited<ReturnType<DataLoaderFactoryPort['create']>>; trainer: ReturnType<TrainerFactory>; source: Awaited<ReturnType<DataSourceFactoryPort['open']>>;
      backend: Awaited<ReturnType<ComputeBackendPort['activate']>>; planned: number; warmup: number; onBatch: BenchmarkTrainingInput['onBatch'] },
  ): Promise<BenchmarkTrainingOutput> {
    const { loader, trainer, source, backend, planned, warmup } = ctx;
    const profile = new Set(config.enableProfiling ? Array.from({ length: Math.min(PROFILED_BATCHES, planned - warmup) }, (_, i) => warmup + i) : []);
    if (config.enableResourceMonitoring) this.monitor.start(MONITOR_INTERVAL_MS);
    const watch = new StopWatch(config.stopping ?? null, { warmup, planned, batchesPerEpoch: loader.batchesPerEpoch.train });
    const pass = await during('training-failed', () => runTrainingPass({
      batches: loader.iterate('train', 0), trainer, clock: this.clock, planned, warmup, profile, devicePrefetch: config.loader.devicePrefetch, onBatch: (t) => ctx.onBatch?.(t, planned),
      cpuCounters: () => this.monitor.cpuCounters(), stopAfter: config.stopping ? (ts, elapsed) => watch.shouldStop(ts, elapsed) : undefined,
    }));
    const samples = config.enableResourceMonitoring ? await this.monitor.stop() : null;
    const validation = config.runValidation
      ? await during('training-failed', () => runValidationPass(loader.iterate('validation', 0), trainer, this.clock, config.maxBatches ?? Number.MAX_SAFE_INTEGER, config.loader.devicePrefetch))
      : null;
    if (pass.timings.length < 2) throw new StepFailure({ kind: 'too-few-batches', message: `the loader produced ${pass.timings.length} batch(es); at least 2 are needed` });
    const { assessment, timings, epochExtras } = watch.conclude(pass.timings);
    const metrics = computeTrainingMetrics(timings, assessment.steadyStart, warmup);
    const epoch = { ...estimateEpoch(metrics, loader.batchesPerEpoch.train, loader.samplesPerEpoch.train, assessment), ...epochExtras };
    const resources = samples ? summarizeResources(samples, MONITOR_INTERVAL_MS) : null;
    const host = this.environment.describe();
    const report: BenchmarkTrainingReport = {
      schema_version: REPORT_SCHEMA_VERSION,
      command: 'benchmark-training',
      created_at: this.clock.wallTime().toISOString(),
      stage: config.stage,
      model: { preset: config.training.preset, parameters: trainer.parameterCount, multiply_adds_per_sample: trainer.multiplyAddsPerSample },
      config: { ...flattenConfig(config), notes: warnings },
      environment: { ...host, backend: backend.name, backend_version: backend.version, threads: backend.threads, device: backend.device, backend_notes: backend.notes },
      data_load_method: { source: source.describe(), ...loader.describe(), batches_per_epoch: loader.batchesPerEpoch, samples_per_epoch: loader.samplesPerEpoch,
        device_prefetch: { enabled: prefetchesToDevice(trainer, config.loader.devicePrefetch), buffer_size: config.loader.devicePrefetch } },
      io: source.ioStats() as Record<string, unknown> | null,
      training_metrics: metrics,
      validation_metrics: validation,
      epoch_estimate: epoch,
      estimation: config.sampleRatio !== null && config.source.kind !== 'local' && config.source.kind !== 'sample' ? estimateFromSample(metrics, epoch, config.sampleRatio, assessment) : null,
      recommendations: recommend({ metrics, epoch, resources, settings: {
        batchSize: config.loader.batchSize, workers: config.loader.workers, prefetchFactor: config.loader.prefetchFactor, pinMemory: config.loader.pinMemory,
        devicePrefetch: config.loader.devicePrefetch, backend: backend.name, threads: backend.threads, cores: host.cpus, warmupBatches: warmup } }),
      resources,
      profile: config.enableProfiling && pass.kernels.length ? summarizeProfile(pass.kernels) : null,
      batches: timings,
    };
    return { report, trace: config.enableProfiling ? buildChromeTrace(timings, pass.kernels) : null };
  }
}
