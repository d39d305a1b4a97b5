import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ProgressPort } from '@maou/bench-use-cases';
import { benchmarkTraining, type BenchmarkTrainingOptions } from './benchmark-training';

// A library run inside a service's process (issue 42): it prints nothing, leaves the service's signals alone and is
// cancelled by an AbortSignal.
const small: BenchmarkTrainingOptions = {
  modelArchitecture: 'lite',
  samplePositions: 256,
  sampleCacheDir: join(mkdtempSync(join(tmpdir(), 'maou-host-')), 'sample'),
  batchSize: 16,
  warmupBatches: 1,
  maxBatches: 3,
  calibrate: false,
};
const SIGNALS = ['SIGHUP', 'SIGINT', 'SIGTERM'] as const;
const listeners = () => SIGNALS.map((s) => process.listenerCount(s));

/** Everything written to stdout, stderr or the console while `work` runs. */
const captured = async <T>(work: () => Promise<T>): Promise<{ value: T; printed: string[] }> => {
  const printed: string[] = [];
  const record = (...a: unknown[]) => void printed.push(a.map(String).join(' '));
  const spies = [
    jest.spyOn(process.stdout, 'write').mockImplementation((c) => printed.push(String(c)) > 0),
    jest.spyOn(process.stderr, 'write').mockImplementation((c) => printed.push(String(c)) > 0),
    ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
      jest.spyOn(console, m).mockImplementation(record),
    ),
  ];
  try {
    return { value: await work(), printed };
  } finally {
    spies.forEach((s) => s.mockRestore());
  }
};

/** A progress port that aborts `controller` when the run has done `after` batches. */
const abortAfter = (controller: AbortController, after: number): ProgressPort => ({
  start: () => {
    let done = 0;
    return {
      advance: () => {
        if (++done === after) controller.abort();
      },
      update: () => undefined,
      finish: () => undefined,
    };
  },
});

describe('a library run in a host process', () => {
  it('prints nothing (no log, no progress) and leaves no signal listener', async () => {
    const before = listeners();
    const { value: report, printed } = await captured(() => benchmarkTraining(small));
    expect(report.environment.backend).toBe('wasm');
    expect(printed).toEqual([]);
    expect(listeners()).toEqual(before);
  });

  it('given an AbortSignal aborted after 2 batches, then the run stops there and resolves to what it measured', async () => {
    const controller = new AbortController();
    const report = await benchmarkTraining(
      { ...small, maxBatches: 40 },
      { signal: controller.signal, overrides: { Progress: abortAfter(controller, 2) } },
    );
    expect(report.interruption).toMatchObject({ reason: 'aborted (AbortSignal)', completed_batches: 2 });
    expect(report.interruption!.planned_batches).toBeGreaterThan(2);
    expect(report.batches).toHaveLength(2);
  });

  it('given an AbortSignal already aborted, then it rejects with its reason before any work', async () => {
    const controller = new AbortController();
    controller.abort(new Error('service shutting down'));
    await expect(benchmarkTraining(small, { signal: controller.signal })).rejects.toThrow('service shutting down');
  });
});
