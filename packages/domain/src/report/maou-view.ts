import { isGpuBackend } from '../config/benchmark-config';
import { quantileSorted, summarize } from '../stats/summary';
import type { BatchTiming } from '../timing/phases';
import type { BenchmarkTrainingReport, ResourceSummary, ValidationMetrics } from './benchmark-report';
import {
  MAOU_TIMING_CATEGORIES,
  type MaouConfiguration,
  type MaouDistribution,
  type MaouEstimation,
  type MaouMetrics,
  type MaouTrainingPayload,
} from './maou-payload';
import { maouRecommendations, maouSummary } from './maou-summary';

/** A report before its maou view is attached. @public */
export type MaouViewSource = Omit<BenchmarkTrainingReport, 'maou' | 'maou_omitted'>;

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const mean = (xs: readonly number[]): number => sum(xs) / xs.length;
const s = (ms: number): number => ms / 1000;
/** maou's step time: the batch without its data wait and upload (its `total_batch`). */
const stepMs = (b: BatchTiming): number => b.wallMs - b.phases.dataWait - b.phases.hostToDevice;
// maou (since 2026-03) takes p95/p99 by nearest rank and p50 as the true median.
const nearestRank = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;

const distribution = (ms: readonly number[]): MaouDistribution => {
  const sorted = [...ms].sort((a, b) => a - b);
  const x = summarize(ms);
  return {
    mean: s(x.mean),
    std: s(x.stdev),
    min: s(x.min),
    max: s(x.max),
    p50: s(quantileSorted(sorted, 0.5)),
    p95: s(nearestRank(sorted, 0.95)),
    p99: s(nearestRank(sorted, 0.99)),
  };
};

const loadMethod = (r: MaouViewSource): 'streaming' | 'map-style' =>
  r.data_load_method.mode === 'streaming' ? 'streaming' : 'map-style';

/**
 * maou's host figures: its CPU figure is a share of the whole machine, so ours (100 % = one core) is divided by the
 * cores. GPU figures only when the run used the GPU: nvidia-smi reads the whole device, busy or not with this run.
 */
const resourceKeys = (r: MaouViewSource, res: ResourceSummary | null): Partial<MaouMetrics> => {
  if (!res) return {};
  const cores = r.resource_limits?.cpu_cores ?? r.environment.cpus;
  const memory = r.resource_limits?.memory_bytes ?? r.environment.memory_bytes;
  const onGpu = isGpuBackend(r.environment);
  return {
    resource_cpu_max_percent: res.cpu_percent.peak / cores,
    resource_memory_max_bytes: res.rss_bytes.peak,
    resource_memory_max_percent: (100 * res.rss_bytes.peak) / memory,
    ...(res.gpu_util_percent && onGpu
      ? { resource_gpu_max_percent: res.gpu_util_percent.peak, resource_gpu_avg_percent: res.gpu_util_percent.mean }
      : {}),
    ...(res.gpu_memory_bytes && onGpu ? { resource_gpu_memory_max_bytes: res.gpu_memory_bytes.peak } : {}),
    ...(res.gpu_memory_bytes && res.gpu_memory_total_bytes && onGpu
      ? {
          resource_gpu_memory_total_bytes: res.gpu_memory_total_bytes,
          resource_gpu_memory_max_percent: (100 * res.gpu_memory_bytes.peak) / res.gpu_memory_total_bytes,
        }
      : {}),
  };
};

// maou records the loss it back-propagates: the weighted loss ÷ the cycle's accumulation steps.
const maouLoss = (b: BatchTiming): number => b.loss / (b.accumulationSteps ?? 1);

