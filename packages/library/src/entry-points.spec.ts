import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toJson } from '@maou/bench-infra';
import { trainingReportFixture } from '@maou/bench-testkit/report';
import { benchmarkCompare } from './benchmark-compare';
import { benchmarkDataloader } from './benchmark-dataloader';
import { BenchmarkRunError, UsageError } from './usage-error';

// @maou/bench-app's other entry points (issue 42): the dataloader benchmark and compare, as their commands run them.
const dir = mkdtempSync(join(tmpdir(), 'maou-entry-'));

describe('benchmarkCompare', () => {
  it('given two benchmark-training reports, then it compares them; given a file that is none, a run error (code 2)', async () => {
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    writeFileSync(a, toJson(trainingReportFixture(60, 'a')));
    writeFileSync(b, toJson(trainingReportFixture(60, 'b')));
    const report = await benchmarkCompare({ a, b });
    expect(report).toMatchObject({ a: { path: a }, b: { path: b } });
    writeFileSync(join(dir, 'not.json'), '{}');
    const e: unknown = await benchmarkCompare({ a, b: join(dir, 'not.json') }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BenchmarkRunError);
    expect(e).toMatchObject({ exitCode: 2 });
    await expect(benchmarkCompare({ a, b, alpha: 2 })).rejects.toThrow(UsageError);
  });
});

describe('benchmarkDataloader', () => {
  it('runs a one-point grid on the embedded sample data and resolves to its result', async () => {
    const out = await benchmarkDataloader({
      samplePositions: 256,
      sampleCacheDir: join(dir, 'sample'),
      workers: 0,
      prefetchFactors: 2,
      batchSizes: 16,
      numBatches: 4,
      repeats: 1,
    });
    expect(out.points.length).toBe(1);
  }, 180_000);
});
