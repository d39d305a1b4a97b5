import type { BenchmarkConfig, ModelPreset } from '../config/benchmark-config';
import type { Recommendation } from '../report/benchmark-report';
import type { Setting } from '../config/setting';

/** Changes that alter what is trained, tried only when named in `--tune-allow`. @public */
export const TUNE_ALLOWANCES = ['batch-size', 'mixed-precision', 'architecture'] as const;
/** `--tune-budget`: "a few minutes" by default; at least enough for a probe and two legs a side. @public */
export const TUNE_BUDGET = {
  flag: '--tune-budget',
  default: 240,
  bounds: { min: 30, max: 86_400 },
  unit: 'seconds',
} as const satisfies Setting;

/** @public */
export type TuneAllowance = (typeof TUNE_ALLOWANCES)[number];

/** One flag set to one value, as the command line writes it (`true`/`false` for a switch). @public */
export interface TuneChange {
  readonly flag: string;
  readonly value: string;
}

/**
 * A change the tune measures. `speed`: the same training, faster or not; `training`: it alters what is trained (said in
 * `alters`), tried only when allowed; `measurement`: it changes how the run measures, not how fast it trains.
 * @public
 */
export interface TuneCandidate extends TuneChange {
  readonly kind: 'speed' | 'training' | 'measurement';
  /** why it is tried: the recommendation that named it, or the setting it differs in */
  readonly why: string;
  /** what it changes in the training itself; null when it changes speed only */
  readonly alters: string | null;
}

/** A change the tune did not try, and why. @public */
export interface TuneSkipped {
  readonly flag: string;
  readonly value: string | null;
  readonly why: string;
}

/** A registered backend as the tune may switch to it. @public */
export interface TuneBackend {
  readonly name: string;
  readonly placement: 'host' | 'device';
  readonly fallback?: boolean;
  readonly mixedPrecision?: boolean;
}

/** What the candidates are made from: the user's configuration, what its first run measured, and what is allowed. @public */
export interface TuneContext {
  readonly config: BenchmarkConfig;
  /** the backend and threads the run started (`--threads auto` resolved), and the usable cores */
  readonly started: { readonly backend: string; readonly threads: number; readonly cores: number };
  readonly recommendations: readonly Recommendation[];
  readonly backends: readonly TuneBackend[];
  readonly allow: readonly TuneAllowance[];
  /**
   * the measured critical batch size (B_simple's lower end); null when unmeasured, and then no batch size is tried
   */
  readonly criticalBatch: number | null;
  /** the files the datasource reads (streaming or map-style matters from 2) */
  readonly files?: number;
}

/** The settings each flag the tune may change lives in, applied to a configuration (pure). @public */
export const applyChange = (config: BenchmarkConfig, { flag, value }: TuneChange): BenchmarkConfig => {
  const loader = (patch: Partial<BenchmarkConfig['loader']>) => ({ ...config, loader: { ...config.loader, ...patch } });
  switch (flag) {
    case '--dataloader-workers':
      return loader({ workers: Number(value) });
    case '--prefetch-factor':
      return loader({ prefetchFactor: Number(value) });
    case '--pin-memory':
      return loader({ pinMemory: value === 'true' });
    case '--device-prefetch':
      return loader({ devicePrefetch: Number(value) });
    case '--streaming':
      return loader({ streaming: value === 'true' });
    case '--input-cache-mode':
      return loader({ cacheMode: value === 'memory' ? 'memory' : 'file' });
    case '--batch-size':
      return loader({ batchSize: Number(value) });
    case '--threads':
      return { ...config, compute: { ...config.compute, threads: Number(value) } };
    case '--gpu':
      return { ...config, compute: { ...config.compute, backend: value, deviceIndex: 0 } };
    case '--mixed-precision':
      return {
        ...config,
        compute: { ...config.compute, mixedPrecision: value === 'true' },
        training: { ...config.training, mixedPrecision: value === 'true' },
      };
    case '--model-architecture':
      return { ...config, training: { ...config.training, preset: value as ModelPreset } };
    case '--warmup-batches':
      return { ...config, warmupBatches: Number(value) };
    default:
      throw new Error(`the tune cannot apply ${flag}`);
  }
};

/** Every change of a list applied in turn. @public */
export const applyChanges = (config: BenchmarkConfig, changes: readonly TuneChange[]): BenchmarkConfig =>
  changes.reduce(applyChange, config);

const SPEED_FLAGS = new Set([
  '--dataloader-workers',
  '--prefetch-factor',
  '--pin-memory',
  '--device-prefetch',
  '--threads',
  '--streaming',
  '--input-cache-mode',
  '--gpu',
]);
/** The allowance each training-altering flag needs, and what it alters. */
const TRAINING_FLAGS: Readonly<Record<string, { allow: TuneAllowance; alters: string }>> = {
  '--batch-size': {
    allow: 'batch-size',
    alters:
      'the rows per optimiser step, so the steps per epoch and the gradient noise of each (keep the learning rate in step)',
  },
  '--mixed-precision': {
    allow: 'mixed-precision',
    alters: 'activations in f16 (f32 master weights, dynamic loss scaling): the losses differ in the last digits',
  },
  '--model-architecture': {
    allow: 'architecture',
    alters: 'the network itself: another architecture learns differently and reaches another accuracy',
  },
};

