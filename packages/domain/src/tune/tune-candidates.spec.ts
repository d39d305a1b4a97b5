import type { BenchmarkConfig } from '../config/benchmark-config';
import type { Recommendation } from '../report/benchmark-report';
import { mulberry32 } from '../random/mulberry32';
import { applyChanges, tuneCandidates, type TuneContext } from './tune-candidates';
import { compareLegs, type TuneLeg } from './tune-comparison';
import { tuneWinners, type TuneChangeResult } from './tune-report';

const CONFIG: BenchmarkConfig = {
  stage: 3,
  source: { kind: 'sample', label: 'the embedded sample data', sampled: false, streamable: false },
  loader: {
    batchSize: 128,
    workers: 0,
    prefetchFactor: 2,
    pinMemory: false,
    persistentWorkers: true,
    streaming: true,
    shuffle: true,
    testRatio: 0.2,
    cacheMode: 'file',
    devicePrefetch: 0,
    seed: 1,
  },
  // the candidates read only the network's preset and precision of the training settings
  training: { preset: 'resnet' } as BenchmarkConfig['training'],
  compute: { backend: 'host', deviceIndex: 0, threads: 1 },
  warmupBatches: 5,
  maxBatches: 100,
  runValidation: false,
  sampleRatio: null,
  enableProfiling: false,
  enableResourceMonitoring: false,
  compilation: false,
};

const rec = (rule: string, flag: string | null, value: string | null): Recommendation => ({
  rule,
  severity: 'suggestion',
  message: `${rule} fired`,
  flag,
  value,
  evidence: '',
});

const context = (over: Partial<TuneContext> = {}): TuneContext => ({
  config: CONFIG,
  started: { backend: 'wasm', threads: 1, cores: 2 },
  recommendations: [
    rec('input-bound', '--dataloader-workers', '1'),
    rec('late-steady-state', '--warmup-batches', '31'),
    rec('more-batches', '--max-batches', '400'),
    rec('fallback-backend', '--gpu', null),
    rec('variability', null, null),
  ],
  backends: [
    { name: 'tensorflow', placement: 'host' },
    { name: 'wasm', placement: 'host' },
    { name: 'cpu', placement: 'host', fallback: true },
    { name: 'webgpu', placement: 'device', mixedPrecision: true },
  ],
  allow: [],
  criticalBatch: null,
  ...over,
});

const key = (c: { flag: string; value: string | null }) => `${c.flag} ${c.value}`;

describe('tuneCandidates', () => {
  it('given one thread and no loader workers on 2 cores, then it tries the speed settings and the named recommendations, each once, and says why it leaves the rest', () => {
    const { tried, skipped } = tuneCandidates(context());
    expect(tried.map(key)).toEqual([
      '--dataloader-workers 1',
      '--warmup-batches 31',
      '--threads 2',
      '--pin-memory true',
      '--input-cache-mode memory',
      '--gpu tensorflow',
    ]);
    expect(tried[0]).toMatchObject({ kind: 'speed', why: 'input-bound fired', alters: null });
    expect(tried[1]).toMatchObject({ kind: 'measurement' });
    // the fallback and the GPU (another placement) are never tried from a CPU run
    expect(tried.map(key)).not.toContain('--gpu cpu');
    expect(tried.map(key)).not.toContain('--gpu webgpu');
    expect(skipped.map(key)).toEqual(['--max-batches 400', '--gpu null']);
    expect(skipped[0]!.why).toMatch(/the tune measures its own look/);
  });

  it('given changes that alter the training, then each is tried only when allowed by name, a batch only up to the measured critical batch size', () => {
    const denied = tuneCandidates(context({ recommendations: [rec('wasm-heap', '--batch-size', '64')] }));
    expect(denied.tried.map(key)).not.toContain('--batch-size 64');
    expect(denied.skipped[0]!.why).toMatch(/alters the training .*--tune-allow batch-size/);

    const unmeasured = tuneCandidates(context({ allow: ['batch-size'] }));
    expect(unmeasured.tried.map((c) => c.flag)).not.toContain('--batch-size');
    expect(unmeasured.skipped.find((s) => s.flag === '--batch-size')!.why).toMatch(/no critical batch size/);

    const within = tuneCandidates(context({ allow: ['batch-size', 'architecture'], criticalBatch: 300 }));
    const batch = within.tried.find((c) => c.flag === '--batch-size')!;
    expect(batch).toMatchObject({ value: '256', kind: 'training' });
    expect(batch.alters).toMatch(/rows per optimiser step/);
    expect(within.tried.find((c) => c.flag === '--model-architecture')).toMatchObject({ value: 'lite' });

    const above = tuneCandidates(context({ allow: ['batch-size'], criticalBatch: 200 }));
    expect(above.skipped.find((s) => s.flag === '--batch-size')!.why).toMatch(
      /above the measured critical batch size \(200\)/,
    );

    // f16 only where the backend runs it
    expect(tuneCandidates(context({ allow: ['mixed-precision'] })).tried.map((c) => c.flag)).not.toContain(
      '--mixed-precision',
    );
    const gpu = tuneCandidates(
      context({ allow: ['mixed-precision'], started: { backend: 'webgpu', threads: 1, cores: 1 } }),
    );
    expect(gpu.tried.map(key)).toEqual(expect.arrayContaining(['--mixed-precision true', '--device-prefetch 2']));
  });

  it('given several streamable files, then streaming and map-style are each tried against the other', () => {
    const streamable = { ...CONFIG, source: { ...CONFIG.source, streamable: true } };
    const streamed = tuneCandidates(context({ config: streamable, files: 4 }));
    expect(streamed.tried.map(key)).toContain('--streaming false');
    expect(streamed.tried.map(key)).not.toContain('--input-cache-mode memory');
    const mapped = { ...streamable, loader: { ...streamable.loader, streaming: false } };
    expect(tuneCandidates(context({ config: mapped, files: 4 })).tried.map(key)).toEqual(
      expect.arrayContaining(['--streaming true', '--input-cache-mode memory']),
    );
  });

  it('applies each change to the setting it names, and refuses a flag it cannot apply', () => {
    const c = applyChanges(CONFIG, [
      { flag: '--threads', value: '2' },
      { flag: '--dataloader-workers', value: '1' },
      { flag: '--streaming', value: 'false' },
      { flag: '--gpu', value: 'tensorflow' },
      { flag: '--warmup-batches', value: '31' },
      { flag: '--mixed-precision', value: 'true' },
    ]);
    expect(c.compute).toEqual({ backend: 'tensorflow', deviceIndex: 0, threads: 2, mixedPrecision: true });
    expect(c.loader).toMatchObject({ workers: 1, streaming: false, batchSize: 128 });
    expect(c.training.mixedPrecision).toBe(true);
    expect(c.warmupBatches).toBe(31);
    expect(CONFIG.compute.threads).toBe(1);
    expect(() => applyChanges(CONFIG, [{ flag: '--seed', value: '2' }])).toThrow('the tune cannot apply --seed');
  });
});

