import { inject, injectable } from 'tsyringe';
import { isGpuBackend, quantileSorted, type DataLoaderConfig, type HostBatch, type Result } from '@maou/bench-domain';
import type { TrainerFactory, BackendInfo } from '@maou/bench-engine/contracts';
import { measureLoader } from '../../loader/measure-loader';
import type { ClockPort } from '../../ports/clock.port';
import type { ComputeBackendPort } from '../../ports/compute-backend.port';
import type { DataLoaderFactoryPort, LoaderThreadStats } from '../../ports/data-loader.port';
import type { ResourceMonitorPort } from '../../ports/resource-monitor.port';
import type { DataSourceFactoryPort } from '../../ports/data-source-factory.port';
import type { DataSourcePort } from '../../ports/data-source.port';
import type { LoggerPort } from '../../ports/logger.port';
import { TOKENS } from '../../ports/tokens';
import type { BenchmarkDataloaderError } from './benchmark-dataloader.errors';
import type {
  BenchmarkDataloaderInput,
  BenchmarkDataloaderOutput,
  GridPoint,
  PointResources,
} from './benchmark-dataloader.input';
import { loaderResources } from './loader-resources';
import { measureConsumption } from './consumption-rate';
import { bestAcrossBatchSizes, feedsModel, selectSetting } from './select-setting';
import { planMicroBatches } from '../micro-batch-plan';
import { during, settleSteps, StepFailure } from '../step-failure';
import { requireRows } from '../../loader/require-rows';
import { backendFields } from '../backend-fields';

const MONITOR_INTERVAL_MS = 100;

const kv = (o: Readonly<Record<string, unknown>>): string =>
  Object.entries(o)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');

/**
 * Measures a grid of workers × prefetch factor × batch size, each point repeated, against the model's own rate at
 * that batch size, and recommends the cheapest setting that keeps the model fed.
 * @public
 */
@injectable()
export class BenchmarkDataloaderUseCase {
  constructor(
    @inject(TOKENS.Clock) private readonly clock: ClockPort,
    @inject(TOKENS.Logger) private readonly logger: LoggerPort,
    @inject(TOKENS.ComputeBackend) private readonly compute: ComputeBackendPort,
    @inject(TOKENS.DataSourceFactory) private readonly sources: DataSourceFactoryPort,
    @inject(TOKENS.DataLoaderFactory) private readonly loaders: DataLoaderFactoryPort,
    @inject(TOKENS.TrainerFactory) private readonly createTrainer: TrainerFactory,
    @inject(TOKENS.ResourceMonitor) private readonly monitor: ResourceMonitorPort,
  ) {}

  execute(input: BenchmarkDataloaderInput): Promise<Result<BenchmarkDataloaderOutput, BenchmarkDataloaderError>> {
    return settleSteps(() => this.run(input));
  }

  private async run(input: BenchmarkDataloaderInput): Promise<BenchmarkDataloaderOutput> {
    const log = this.logger.child({ useCase: 'benchmark-dataloader' });
    const backend = await during('backend-unavailable', () => this.compute.activate(input.compute));
    const source = await during('datasource', () => this.sources.open(input.source, input.stage, input.sampleRatio));
    await during('datasource', () => requireRows(source));
    const points: GridPoint[] = [];
    const consumption: Record<number, number | null> = {};
    let loaderMode = '';
    const planned =
      input.batchSizes.length * input.workers.reduce((n, w) => n + (w === 0 ? 1 : input.prefetchFactors.length), 0);
    grid: for (const batchSize of input.batchSizes) {
      if (input.stop?.aborted) break;
      const model = input.consumptionSteps > 0 ? await this.modelRate(input, source, batchSize, backend) : null;
      consumption[batchSize] = model;
      log.info(
        { batchSize, modelSamplesPerSecond: model },
        `model_consumption ${kv({ batch_size: batchSize, samples_per_s: model?.toFixed(1) ?? 'n/a' })}`,
      );
      for (const workers of input.workers) {
        for (const prefetch of workers === 0 ? [null] : input.prefetchFactors) {
          if (input.stop?.aborted) break grid;
          const cfg = {
            ...input.loader,
            batchSize,
            workers,
            prefetchFactor: prefetch ?? input.loader.prefetchFactor,
            persistentWorkers: true,
          };
          const { point, mode } = await this.measurePoint(
            input,
            source,
            cfg,
            prefetch,
            model,
            isGpuBackend(backendFields(backend)),
          );
          loaderMode = mode;
          log.info(
            { ...point },
            `dataloader_point ${kv({ batch_size: batchSize, workers, prefetch: prefetch ?? 'none', samples_per_s: point.samplesPerSecond.median.toFixed(1), spread: `${point.samplesPerSecond.min.toFixed(0)}..${point.samplesPerSecond.max.toFixed(0)}` })}`,
          );
          points.push(point);
        }
      }
    }
    const reason = input.stop?.reason === undefined ? 'stop requested' : String(input.stop.reason);
    const interruption = input.stop?.aborted
      ? { reason, completed_points: points.length, planned_points: planned }
      : undefined;
    if (points.length === 0 && interruption)
      throw new StepFailure({ kind: 'interrupted', message: `interrupted before the first grid point (${reason})` });
    const measured = input.batchSizes.filter((b) => points.some((p) => p.batchSize === b));
    const perBatchSize = measured.map((b) =>
      selectSetting(
        points.filter((p) => p.batchSize === b),
        consumption[b] ?? null,
        input.noiseMargin,
        input.loader.pinMemory,
      ),
    );
    const recommended = bestAcrossBatchSizes(perBatchSize);
    log.info({ ...recommended }, `dataloader_recommendation ${recommended.flags.join(' ')}`);
    return {
      backend: backend.name,
      device: backend.device,
      onGpu: isGpuBackend(backendFields(backend)),
      dataset: source.describe(),
      loaderMode,
      points,
      consumption,
      perBatchSize,
      recommended,
      resourceLimits: input.resourceLimits ?? null,
      ...(interruption ? { interruption } : {}),
    };
  }

