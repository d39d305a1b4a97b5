import type { BenchmarkTrainingReport } from '../report/benchmark-report';
import type { SweepPoint, SweepPointOk } from '../batch-study/batch-study-report';
import type { GradientNoiseMeasurement } from '../batch-study/gradient-noise';
import { recommendBatchStudy, sweepBatchChoice, type BatchStudyContext } from './batch-size-rules';

const point = (batch: number, sps: number, half: number, loss = 5): SweepPoint => ({
  status: 'ok',
  batch_size: batch,
  learning_rate: 0.01,
  samples_per_second: sps,
  samples_per_second_ci95: [sps - half, sps + half],
  samples_per_second_ci95_note: null,
  epoch_ms: (1000 * 1000) / sps,
  epoch_ms_ci95: [(1000 * 1000) / (sps + half), (1000 * 1000) / (sps - half)],
  epoch_half_width_fraction: half / sps,
  batch_ms_mean: (batch / sps) * 1000,
  batch_ms_ci95: [0, 0],
  measured_batches: 20,
  initial_loss: 7,
  final_loss: loss,
  report: {} as BenchmarkTrainingReport,
});
const failed = (batch: number): SweepPoint => ({
  status: 'failed',
  batch_size: batch,
  learning_rate: 0.01,
  error_kind: 'training-failed',
  reason: 'the wasm heap has no room',
});
const noise = (b: number | null, lo = 0): GradientNoiseMeasurement => ({
  b_simple: b,
  b_simple_ci95: [lo, null],
  note: '',
  steps: 10,
  b_small: 16,
  b_big: 64,
  trace_mean: 1,
  gradient_squared_mean: 1,
  method: '',
});
const ctx = (over: Partial<BatchStudyContext>): BatchStudyContext => ({
  sweep: null,
  criticalBatch: null,
  gradientNoise: null,
  maxBatch: null,
  settings: { batchSize: 256, learningRate: 0.01 },
  ...over,
});

