import * as domain from '@maou/bench-domain';
import type { BenchmarkConfig, Setting } from '@maou/bench-domain';
import { toBenchmarkConfig, type RawBenchmarkTrainingOptions } from '@maou/bench-interface';
import { run } from './run';
import { shippedPlugIns } from '@maou/bench-app/commands';

// One owner per value: each domain `Setting` holds a flag's default and bounds, and the help text and the config read
// it. This reads the real `--help` of both commands and the config built from no flags, and fails where either states
// another default than the setting (a hand-written "(default 0.02)" in a help string, a `?? 0.02` in the config).

const settings = Object.values(domain).filter(
  (v): v is Setting => typeof v === 'object' && v !== null && 'flag' in v && 'bounds' in v,
);

const helpOf = async (command: string): Promise<string> => {
  const out: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(`${a.join(' ')}\n`));
  const so = jest.spyOn(process.stdout, 'write').mockImplementation((c) => out.push(String(c)) > 0);
  try {
    expect(await run(['utility', command, '--help'], shippedPlugIns())).toBe(0);
  } finally {
    log.mockRestore();
    so.mockRestore();
  }
  return out.join('');
};

/** Each flag's help entry (its description and yargs' [type] [default: x]), with yargs' line wrapping folded. */
const entries = (help: string): Map<string, string> => {
  const found = new Map<string, string>();
  let flag: string | null = null;
  for (const line of help.split('\n')) {
    if (/^Examples:/.test(line)) break;
    const start = /^ {2}--([a-z0-9-]+)\s+(.*)$/.exec(line);
    if (start) found.set((flag = `--${start[1]!}`), start[2]!);
    else if (flag && /^ {3,}\S/.test(line)) found.set(flag, `${found.get(flag)!} ${line.trim()}`);
    else flag = null;
  }
  return found;
};

/** The default an entry shows: yargs' `[default: 3]` or the description's "default 0.01"; null when none is a number. */
const shownDefault = (entry: string): number | null => {
  const m = /\[default: ([^\]]+)\]/.exec(entry) ?? /\bdefault:? (-?\d[\d,]*(?:\.\d+)?(?:e-?\d+)?)/.exec(entry);
  if (!m) return null;
  const v = Number(m[1]!.replace(/,/g, ''));
  return Number.isFinite(v) ? v : null;
};

const plugIns = shippedPlugIns();
const defaults = {
  cache: { dir: '/nonexistent/maou-sample', origin: 'the cache' },
  sources: plugIns.sources.choices(),
  backends: plugIns.backends.byPriority(),
  workers: 1,
  batchSize: domain.BATCH_SIZE.default,
};
const configOf = (raw: RawBenchmarkTrainingOptions): BenchmarkConfig => {
  const r = toBenchmarkConfig(raw, defaults);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.config;
};

// Where the config built from no flags (the stage or mode that reads the value) holds each default.
type Reader = readonly [raw: RawBenchmarkTrainingOptions, read: (c: BenchmarkConfig) => unknown];
const t = (c: BenchmarkConfig) => c.training;
const stopping = (c: BenchmarkConfig) => c.stopping!;
const adaptive = (c: BenchmarkConfig) => c.training.adaptiveBatch!;
const CONFIG_READERS: Readonly<Record<string, Reader>> = {
  '--stage': [{}, (c) => c.stage],
  '--seed': [{}, (c) => c.loader.seed],
  '--batch-size': [{}, (c) => c.loader.batchSize],
  '--prefetch-factor': [{}, (c) => c.loader.prefetchFactor],
  '--device-prefetch': [{}, (c) => c.loader.devicePrefetch],
  '--test-ratio': [{}, (c) => c.loader.testRatio],
  '--stage2-test-ratio': [{ stage: 2 }, (c) => c.loader.testRatio],
  '--policy-loss-ratio': [{}, (c) => t(c).policyLossRatio],
  '--value-loss-ratio': [{}, (c) => t(c).valueLossRatio],
  '--learning-ratio': [{}, (c) => t(c).learningRate],
  '--momentum': [{}, (c) => t(c).momentum],
  '--weight-decay': [{}, (c) => t(c).weightDecay],
  '--optimizer-beta1': [{}, (c) => t(c).beta1],
  '--optimizer-beta2': [{}, (c) => t(c).beta2],
  '--optimizer-eps': [{}, (c) => t(c).eps],
  '--gradient-clip': [{}, (c) => t(c).gradientClip],
  '--gradient-accumulation-steps': [{}, (c) => t(c).gradientAccumulationSteps],
  '--stage1-pos-weight': [{}, (c) => t(c).stage1PosWeight],
  '--stage2-pos-weight': [{}, (c) => t(c).stage2PosWeight],
  '--stage2-gamma-pos': [{}, (c) => t(c).stage2GammaPos],
  '--stage2-gamma-neg': [{}, (c) => t(c).stage2GammaNeg],
  '--stage2-clip': [{}, (c) => t(c).stage2Clip],
  '--stage2-hidden-dim': [{}, (c) => t(c).stage2HiddenDim],
  '--stage2-head-dropout': [{}, (c) => t(c).stage2HeadDropout],
  '--warmup-batches': [{}, (c) => c.warmupBatches],
  '--max-batches': [{}, (c) => c.maxBatches],
  '--target-precision': [{}, (c) => stopping(c).targetPrecision],
  '--time-budget': [{}, (c) => stopping(c).timeBudgetMs / 1000],
  '--adaptive-batch-min-steps': [{ adaptiveBatch: true }, (c) => adaptive(c).minSteps],
  '--adaptive-batch-max-steps': [{ adaptiveBatch: true }, (c) => adaptive(c).maxSteps],
  '--adaptive-batch-interval': [{ adaptiveBatch: true }, (c) => adaptive(c).interval],
  '--adaptive-batch-smoothing': [{ adaptiveBatch: true }, (c) => adaptive(c).smoothing],
  '--adaptive-batch-measurement-interval': [{ adaptiveBatch: true }, (c) => adaptive(c).measurementInterval],
};
// Defaults the config leaves to a later reader, which imports the setting itself: yargs' own default (the dataloader
// grid), app's max-batch search and calibration, engine's ViT shape (the config holds only the --vit-* given).
const READ_ELSEWHERE = new Set([
  '--tune-budget',
  '--num-batches',
  '--repeats',
  '--noise-margin',
  '--consumption-steps',
  '--find-max-batch-cap',
  '--calibration-budget',
  '--vit-embed-dim',
  '--vit-num-layers',
  '--vit-num-heads',
  '--vit-mlp-ratio',
  '--vit-dropout',
]);