// Legs of steady batches whose time per sample is `ms` with ±10 % noise, each leg shifted by the machine's wander.
const legs = (ms: number, n: number, seed: number, wander = 0.1, shifts: readonly number[] = []): TuneLeg[] => {
  const rand = mulberry32(seed);
  return Array.from({ length: n }, (_, i) => ({
    msPerSample: Array.from({ length: 40 }, () => ms * (1 + (shifts[i] ?? 0)) * (0.9 + 0.2 * rand())),
    wander,
  }));
};

describe('compareLegs', () => {
  it('given a candidate 1.5× as fast over interleaved legs, then its gain, interval and verdict say so', () => {
    const c = compareLegs(legs(1.5, 3, 1), legs(1.0, 3, 2));
    expect(c.gain).toBeGreaterThan(0.4);
    expect(c.gain).toBeLessThan(0.6);
    expect(c.interval[0]).toBeLessThan(c.gain);
    expect(c.interval[1]).toBeGreaterThan(c.gain);
    expect(c.significant).toBe(true);
    expect(c.verdict).toBe('faster');
    expect(c.wander_band).toBeCloseTo(0.1 * Math.sqrt(2 / 3), 10);
  });

  it('given a gain the batches resolve but the machine wanders more than it, then no measurable gain, whatever the test says', () => {
    // each side's legs caught different stretches of a machine that wanders ±20 %
    const c = compareLegs(legs(1.1, 2, 3, 0.2, [0.08, 0.06]), legs(1.0, 2, 4, 0.2));
    expect(c.comparison.p_value).toBeLessThan(0.001);
    expect(c.gain).toBeGreaterThan(0.1);
    expect(c.significant).toBe(false);
    expect(c.verdict).toBe('no measurable gain');
    expect(c.interval[0]).toBeLessThan(0);
  });

  it('given the same setting on both sides, then no gain is claimed', () => {
    const c = compareLegs(legs(1.0, 3, 5), legs(1.0, 3, 6));
    expect(c.significant).toBe(false);
    expect(c.interval[0]).toBeLessThan(0);
    expect(c.interval[1]).toBeGreaterThan(0);
  });

  it('never calls a change faster or slower while its printed interval reaches across 0', () => {
    let held = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const gain = 0.8 + (seed % 7) * 0.05;
      const rand = mulberry32(seed);
      const noisy = (ms: number, n: number): TuneLeg[] =>
        Array.from({ length: n }, () => ({
          msPerSample: Array.from({ length: 6 }, () => ms * (0.6 + 0.8 * rand())),
          wander: 0.1,
        }));
      const c = compareLegs(noisy(1, 2), noisy(gain, 2));
      if (c.significant) expect(c.interval[0]).toBeGreaterThan(0);
      if (c.verdict === 'slower') expect(c.interval[1]).toBeLessThan(0);
      if (c.comparison.verdict !== 'no-significant-difference' && c.verdict === 'no measurable gain') held += 1;
    }
    // the test and the band alone would have called these
    expect(held).toBeGreaterThan(0);
  });
});

describe('tuneWinners', () => {
  const result = (flag: string, value: string, gain: number, significant: boolean): TuneChangeResult => ({
    flag,
    value,
    kind: 'speed',
    why: '',
    alters: null,
    status: 'measured',
    gain,
    interval: [gain - 0.1, gain + 0.1],
    significant,
    verdict: significant ? 'faster' : 'no measurable gain',
    wander_band: 0.1,
    legs: { baseline: 2, candidate: 2 },
  });

  it('keeps per flag the fastest measurably faster value, and nothing unproven', () => {
    expect(
      tuneWinners([
        result('--dataloader-workers', '1', 0.2, true),
        result('--dataloader-workers', '2', 0.3, true),
        result('--threads', '2', 0.9, true),
        result('--pin-memory', 'true', 0.05, false),
      ]),
    ).toEqual([
      { flag: '--dataloader-workers', value: '2' },
      { flag: '--threads', value: '2' },
    ]);
  });
});