  private async measurePoint(
    input: BenchmarkDataloaderInput,
    source: DataSourcePort,
    cfg: DataLoaderConfig,
    prefetch: number | null,
    model: number | null,
    onGpu: boolean,
  ): Promise<{ point: GridPoint; mode: string }> {
    const loader = await during('loader-failed', () => this.loaders.create(source, cfg));
    try {
      if (loader.batchesPerEpoch.train < 1)
        throw new StepFailure({
          kind: 'too-few-batches',
          message: `the training split holds ${loader.samplesPerEpoch.train} samples: fewer than one batch of ${cfg.batchSize}`,
        });
      const runs: number[] = [];
      const waits: number[] = [];
      let timedMs = 0;
      let timedBatches = 0;
      const monitored = input.enableResourceMonitoring === true && loader.threadStats !== undefined;
      let before: readonly LoaderThreadStats[] = [];
      // Counters and samples cover the timed batches of every repeat, after the first repeat's warm-up.
      const startMonitoring = async (): Promise<void> => {
        before = await loader.threadStats!();
        this.monitor.start(MONITOR_INTERVAL_MS);
      };
      let resources: PointResources | null = null;
      try {
        for (let r = 0; r < input.repeats; r++) {
          // Only the first repeat warms up: later ones reuse the persistent workers, as later epochs do.
          const m = await during('loader-failed', () =>
            measureLoader(loader, {
              batches: input.numBatches,
              warmupBatches: r === 0 ? input.warmupBatches : 0,
              clock: this.clock,
              beforeTimed: monitored && r === 0 ? startMonitoring : undefined,
            }),
          );
          runs.push(m.samplesPerSecond);
          waits.push(...m.waitMs);
          timedMs += m.elapsedMs;
          timedBatches += m.batches;
        }
        if (monitored)
          resources = loaderResources(
            before,
            await loader.threadStats!(),
            await this.monitor.stop(),
            MONITOR_INTERVAL_MS,
            onGpu,
          );
      } finally {
        if (monitored && resources === null) await this.monitor.stop();
      }
      const sorted = [...runs].sort((a, b) => a - b);
      const sps = { median: quantileSorted(sorted, 0.5), min: sorted[0]!, max: sorted.at(-1)!, runs };
      const point: GridPoint = {
        batchSize: cfg.batchSize,
        workers: cfg.workers,
        prefetchFactor: prefetch,
        samplesPerSecond: sps,
        p95WaitMs: quantileSorted(
          waits.sort((a, b) => a - b),
          0.95,
        ),
        timedMs,
        timedBatches,
        keepsModelFed: model === null ? null : feedsModel(sps.min, cfg.workers, model, input.noiseMargin),
        resources,
      };
      return { point, mode: String(loader.describe().mode ?? '') };
    } finally {
      await loader.close();
    }
  }

  private async modelRate(
    input: BenchmarkDataloaderInput,
    source: DataSourcePort,
    batchSize: number,
    backend: BackendInfo,
  ): Promise<number> {
    const loader = await during('loader-failed', () =>
      this.loaders.create(source, { ...input.loader, batchSize, workers: 0 }),
    );
    let batch: HostBatch | undefined;
    try {
      const it = loader.iterate('train', 0);
      batch = (await it.next()).value as HostBatch | undefined;
      await it.return?.(undefined);
    } finally {
      await loader.close();
    }
    if (!batch || batch.size < batchSize)
      throw new StepFailure({
        kind: 'too-few-batches',
        message: `no full batch of ${batchSize} in the training split to time the model with`,
      });
    const b = batch;
    return during('loader-failed', () =>
      measureConsumption(this.createTrainer, {
        backend,
        microBatchSize: planMicroBatches(input.training, batchSize, backend).microBatchSize,
        stage: input.stage,
        training: input.training,
        seed: input.loader.seed,
        steps: input.consumptionSteps,
        batch: b,
        clock: this.clock,
      }),
    );
  }
}
