import yargs from 'yargs';
import { applyChanges, BATCH_SIZE, type BenchmarkConfig } from '@maou/bench-domain';
import { givenSettings, toBenchmarkConfig, tuneCommandLine, TUNE_OPTIONS } from '@maou/bench-interface';
import { plannedSettings } from '@maou/bench-use-cases/testing';
import { benchmarkTrainingTable, benchmarkTuneTable, shippedPlugIns } from '@maou/bench-app/commands';
import { run } from '../run';

// The command line a tune hands back is read by the same yargs table `benchmark-training` uses: it must give the
// configuration the tune measured, i.e. the user's with the changes applied.
const plugIns = shippedPlugIns();
const defaults = {
  cache: { dir: '/nonexistent/maou-sample', origin: 'the cache' },
  sources: plugIns.sources.choices(),
  backends: plugIns.backends.byPriority(),
  workers: 1,
  batchSize: BATCH_SIZE.default,
};
const parse = (table: Record<string, object>, argv: readonly string[]) =>
  yargs([...argv])
    .options(table as Parameters<ReturnType<typeof yargs>['options']>[0])
    .strict()
    .parseSync() as unknown as Record<string, unknown>;
const configOf = (args: Record<string, unknown>): BenchmarkConfig => {
  // batch size, workers and threads as the resource plan decides them from the flags
  const r = toBenchmarkConfig(args, { ...defaults, ...plannedSettings(givenSettings(args)) });
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value.config;
};

describe('the command line a tune prints', () => {
  it.each([
    [
      ['--threads', '1', '--dataloader-workers', '0'],
      [
        { flag: '--threads', value: '2' },
        { flag: '--dataloader-workers', value: '1' },
      ],
    ],
    [
      ['--no-streaming', '--model-architecture', 'lite', '--batch-size', '64', '--warmup-batches', '2'],
      [
        { flag: '--streaming', value: 'true' },
        { flag: '--warmup-batches', value: '31' },
      ],
    ],
    [
      ['--pin-memory', '--seed', '7', '--tune-budget', '60', '--tune-allow', 'batch-size', '--output-json', 'o.json'],
      [
        { flag: '--batch-size', value: '512' },
        { flag: '--pin-memory', value: 'true' },
      ],
    ],
    [
      ['--streaming', '--gpu', 'wasm'],
      [
        { flag: '--streaming', value: 'false' },
        { flag: '--gpu', value: 'tensorflow' },
      ],
    ],
    [[], []],
  ])('from %j with %j, reproduces the tuned configuration', (argv, changes) => {
    const given = parse(benchmarkTuneTable(plugIns), argv);
    const line = tuneCommandLine(benchmarkTuneTable(plugIns), given, changes, Object.keys(TUNE_OPTIONS));
    const words = line.split(' ');
    expect(words.slice(0, 3)).toEqual(['maou', 'utility', 'benchmark-training']);
    expect(line).not.toMatch(/--tune-|--output-json/);
    const again = parse(benchmarkTrainingTable(plugIns), words.slice(3));
    expect(configOf(again)).toEqual(applyChanges(configOf(given), changes));
  });

  it('quotes a value the shell would split', () => {
    const line = tuneCommandLine(
      { 'stage3-data-path': { type: 'string', describe: '', array: true } },
      { stage3DataPath: ['my data/a b.feather', "it's.feather"] },
      [],
    );
    expect(line).toBe(`maou utility benchmark-training --stage3-data-path 'my data/a b.feather' 'it'\\''s.feather'`);
  });
});

describe('maou utility benchmark-tune', () => {
  it('takes every benchmark-training flag and its own, and refuses a bad one with exit 2 before any work', async () => {
    const errs: string[] = [];
    const se = jest.spyOn(process.stderr, 'write').mockImplementation((c) => errs.push(String(c)) > 0);
    try {
      expect(
        await run(['utility', 'benchmark-tune', '--threads', '1', '--tune-allow', 'speed', '--batch-size', '0']),
      ).toBe(2);
    } finally {
      se.mockRestore();
    }
    expect(errs.join('')).toContain('maou benchmark-tune: invalid options');
    expect(errs.join('')).toContain('--tune-allow: unknown change "speed"');
    expect(errs.join('')).toContain('--batch-size: must be an integer from 1 to 65,536, got 0');
  });
});
