import {
  REPORT_SCHEMA_VERSION,
  computeTrainingMetrics,
  estimateEpoch,
  estimateFromSample,
  MAOU_OMITTED,
  recommend,
  summarizeResources,
  toMaouPayload,
  withAdaptiveCorrection,
  type AdaptiveBatchReport,
  type BackendStepSummary,
  type BatchTiming,
  type BenchmarkConfig,
  type BenchmarkTrainingReport,
  type EpochEstimate,
  type Interruption,
  type MaouViewSource,
  type PhaseKernels,
  type ResourceLimitsReport,
  type RunAssessment,
  type ValidationMetrics,
} from '@maou/bench-domain';
import type { BackendInfo } from '@maou/bench-engine/contracts';
import type { Split } from '../../ports/data-loader.port';
import type { HostEnvironment } from '../../ports/environment.port';
import type { ResourceSample } from '../../ports/resource-monitor.port';
import { backendFields } from '../backend-fields';
import { nullReasons } from './null-reasons';
import { summarizeProfile } from './profile-summary';
import { flattenConfig } from './report-config';

/** Resource samples are taken this often while monitoring is on. */
export const MONITOR_INTERVAL_MS = 250;

/** Everything a measured run hands the report: the settings, what ran, and what was measured. */
export interface TrainingReportInputs {
  readonly createdAt: string;
  /** the configuration that ran (after calibration) and the notes the user saw */
  readonly config: BenchmarkConfig;
  readonly warnings: readonly string[];
  readonly host: HostEnvironment;
  readonly backend: BackendInfo;
  readonly model: {
    readonly parameters: number;
    readonly trainableParameters: number;
    readonly multiplyAddsPerSample: number;
    /** a trainer that plans its step says how (webgpu's planned step) */
    readonly stepSummary?: BackendStepSummary;
  };
  readonly data: {
    readonly source: string;
    readonly loader: Readonly<Record<string, unknown>>;
    readonly batchesPerEpoch: Readonly<Record<Split, number>>;
    readonly samplesPerEpoch: Readonly<Record<Split, number>>;
    /** whether batches were uploaded ahead to the device */
    readonly devicePrefetch: boolean;
    readonly io: Record<string, unknown> | null;
  };
  /** the batches as the stop watch judged them, its assessment and its epoch notes */
  readonly measured: {
    readonly timings: readonly BatchTiming[];
    readonly assessment: RunAssessment;
    readonly epochExtras: Partial<EpochEstimate>;
    /** the warm-up the metrics skip (shrunk when a stop came inside it) */
    readonly warmup: number;
    readonly kernels: readonly PhaseKernels[];
  };
  readonly validation: ValidationMetrics | null;
  /** null without --enable-resource-monitoring */
  readonly samples: readonly ResourceSample[] | null;
  readonly adaptive: AdaptiveBatchReport | null;
  /** the resource plan with what changed it; absent when the caller planned nothing */
  readonly resourceLimits?: ResourceLimitsReport;
  readonly interruption: Interruption | null;
}

/**
 * The `benchmark-training` report from a measured run, with no I/O and no clock: metrics, the epoch estimate and
 * its sample scaling, recommendations, the null blocks' reasons, and the same run in maou's layout.
 */
export const buildTrainingReport = (x: TrainingReportInputs): BenchmarkTrainingReport => {
  const { config, measured, data } = x;
  const metrics = computeTrainingMetrics(measured.timings, measured.assessment.steadyStart, measured.warmup);
  const epoch = withAdaptiveCorrection(
    {
      ...estimateEpoch(metrics, data.batchesPerEpoch.train, data.samplesPerEpoch.train, measured.assessment),
      ...measured.epochExtras,
    },
    x.adaptive?.epoch ?? null,
  );
  const resources = x.samples ? summarizeResources(x.samples, MONITOR_INTERVAL_MS) : null;
  const estimation =
    config.sampleRatio !== null && config.source.sampled
      ? estimateFromSample(metrics, epoch, config.sampleRatio, measured.assessment)
      : null;
  const profile = config.enableProfiling && measured.kernels.length ? summarizeProfile(measured.kernels) : null;
  const base: MaouViewSource = {
    schema_version: REPORT_SCHEMA_VERSION,
    command: 'benchmark-training',
    created_at: x.createdAt,
    stage: config.stage,
    model: {
      preset: config.training.preset,
      parameters: x.model.parameters,
      trainable_parameters: x.model.trainableParameters,
      multiply_adds_per_sample: x.model.multiplyAddsPerSample,
    },
    config: { ...flattenConfig(config), notes: x.warnings },
    environment: {
      ...x.host,
      ...backendFields(x.backend),
      ...(x.model.stepSummary ? { backend_step: x.model.stepSummary } : {}),
    },
    data_load_method: {
      source: data.source,
      ...data.loader,
      batches_per_epoch: data.batchesPerEpoch,
      samples_per_epoch: data.samplesPerEpoch,
      device_prefetch: { enabled: data.devicePrefetch, buffer_size: config.loader.devicePrefetch },
    },
    io: data.io,
    training_metrics: metrics,
    validation_metrics: x.validation,
    epoch_estimate: epoch,
    estimation,
    recommendations: recommend({
      metrics,
      epoch,
      resources,
      settings: {
        batchSize: config.loader.batchSize,
        workers: config.loader.workers,
        prefetchFactor: config.loader.prefetchFactor,
        pinMemory: config.loader.pinMemory,
        devicePrefetch: config.loader.devicePrefetch,
        backend: x.backend.name,
        fallback: x.backend.fallback ?? false,
        heapLimitBytes: x.backend.heapLimitBytes ?? null,
        threads: x.backend.threads,
        cores: x.host.cpus,
        warmupBatches: measured.warmup,
      },
    }),
    resources,
    profile,
    null_reasons: nullReasons(config, {
      validation: x.validation !== null,
      estimation: estimation !== null,
      resources: resources !== null,
      profile: profile !== null,
      io: data.io !== null,
      resourceLimits: x.resourceLimits !== undefined,
    }),
    resource_limits: x.resourceLimits ?? null,
    batches: [...measured.timings],
    ...(x.adaptive ? { adaptive_batch: x.adaptive } : {}),
    ...(x.interruption ? { interrupted: true as const, interruption: x.interruption } : {}),
  };
  return { ...base, maou: toMaouPayload(base), maou_omitted: MAOU_OMITTED };
};
