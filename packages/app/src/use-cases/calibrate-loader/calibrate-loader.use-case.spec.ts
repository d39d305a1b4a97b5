import 'reflect-metadata';
import type { DataLoaderConfig } from '@maou/bench-domain';
import type { DataSourcePort } from '../../ports/data-source.port';
import { FakeClock, FakeLoaderFactory, MemoryCalibrationStore, MemoryLogger, RecordingProgress } from '../../testing';
import type { CalibrateLoaderInput } from './calibrate-loader.input';
import { CalibrateLoaderUseCase } from './calibrate-loader.use-case';
import { calibrationCandidates } from './calibration-candidates';

const base: DataLoaderConfig = {
  batchSize: 256,
  workers: 0,
  prefetchFactor: 2,
  pinMemory: false,
  persistentWorkers: true,
  streaming: true,
  shuffle: true,
  testRatio: 0.1,
  cacheMode: 'file',
  devicePrefetch: 3,
  seed: 1,
};
const input = (over: Partial<CalibrateLoaderInput> = {}): CalibrateLoaderInput => ({
  mode: 'calibrate',
  source: {} as DataSourcePort,
  base,
  signature: {
    cpuCores: 4,
    memoryBytes: 8e9,
    os: 'linux',
    node: '20',
    tfjs: '4.22.0',
    backend: 'wasm',
    backendVersion: '4.22.0',
    batchSize: 256,
    dataset: 'd',
    streaming: true,
    pinMemory: false,
  },
  limits: { maxWorkers: 4 },
  budgetMs: 60_000,
  batchesPerCandidate: 10,
  ttlMs: 7 * 86_400_000,
  ...over,
});
// 0 workers: 10 ms/batch; 1: 6; 2: 4; 4: 3.9 (a tie with 2 within 5 %).
const speed = (c: DataLoaderConfig) => (({ 0: 10, 1: 6, 2: 4, 4: 3.9 }) as Record<number, number>)[c.workers]!;

const setup = (ms = speed, fail?: (c: DataLoaderConfig) => Error | null) => {
  const clock = new FakeClock();
  const logger = new MemoryLogger();
  const store = new MemoryCalibrationStore();
  const loaders = new FakeLoaderFactory(clock, ms, fail);
  const progress = new RecordingProgress();
  return {
    clock,
    logger,
    store,
    loaders,
    progress,
    useCase: new CalibrateLoaderUseCase(loaders, store, clock, logger, progress),
  };
};

describe('CalibrateLoaderUseCase', () => {
  it('given no cache, when calibrating, then the cheapest setting within the tie margin of the fastest wins and is stored', async () => {
    const { useCase, store, logger } = setup();
    const out = await useCase.execute(input());
    expect(out.origin).toBe('measured');
    expect(out.choice).toMatchObject({ workers: 2, prefetchFactor: 2, batchSize: 256 });
    expect(out.choice.samplesPerSecond).toBeCloseTo(256 / 0.004, 0);
    expect(store.entries.size).toBe(1);
    expect(logger.lines.some((l) => l.msg.startsWith('calibration_winner workers=2'))).toBe(true);
  });

  it('given a fresh cached result, when calibrating again, then no loader is built; force recomputes', async () => {
    const s = setup();
    await s.useCase.execute(input());
    const built = s.loaders.created.length;
    expect((await s.useCase.execute(input())).origin).toBe('cache');
    expect(s.loaders.created.length).toBe(built);
    expect((await s.useCase.execute(input({ mode: 'force' }))).origin).toBe('measured');
    expect((await s.useCase.execute(input({ mode: 'off' }))).choice.workers).toBe(0);
  });

  it('given a stale, corrupt or other-signature entry, when calibrating, then it is ignored with a warning and recomputed', async () => {
    const s = setup();
    await s.useCase.execute(input());
    s.clock.advance(8 * 86_400_000);
    expect((await s.useCase.execute(input())).origin).toBe('measured');
    expect(s.logger.lines.some((l) => l.level === 'warn' && /stale/.test(l.msg))).toBe(true);
    const [key] = [...s.store.entries.keys()];
    s.store.entries.set(key!, { createdAtMs: 'yesterday' });
    expect((await s.useCase.execute(input())).origin).toBe('measured');
    expect(s.logger.lines.some((l) => /missing or invalid fields/.test(l.msg))).toBe(true);
    const other = input({ signature: { ...input().signature, batchSize: 128 } });
    expect((await s.useCase.execute(other)).origin).toBe('measured');
  });

  it('given a clearly slower candidate after the best, when measured, then it stops early', async () => {
    const s = setup((c) => (c.workers === 4 && c.prefetchFactor === 4 ? 50 : speed(c)));
    const out = await s.useCase.execute(input());
    const slow = out.candidates.find((c) => c.workers === 4 && c.prefetchFactor === 4)!;
    expect(slow.stoppedEarly).toBe(true);
    expect(out.choice.workers).toBe(2);
  });

  it('given out-of-memory above batch 64, when measured, then the batch size backs off by halves', async () => {
    const s = setup(speed, (c) => (c.batchSize > 64 ? new RangeError('Array buffer allocation failed') : null));
    const out = await s.useCase.execute(input({ limits: { maxWorkers: 0 } }));
    expect(out.choice.batchSize).toBe(64);
    expect(s.logger.lines.filter((l) => l.msg.startsWith('calibration_backoff reason=oom'))).toHaveLength(2);
  });

  it('given workers fixed by the user, when calibrating, then only the other settings are searched', async () => {
    const s = setup();
    const out = await s.useCase.execute(input({ fixed: { workers: 1 } }));
    expect(new Set(out.candidates.map((c) => c.workers))).toEqual(new Set([1]));
    expect(out.choice.workers).toBe(1);
  });

  it('given a spent time budget, when more candidates remain, then calibration stops with what it measured', async () => {
    const s = setup();
    const out = await s.useCase.execute(input({ budgetMs: 50 }));
    expect(out.candidates).toHaveLength(1);
    expect(s.logger.lines.some((l) => l.msg === 'calibration_budget_spent measured=1')).toBe(true);
  });

  it('given a calibration, then one progress task counts the candidates measured; a cache hit starts none', async () => {
    const s = setup();
    const out = await s.useCase.execute(input());
    const total = calibrationCandidates(input()).length;
    expect(total).toBeGreaterThan(1);
    expect(
      s.progress.tasks.map((t) => [t.start.label, t.start.unit, t.start.total, t.done, t.outcome, t.late]),
    ).toEqual([['loader calibration', 'candidates', total, out.candidates.length, 'done', 0]]);
    expect(out.candidates).toHaveLength(total);
    await s.useCase.execute(input());
    expect(s.progress.tasks).toHaveLength(1);
    const spent = setup();
    await spent.useCase.execute(input({ budgetMs: 50 }));
    expect(spent.progress.tasks.map((t) => [t.done, t.start.total, t.outcome])).toEqual([[1, total, 'done']]);
  });
});
