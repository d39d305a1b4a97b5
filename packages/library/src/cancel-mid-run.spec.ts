import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoggerPort, ProgressPort } from '@maou/bench-use-cases';
import { benchmarkDataloader } from './benchmark-dataloader';
import { benchmarkTrainingStudy } from './benchmark-training';

// An AbortSignal from code stops the batch study and the dataloader grid mid-run (issue 42): real runs on the embedded
// sample data, aborted from inside them through a port they report to, resolve to what they measured, saying so.
const dir = mkdtempSync(join(tmpdir(), 'maou-cancel-'));
const sample = { samplePositions: 256, sampleCacheDir: join(dir, 'sample') };

/** A progress port that aborts at the first batch of the task labelled `label` (a sweep point's: `batch size 8`). */
const abortAtTask = (label: string, controller: AbortController): ProgressPort => ({
  start: (task) => ({
    advance: () => void (task.label === label && controller.abort()),
    update: () => undefined,
    finish: () => undefined,
  }),
});

/** A logger that aborts when the grid logs its first measured point. */
const abortAtFirstPoint = (controller: AbortController): LoggerPort => {
  const logger: LoggerPort = {
    debug: () => undefined,
    info: (_fields, msg) => void (msg.startsWith('dataloader_point') && controller.abort()),
    warn: () => undefined,
    error: () => undefined,
    child: () => logger,
  };
  return logger;
};

describe('benchmarkTrainingStudy with an AbortSignal', () => {
  it('given an abort at the second point, then that point stops after its batch, the third never runs, and the report says so', async () => {
    const controller = new AbortController();
    const report = await benchmarkTrainingStudy(
      {
        ...sample,
        modelArchitecture: 'lite',
        batchSizes: '4,8,16',
        warmupBatches: 1,
        maxBatches: 3,
        gpu: 'wasm',
        dataloaderWorkers: 0,
      },
      { signal: controller.signal, overrides: { Progress: abortAtTask('batch size 8', controller) } },
    );
    expect(report.interruption).toEqual({ reason: 'aborted (AbortSignal)', completed_points: 1, planned_points: 3 });
    const points = report.sweep!.points.map((p) => [p.batch_size, p.status === 'ok' ? 'ok' : p.error_kind]);
    expect(points).toEqual([
      [4, 'ok'],
      [8, 'interrupted'],
    ]);
    expect(report.environment.queued_ms).toBeGreaterThanOrEqual(0);
  }, 180_000);

  it('given a signal aborted before the call, then it rejects with its reason before any work', async () => {
    const reason = new Error('the service is shutting down');
    await expect(
      benchmarkTrainingStudy({ ...sample, batchSizes: '4,8' }, { signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
  });
});

describe('benchmarkDataloader with an AbortSignal', () => {
  it('given an abort at the first grid point, then the grid stops there and resolves to that point, saying so', async () => {
    const controller = new AbortController();
    const out = await benchmarkDataloader(
      { ...sample, workers: 0, batchSizes: [16, 32], numBatches: 4, repeats: 1, consumptionSteps: 0 },
      { signal: controller.signal, overrides: { Logger: abortAtFirstPoint(controller) } },
    );
    expect(out.interruption).toEqual({ reason: 'aborted (AbortSignal)', completed_points: 1, planned_points: 2 });
    expect(out.points.map((p) => p.batchSize)).toEqual([16]);
    expect(out.recommended.batchSize).toBe(16);
    expect(out.environment.queued_ms).toBeGreaterThanOrEqual(0);
  }, 180_000);

  it('given a signal aborted before the call, then it rejects with its reason before any work', async () => {
    const reason = new Error('the service is shutting down');
    await expect(benchmarkDataloader(sample, { signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });
});