describe('every domain setting: the default --help shows is the one the config uses', () => {
  let help: Map<string, string>[];
  beforeAll(async () => {
    help = [];
    // one at a time: each help run spies on console and stdout
    for (const c of ['benchmark-training', 'benchmark-dataloader', 'benchmark-tune'])
      help.push(entries(await helpOf(c)));
  });

  it('finds the settings', () => {
    expect(settings.length).toBeGreaterThan(40);
    expect(new Set(settings.map((s) => s.flag)).size).toBe(settings.length);
  });

  it.each(settings.map((s) => [s.flag, s] as const))('%s: in --help with its own default, or none', (flag, s) => {
    const shown = help.flatMap((h) => (h.has(flag) ? [h.get(flag)!] : []));
    expect(shown.length).toBeGreaterThan(0);
    for (const entry of shown) expect([flag, shownDefault(entry)]).toEqual([flag, s.default ?? null]);
  });

  // a datasource plug-in's flag declares its own default; its parser reads that declaration (infra's `numberFlag`)
  const sourceDefaults = plugIns.sources
    .choices()
    .flatMap((c) => Object.entries(c.flags))
    .flatMap(([name, f]) => (f.default === undefined ? [] : [[`--${name}`, f.default] as const]))
    // the bucket sources share their flags' declaration: one case each
    .filter(([flag], i, all) => all.findIndex(([f]) => f === flag) === i);
  it("finds the datasource plug-ins' declared defaults", () => expect(sourceDefaults.length).toBeGreaterThan(3));
  it.each(sourceDefaults)('datasource flag %s: --help shows its declared default %p', (flag, value) => {
    expect([flag, shownDefault(help[0]!.get(flag) ?? '')]).toEqual([flag, value]);
  });

  // the choice flags: --help names the default the config falls back to
  const choices: readonly (readonly [domain.ChoiceSetting<string>, ((c: BenchmarkConfig) => string) | null])[] = [
    [domain.OPTIMIZER, (c) => c.training.optimizer],
    [domain.LR_SCHEDULER, (c) => c.training.lrScheduler],
    [domain.MODEL_ARCHITECTURE, (c) => c.training.preset],
    [domain.TRACE_PATH, null], // read by the cli's output step
  ];
  it.each(choices.map(([s, read]) => [s.flag, s, read] as const))(
    '%s: --help and the config without the flag agree on the default',
    (flag, s, read) => {
      for (const h of help.filter((h) => h.has(flag))) expect(h.get(flag)).toContain(`default ${s.default}`);
      expect(help.some((h) => h.has(flag))).toBe(true);
      if (read) expect(read(configOf({}))).toBe(s.default);
    },
  );

  const inConfig = settings.filter((s) => s.default !== undefined && !READ_ELSEWHERE.has(s.flag));
  it.each(inConfig.map((s) => [s.flag, s] as const))(
    '%s: the config built without the flag holds the default',
    (flag, s) => {
      const reader = CONFIG_READERS[flag];
      expect([flag, reader !== undefined]).toEqual([flag, true]);
      const [raw, read] = reader!;
      expect([flag, read(configOf(raw))]).toEqual([flag, s.default]);
    },
  );
});