/** The settings that differ from the configuration, each with why; same speed-or-training rules as the recommendations. */
const settingCandidates = (ctx: TuneContext): { flag: string; value: string; why: string }[] => {
  const { config, started } = ctx;
  const l = config.loader;
  const out: { flag: string; value: string; why: string }[] = [];
  if (started.threads < started.cores)
    out.push({
      flag: '--threads',
      value: String(started.cores),
      why: `${started.threads} backend thread(s) on ${started.cores} usable cores`,
    });
  if (l.workers === 0)
    out.push({
      flag: '--dataloader-workers',
      value: '1',
      why: 'batches are prepared on the main thread, between steps',
    });
  if (l.workers > 0 && l.prefetchFactor < 4)
    out.push({
      flag: '--prefetch-factor',
      value: String(l.prefetchFactor * 2),
      why: `each worker holds ${l.prefetchFactor} batch(es) ready`,
    });
  if (!l.pinMemory) out.push({ flag: '--pin-memory', value: 'true', why: 'transfer buffers are allocated afresh' });
  const device = ctx.backends.find((b) => b.name === started.backend)?.placement === 'device';
  if (device && l.devicePrefetch === 0)
    out.push({ flag: '--device-prefetch', value: '2', why: 'no batch is uploaded to the device ahead of its step' });
  if (config.source.streamable && (ctx.files ?? 0) >= 2)
    out.push({
      flag: '--streaming',
      value: String(!l.streaming),
      why: l.streaming ? 'files are streamed; map-style reads them by index' : 'files are read map-style',
    });
  if (!(l.streaming && config.source.streamable && (ctx.files ?? 0) >= 2) && l.cacheMode === 'file')
    out.push({ flag: '--input-cache-mode', value: 'memory', why: 'map-style rows are read from the file on demand' });
  // Another backend of the same placement (a GPU the machine may lack is not tried from a CPU run), never a fallback.
  const placement = ctx.backends.find((b) => b.name === started.backend)?.placement;
  for (const b of ctx.backends)
    if (b.name !== started.backend && b.placement === placement && !b.fallback)
      out.push({
        flag: '--gpu',
        value: b.name,
        why: `the run trains on ${started.backend}; ${b.name} is registered too`,
      });
  return out;
};

const MEASUREMENT_FLAGS: Readonly<Record<string, string>> = {
  '--warmup-batches': 'it moves where the measured batches begin, not how fast they run',
};

/**
 * The changes the tune measures against the configuration: every recommendation that names a flag and a value, and
 * the settings that change speed without changing what is trained; changes that alter the training only when allowed
 * by name (a batch size only up to the measured critical batch size). One candidate per flag and value, the
 * recommendation's reason first. What it leaves out, it says why.
 * @public
 */
export const tuneCandidates = (ctx: TuneContext): { tried: TuneCandidate[]; skipped: TuneSkipped[] } => {
  const tried: TuneCandidate[] = [];
  const skipped: TuneSkipped[] = [];
  const seen = new Set<string>();
  const add = (flag: string, value: string, why: string): void => {
    const key = `${flag}=${value}`;
    if (seen.has(key)) return;
    seen.add(key);
    const training = TRAINING_FLAGS[flag];
    if (SPEED_FLAGS.has(flag)) tried.push({ flag, value, why, kind: 'speed', alters: null });
    else if (MEASUREMENT_FLAGS[flag])
      tried.push({ flag, value, why, kind: 'measurement', alters: MEASUREMENT_FLAGS[flag] });
    else if (!training)
      skipped.push({
        flag,
        value,
        why: `${why.replace(/\.$/, '')}; the tune measures its own look, so it has nothing to try`,
      });
    else if (!ctx.allow.includes(training.allow))
      skipped.push({
        flag,
        value,
        why: `it alters the training (${training.alters}); allow it with --tune-allow ${training.allow}`,
      });
    else if (flag === '--batch-size' && !(ctx.criticalBatch !== null && Number(value) <= ctx.criticalBatch))
      skipped.push({
        flag,
        value,
        why:
          ctx.criticalBatch === null
            ? 'no critical batch size was measured, so no larger batch is known to train as well'
            : `above the measured critical batch size (${ctx.criticalBatch.toFixed(0)})`,
      });
    else tried.push({ flag, value, why, kind: 'training', alters: training.alters });
  };
  for (const r of ctx.recommendations) {
    if (r.flag === null) continue;
    if (r.value === null) skipped.push({ flag: r.flag, value: null, why: `${r.message} (no value to try)` });
    else add(r.flag, r.value, r.message);
  }
  for (const c of settingCandidates(ctx)) add(c.flag, c.value, c.why);
  trainingCandidates(ctx).forEach((c) => add(c.flag, c.value, c.why));
  return { tried, skipped };
};

/** The training-altering settings worth trying when allowed: a doubled batch, f16, the lite network. */
const trainingCandidates = (ctx: TuneContext): { flag: string; value: string; why: string }[] => {
  const { config, started } = ctx;
  const out: { flag: string; value: string; why: string }[] = [];
  if (ctx.allow.includes('batch-size'))
    out.push({
      flag: '--batch-size',
      value: String(config.loader.batchSize * 2),
      why: `batch ${config.loader.batchSize}; a larger batch amortises each step's fixed cost`,
    });
  const mixed = ctx.backends.find((b) => b.name === started.backend)?.mixedPrecision === true;
  if (ctx.allow.includes('mixed-precision') && mixed && !config.training.mixedPrecision)
    out.push({ flag: '--mixed-precision', value: 'true', why: `${started.backend} runs f16 activations` });
  if (ctx.allow.includes('architecture') && config.training.preset !== 'lite')
    out.push({
      flag: '--model-architecture',
      value: 'lite',
      why: `${config.training.preset}; lite is the shogi-optimised preset`,
    });
  return out;
};
