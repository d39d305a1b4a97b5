import 'reflect-metadata';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { RecordingProgress } from '@maou/bench-use-cases/testing';
import { REPORT_SCHEMAS, reportSchemaPath } from './report-schemas/report-schemas';
import { UsageError } from './usage-error';
import { benchmarkTune, type BenchmarkTuneOptions } from './benchmark-tune';
import { renderTuneSummary } from './console/tune-summary';

// benchmarkTune(): the command's options (every benchmark-training flag, and the tune's), on the default adapters.
const dir = mkdtempSync(join(tmpdir(), 'maou-tune-'));
// whether the compute package finds the optional tfjs-node (the tensorflow backend starts only with it)
const tfjsNodeInstalled = ((): boolean => {
  try {
    createRequire(join(__dirname, '..', '..', 'compute', 'package.json')).resolve('@tensorflow/tfjs-node');
    return true;
  } catch {
    return false;
  }
})();
// a page of that name the product did not write
const foreign = join(dir, 'notes.html');
writeFileSync(foreign, '<!doctype html><p>mine</p>');
// A configuration that already sets what the tune would try, so the run is a probe and little else.
const set: BenchmarkTuneOptions = {
  modelArchitecture: 'lite',
  samplePositions: 256,
  sampleCacheDir: join(dir, 'sample'),
  batchSize: 16,
  warmupBatches: 1,
  threads: 2,
  dataloaderWorkers: 1,
  prefetchFactor: 4,
  pinMemory: true,
  inputCacheMode: 'memory',
  gpu: 'wasm',
  tuneBudget: 30,
  logLevel: 'silent',
};

const usage = async (options: object): Promise<UsageError> => {
  const e: unknown = await benchmarkTune(options as BenchmarkTuneOptions).catch((x: unknown) => x);
  if (!(e instanceof UsageError)) throw new Error(`expected a UsageError, got ${String(e)}`);
  return e;
};

describe('benchmarkTune', () => {
  it('tunes from code: every change with its gain, interval and verdict, the command line, and --output-json under its schema', async () => {
    const progress = new RecordingProgress();
    const file = join(dir, 'tune.json');
    const report = await benchmarkTune({ ...set, outputJson: file }, { overrides: { Progress: progress } });
    expect(report.kind).toBe('benchmark-tune');
    expect(report.baseline.samples_per_second).toBeGreaterThan(0);
    expect(report.baseline.epoch!.predicted_ms).toBeGreaterThan(0);
    for (const c of report.changes)
      expect(Object.keys(c)).toEqual(
        expect.arrayContaining(['flag', 'value', 'gain', 'interval', 'significant', 'why']),
      );
    // the given flags are the configuration; the tune's own and the output flags are not part of it
    expect(report.command).toMatch(/^maou utility benchmark-training /);
    expect(report.command).toContain('--threads 2');
    expect(report.command).toContain('--dataloader-workers 1');
    expect(report.command).toContain('--input-cache-mode memory');
    expect(report.command).not.toMatch(/--tune-budget|--output-json/);
    expect(progress.tasks.find((t) => t.start.label === 'tune: probe run of the configuration')?.outcome).toBe('done');
    const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(written.$schema).toBe(REPORT_SCHEMAS['benchmark-tune-report'].id);
    const validate = new Ajv({ allErrors: true, strict: false }).compile(
      JSON.parse(readFileSync(reportSchemaPath('benchmark-tune-report'), 'utf8')),
    );
    validate(written);
    expect(validate.errors ?? []).toEqual([]);
    expect(validate({ ...written, changes: [{ flag: '--threads' }] })).toBe(false);
  }, 300_000);

  it('given more changes than a short budget fits, then it ends within the budget and one leg, naming the changes not tried; a backend that does not start is none', async () => {
    const start = Date.now();
    // one thread of two, the main thread loading, fresh buffers, rows read from the file: a change for each
    const report = await benchmarkTune({
      ...set,
      threads: 1,
      dataloaderWorkers: 0,
      pinMemory: false,
      inputCacheMode: 'file',
      tuneBudget: 40,
    });
    const wallS = (Date.now() - start) / 1000;
    // tensorflow is registered beside wasm; where its package is not installed it is no candidate, and says why
    const tensorflow = report.skipped.find((x) => x.flag === '--gpu' && x.value === 'tensorflow');
    if (tfjsNodeInstalled) expect(tensorflow).toBeUndefined();
    else {
      expect(tensorflow?.why).toMatch(/^it does not start here: .*@tensorflow\/tfjs-node is not installed/);
      expect(report.changes.filter((c) => c.flag === '--gpu')).toEqual([]);
    }
    const notTried = report.changes.filter((c) => c.status === 'not tried');
    expect(notTried.length).toBeGreaterThan(0);
    for (const c of notTried) {
      expect(c.verdict).toBe('not tried: budget');
      expect(c.reason).toMatch(/were left after the probe and a leg costs/);
    }
    expect(renderTuneSummary(report)).toContain(`${notTried[0]!.flag} ${notTried[0]!.value} not tried: `);
    const leg = report.leg_s ?? 0;
    expect(report.elapsed_s).toBeLessThanOrEqual(report.budget_s + leg);
    // outside the tune: checking the options and building the adapters, well under a second
    expect(wallS).toBeLessThanOrEqual(report.budget_s + leg + 1);
  }, 120_000);

  it.each([
    [
      { tuneAllow: ['batch-size,speed'] },
      'tuneAllow: unknown change "speed"; known: batch-size, mixed-precision, architecture',
    ],
    [{ tuneBudget: 5 }, 'tuneBudget: must be'],
    [{ batchSizes: ['8,16'] }, 'batchSizes: a batch study cannot be tuned'],
    [{ calibrate: true }, 'calibrate: the tune measures loader settings itself'],
    [{ reportHtml: foreign }, `reportHtml: ${foreign} exists and is not an HTML report written by maou-bench`],
    [{ batchSize: 0 }, 'batchSize: must be an integer from 1 to 65,536, got 0'],
    [{ tuneBugdet: 60 }, 'tuneBugdet: unknown option; did you mean tuneBudget?'],
  ])('refuses %j before any I/O, naming the option as given: %s', async (options, message) => {
    const e = await usage({ ...set, ...options });
    expect(e.message).toContain(message);
    expect(e.exitCode).toBe(2);
    expect(readFileSync(foreign, 'utf8')).toBe('<!doctype html><p>mine</p>');
  });
});