const trainingMetrics = (r: MaouViewSource): MaouMetrics => {
  // maou measures `--max-batches` batches (default 100); our stopping rule may run on past them when no cap was typed
  const cap = r.config.max_batches;
  const all = typeof cap === 'number' ? r.batches.slice(0, cap) : r.batches;
  const warm = all.filter((b) => b.warmup);
  const measured = all.filter((b) => !b.warmup);
  const measuredMs = sum(measured.map((b) => b.wallMs));
  const phase = (p: keyof BatchTiming['phases']): number => s(mean(measured.map((b) => b.phases[p])));
  const byCategory = {
    data_loading: measured.map((b) => b.phases.dataWait),
    gpu_transfer: measured.map((b) => b.phases.hostToDevice),
    forward_pass: measured.map((b) => b.phases.forward),
    loss_computation: measured.map((b) => b.phases.loss),
    backward_pass: measured.map((b) => b.phases.backward),
    optimizer_step: measured.map((b) => b.phases.optimizer),
    total_batch: measured.map(stepMs),
  };
  return {
    total_epoch_time: s(sum(all.map((b) => b.wallMs))),
    average_batch_time: s(mean(measured.map(stepMs))),
    actual_average_batch_time: s(measuredMs / measured.length),
    total_batches: all.length,
    warmup_time: s(sum(warm.map((b) => b.wallMs))),
    warmup_batches: warm.length,
    measured_time: s(measuredMs),
    measured_batches: measured.length,
    data_loading_time: phase('dataWait'),
    gpu_transfer_time: phase('hostToDevice'),
    forward_pass_time: phase('forward'),
    loss_computation_time: phase('loss'),
    backward_pass_time: phase('backward'),
    optimizer_step_time: phase('optimizer'),
    unaccounted_time: phase('other'),
    final_loss: maouLoss(all.at(-1)!),
    average_loss: mean(all.map(maouLoss)),
    samples_per_second: sum(measured.map((b) => b.samples)) / s(measuredMs),
    batches_per_second: measured.length / s(measuredMs),
    data_load_method: loadMethod(r),
    ...resourceKeys(r, r.resources),
    timing_distribution: Object.fromEntries(
      MAOU_TIMING_CATEGORIES.map((c) => [c, distribution(byCategory[c])]),
    ) as MaouMetrics['timing_distribution'],
    // float32 weights; batch-norm running statistics are not counted
    model_info: {
      total_parameters: r.model.parameters,
      trainable_parameters: r.model.trainable_parameters ?? r.model.parameters,
      model_memory_bytes: r.model.parameters * 4,
    },
  };
};

/** Validation as maou reports it: no warm-up, every batch measured, backward and optimiser 0. */
const validationMetrics = (r: MaouViewSource, v: ValidationMetrics): MaouMetrics => {
  const totalMs = v.batch_ms.mean * v.batches;
  return {
    total_epoch_time: s(totalMs),
    average_batch_time: s(v.batch_ms.mean - v.phase_ms.dataWait.mean - v.phase_ms.hostToDevice.mean),
    actual_average_batch_time: s(v.batch_ms.mean),
    total_batches: v.batches,
    warmup_time: 0,
    warmup_batches: 0,
    measured_time: s(totalMs),
    measured_batches: v.batches,
    data_loading_time: s(v.phase_ms.dataWait.mean),
    gpu_transfer_time: s(v.phase_ms.hostToDevice.mean),
    forward_pass_time: s(v.phase_ms.forward.mean),
    loss_computation_time: s(v.phase_ms.loss.mean),
    backward_pass_time: 0,
    optimizer_step_time: 0,
    unaccounted_time: s(v.phase_ms.other.mean),
    final_loss: v.final_loss,
    // maou's validation loss: the batches' mean, each batch once
    average_loss: v.batch_mean_loss,
    samples_per_second: v.samples_per_second,
    batches_per_second: v.batches / s(totalMs),
    data_load_method: loadMethod(r),
    ...resourceKeys(r, v.resources),
  };
};

const estimation = (r: MaouViewSource): MaouEstimation => {
  const e = r.estimation;
  if (!e) return {};
  return {
    sample_ratio: e.sample_ratio,
    estimated_full_epoch_time_seconds: s(e.full_epoch_ms),
    estimated_full_epoch_time_minutes: s(e.full_epoch_ms) / 60,
    estimated_total_batches: Math.ceil(r.epoch_estimate.batches_per_epoch / e.sample_ratio),
    actual_batches_processed: r.training_metrics.total_batches,
  };
};

type Setting = { number: number; string: string; boolean: boolean };
/**
 * One setting of the report's flat config. A missing or mistyped key is a bug in how the report was built: it throws,
 * naming the key, rather than printing a default that no run used.
 */
const setting = <T extends keyof Setting>(
  c: Readonly<Record<string, unknown>>,
  key: string,
  type: T,
  nullable = false,
): Setting[T] | null => {
  const v = c[key];
  if (typeof v === type || (nullable && v === null)) return v as Setting[T] | null;
  throw new Error(
    `maou view: the report config's '${key}' is ${JSON.stringify(v)}, expected a ${type}${nullable ? ' or null' : ''}`,
  );
};