describe('batch-study recommendation rules', () => {
  it('picks the smallest batch not measurably slower than the fastest, and names --batch-size', () => {
    const points = [point(64, 600, 20), point(128, 900, 40), point(256, 950, 40), point(512, 960, 30)];
    expect(sweepBatchChoice(points.filter((p) => p.status === 'ok') as never)!.chosen.batch_size).toBe(128);
    const [rec] = recommendBatchStudy(ctx({ sweep: { type: 'batch_size', points } }));
    expect(rec).toMatchObject({ rule: 'sweep-batch-size', flag: '--batch-size', value: '128' });
    expect(rec!.evidence).toMatch(/best at 512/);
    const open = recommendBatchStudy(
      ctx({
        sweep: {
          type: 'batch_size',
          points: [
            point(8, 40, 10),
            {
              ...(point(32, 100, 70) as SweepPointOk),
              samples_per_second_ci95: [28.6, null],
              samples_per_second_ci95_note: 'no upper bound: too few batches',
            },
          ],
        },
      }),
    )[0]!;
    expect(open.evidence).toBe(
      'samples/s 95 % interval at 8: 30.0–50.0, best at 32: ≥ 28.6 (no upper bound: too few batches)',
    );
  });

  it('compares the batch with the measured noise scale both ways; an unresolved one only argues for larger', () => {
    const sweep = { type: 'batch_size' as const, points: [point(64, 900, 10), point(128, 910, 10)] };
    const big = recommendBatchStudy(ctx({ sweep, gradientNoise: noise(20) })).find(
      (r) => r.rule === 'gradient-noise-scale',
    );
    expect(big).toMatchObject({ severity: 'warning', flag: '--batch-size', value: '16' });
    const small = recommendBatchStudy(ctx({ sweep, gradientNoise: noise(1000) })).find(
      (r) => r.rule === 'gradient-noise-scale',
    );
    expect(small).toMatchObject({ flag: '--gradient-accumulation-steps', value: '16' });
    expect(recommendBatchStudy(ctx({ sweep, gradientNoise: noise(100) })).map((r) => r.rule)).not.toContain(
      'gradient-noise-scale',
    );
    expect(
      recommendBatchStudy(ctx({ sweep, gradientNoise: noise(null, 600) })).find(
        (r) => r.rule === 'gradient-noise-scale',
      )!.message,
    ).toMatch(/at least 600/);
    expect(recommendBatchStudy(ctx({ sweep, gradientNoise: noise(null, 0) })).map((r) => r.rule)).not.toContain(
      'gradient-noise-scale',
    );
  });

  it('writes an open B_simple interval as a lower bound and why, never ∞, and a closed one as its two ends', () => {
    const sweep = { type: 'batch_size' as const, points: [point(64, 900, 10), point(128, 910, 10)] };
    const evidence = (g: GradientNoiseMeasurement): string =>
      recommendBatchStudy(ctx({ sweep, gradientNoise: g })).find((r) => r.rule === 'gradient-noise-scale')!.evidence;
    expect(evidence(noise(null, 600))).toBe(
      "B_simple unresolved (95 % interval ≥ 600.0 (open above: over 10 updates the true gradient's squared norm is not clearly above 0)) over 10 steps, batch 64",
    );
    expect(evidence({ ...noise(20), b_simple_ci95: [12.25, 31.5] })).toBe(
      'B_simple 20.0 (95 % interval 12.3–31.5) over 10 steps, batch 64',
    );
  });

  it('given one sweep point that ran, then the noise rule speaks of the batch measured, not of --batch-size', () => {
    const sweep = { type: 'batch_size' as const, points: [point(8, 30, 5), failed(100000)] };
    const rec = recommendBatchStudy(ctx({ sweep, gradientNoise: { ...noise(428), b_small: 2, b_big: 8 } })).find(
      (r) => r.rule === 'gradient-noise-scale',
    );
    expect(rec).toMatchObject({ flag: '--gradient-accumulation-steps', value: '64' });
    expect(rec!.message).toMatch(/well above batch 8:/);
  });

  it('names the largest fitting batch, the largest size below a failure, and the learning rate with the lowest loss', () => {
    const maxBatch = {
      max_batch_size: 2816,
      first_failing: 2860,
      limited_by: 'memory' as const,
      memory_bytes_at_max: 4e9,
      memory_limit_bytes: 2 ** 32,
      failure_reason: 'heap',
      definition: '',
      tries: [],
    };
    expect(recommendBatchStudy(ctx({ maxBatch, settings: { batchSize: 4096, learningRate: 0.01 } }))[0]).toMatchObject({
      rule: 'max-batch',
      severity: 'warning',
      value: '2816',
    });
    const capped = recommendBatchStudy(
      ctx({
        maxBatch: { ...maxBatch, max_batch_size: 512, first_failing: null, limited_by: 'cap', failure_reason: null },
      }),
    )[0]!;
    expect(capped.message).toBe(
      'Batch 512, the search cap, fits one pass on this backend; larger ones were not tried (raise --find-max-batch-cap).',
    );
    const failures = recommendBatchStudy(
      ctx({ sweep: { type: 'batch_size', points: [point(64, 900, 10), failed(4096), failed(8192)] } }),
    );
    expect(failures.find((r) => r.rule === 'sweep-failures')).toMatchObject({
      value: '64',
      evidence: 'batch 4096: the wasm heap has no room',
    });
    const lr = (rate: number, loss: number): SweepPoint => ({
      ...(point(64, 900, 10, loss) as Extract<SweepPoint, { status: 'ok' }>),
      learning_rate: rate,
    });
    expect(
      recommendBatchStudy(
        ctx({ sweep: { type: 'learning_rate', points: [lr(0.001, 6), lr(0.01, 5.2), lr(0.1, 5.9)] } }),
      )[0],
    ).toMatchObject({ rule: 'sweep-learning-rate', flag: '--learning-ratio', value: '0.01' });
  });
});
