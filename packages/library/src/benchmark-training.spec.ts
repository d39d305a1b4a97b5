import 'reflect-metadata';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOKENS, type ProgressPort } from '@maou/bench-use-cases';
import { RecordingProgress } from '@maou/bench-use-cases/testing';
import { SystemClockAdapter } from '@maou/bench-infra';
import { createContainer } from './composition-root';
import { REPORT_SCHEMAS } from './report-schemas/report-schemas';
import { UsageError } from './usage-error';
import { benchmarkTraining, benchmarkTrainingStudy, type BenchmarkTrainingOptions } from './benchmark-training';

// benchmarkTraining(): the command's options, defaults and checks, with every default adapter, from code.
const dir = mkdtempSync(join(tmpdir(), 'maou-library-'));
const small: BenchmarkTrainingOptions = {
  modelArchitecture: 'lite',
  samplePositions: 256,
  sampleCacheDir: join(dir, 'sample'),
  batchSize: 16,
  warmupBatches: 1,
  maxBatches: 3,
  calibrate: false,
  logLevel: 'silent',
};

const usage = async (options: object): Promise<UsageError> => {
  const e: unknown = await benchmarkTraining(options as BenchmarkTrainingOptions).catch((x: unknown) => x);
  if (!(e instanceof UsageError)) throw new Error(`expected a UsageError, got ${String(e)}`);
  return e;
};

describe('benchmarkTraining', () => {
  it('runs on the default adapters, reports to a swapped progress port, writes --output-json with $schema', async () => {
    const progress = new RecordingProgress();
    const file = join(dir, 'report.json');
    const report = await benchmarkTraining({ ...small, outputJson: file }, { overrides: { Progress: progress } });
    expect(report).toMatchObject({ command: 'benchmark-training', stage: 3, model: { preset: 'lite' } });
    expect(report.training_metrics.samples_per_second).toBeGreaterThan(0);
    expect(progress.tasks.find((t) => t.start.label === 'benchmark batches')?.outcome).toBe('done');
    const written = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(written.$schema).toBe(REPORT_SCHEMAS['benchmark-training-report'].id);
  });

  it('given --stage1-batch-size at Stage 1, then the run trains at it and the resource plan in the report says so', async () => {
    const report = await benchmarkTraining({ ...small, stage: 1, stage1BatchSize: 32 });
    const batch = report.resource_limits!.decisions.find((d) => d.setting === 'batch_size');
    expect(batch).toEqual({ setting: 'batch_size', value: 32, origin: 'user', reason: '--stage1-batch-size given' });
    expect(report.training_metrics.batch_size).toBe(32);
    expect(report.config['loader.batchSize']).toBe(32);
  });

  it.each([
    [{ batchSize: 0 }, 'batchSize: must be an integer from 1 to 65,536, got 0'],
    [{ batchSise: 8 }, 'batchSise: unknown option; did you mean batchSize?'],
    [{ batchSize: '8' }, 'batchSize: expected a number, got "8"'],
    [{ logLevel: 'loud' }, 'logLevel: "loud" is not one of debug, info, warn, error, silent'],
    [{ stage3DataPath: 7 }, 'stage3DataPath: expected a string or an array of strings, got 7'],
    [{ stage1DataPath: 'a.feather' }, 'stage1DataPath: '],
    [{ batchSizes: ['8'] }, 'batchSizes: a batch study: call benchmarkTrainingStudy()'],
  ])('refuses %j before any I/O: %s', async (options, message) => {
    const e = await usage({ ...small, ...options });
    expect(e.message).toContain(message);
    expect(e.exitCode).toBe(2);
  });

  it('refuses a missing data path as a usage error naming stage3DataPath, not a failed run', async () => {
    const missing = join(dir, 'missing.feather');
    const e = await usage({ stage3DataPath: missing, maxBatches: 3, logLevel: 'silent' });
    expect(e.issues).toEqual([{ field: 'stage3DataPath', message: `${missing}: no such file or directory` }]);
  });

  it('is a closed type: a misspelt option does not compile, and is refused at run time', async () => {
    // @ts-expect-error batchSise is no option (the type has no index signature)
    const e: unknown = await benchmarkTraining({ ...small, batchSise: 8 }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(UsageError);
  });

  it('benchmarkTrainingStudy needs a study flag', async () => {
    await expect(benchmarkTrainingStudy(small)).rejects.toThrow(/give batchSizes, learningRates or findMaxBatch/);
  });
});

describe('createContainer overrides', () => {
  it('replaces exactly the port named, and the defaults built after it use the override', () => {
    const progress = new RecordingProgress();
    const c = createContainer({ logLevel: 'silent' }, { Progress: progress });
    expect(c.resolve<ProgressPort>(TOKENS.Progress)).toBe(progress);
    expect(c.resolve(TOKENS.Clock)).toBeInstanceOf(SystemClockAdapter);
    const plain = createContainer({ logLevel: 'silent' });
    expect(plain.resolve(TOKENS.Progress)).not.toBe(progress);
  });
});