const configuration = (r: MaouViewSource): MaouConfiguration => {
  const c = r.config;
  const d = r.data_load_method;
  const num = (key: string): number => setting(c, key, 'number')!;
  return {
    device: isGpuBackend(r.environment) ? r.environment.device : 'cpu',
    batch_size: r.training_metrics.batch_size,
    // effective values (what the loader used), where maou echoed the requested ones
    dataloader_workers: typeof d.workers === 'number' ? d.workers : num('loader.workers'),
    pin_memory: typeof d.pinMemory === 'boolean' ? d.pinMemory : setting(c, 'loader.pinMemory', 'boolean')!,
    prefetch_factor: num('loader.prefetchFactor'),
    warmup_batches: r.training_metrics.warmup_batches,
    max_batches: setting(c, 'max_batches', 'number', true),
    enable_profiling: setting(c, 'enable_profiling', 'boolean')!,
    sample_ratio: setting(c, 'sample_ratio', 'number', true),
    stage: r.stage,
    model_architecture: r.model.preset,
    streaming: d.mode === 'streaming',
    data_load_method: loadMethod(r),
    optimizer: setting(c, 'training.optimizer', 'string')!,
    learning_rate: num('training.learningRate'),
    momentum: num('training.momentum'),
    policy_loss_ratio: num('training.policyLossRatio'),
    value_loss_ratio: num('training.valueLossRatio'),
    // tfjs has no graph compiler: --compilation is accepted and nothing is compiled (the flag's note says so)
    compilation: false,
    // as given, as maou echoes them (reports before these flags have neither key)
    freeze_backbone:
      c['training.freezeBackbone'] === undefined ? false : setting(c, 'training.freezeBackbone', 'boolean')!,
    trainable_layers:
      c['training.trainableLayers'] === undefined ? null : setting(c, 'training.trainableLayers', 'number', true),
  };
};

/**
 * maou keys this tool leaves out, and why. Everything else of maou's payload is present: the spec
 * `maou-payload.spec.ts` (infra, beside the reference excerpt) checks the key set against the reference.
 * @public
 */
export const MAOU_OMITTED: Readonly<Record<string, string>> = {
  'training_metrics.gpu_memory_breakdown':
    'CUDA caching-allocator figures (peak allocated/reserved bytes, optimizer state); tfjs backends expose no allocator peak to fill it from',
};

/**
 * maou's payload computed from our measurements: the same batches, in seconds, with maou's definitions
 * (`average_batch_time` = step without data wait and upload; `actual_average_batch_time` = measured wall ÷ measured
 * batches; `average_loss` over every batch, warm-up included). Estimated epoch times are ours (warm-up once + steady
 * mean × remaining batches), which maou approximated by steady mean × all batches.
 * @public
 */
export const toMaouPayload = (r: MaouViewSource): MaouTrainingPayload => {
  const training = trainingMetrics(r);
  const validation = r.validation_metrics ? validationMetrics(r, r.validation_metrics) : null;
  const results = {
    Summary: maouSummary(
      'Training Performance Summary',
      training,
      r.epoch_estimate.batches_per_epoch,
      r.epoch_estimate.predicted_ms / 1000,
    ),
    Recommendations: maouRecommendations(r.recommendations.map((x) => x.message)),
  };
  // maou writes validation_skipped only when --run-validation was given and validation could not run
  const asked = setting(r.config, 'run_validation', 'boolean')!;
  const skipped =
    asked && !validation ? { validation_skipped: r.null_reasons.validation_metrics ?? 'no validation' } : {};
  return {
    benchmark_results: validation
      ? {
          ...results,
          ValidationSummary: maouSummary(
            'Validation Performance Summary',
            validation,
            batchesOf(r, 'validation'),
            validation.actual_average_batch_time * batchesOf(r, 'validation'),
          ),
        }
      : { ...results, ...skipped },
    training_metrics: training,
    ...(validation ? { validation_metrics: validation } : {}),
    estimation: estimation(r),
    configuration: configuration(r),
  };
};

const batchesOf = (r: MaouViewSource, split: 'train' | 'validation'): number => {
  const per = r.data_load_method.batches_per_epoch as Partial<Record<string, number>> | undefined;
  return per?.[split] ?? 0;
};
