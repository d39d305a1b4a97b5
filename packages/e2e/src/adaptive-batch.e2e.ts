import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMaou } from './run-maou';

const dir = mkdtempSync(join(tmpdir(), 'maou-e2e-adaptive-'));
const env = { MAOU_BENCH_CACHE: join(dir, 'cache') };
// Two data-parallel replicas: every update is cut into pieces across both, as on the default backend.
const small = ['--sample-positions', '512', '--model-architecture', 'lite', '--threads', '2', '--log-level', 'silent'];

interface Batch {
  loss: number;
  accumulationSteps?: number;
  optimizerStep?: boolean;
}

describe('benchmark-training --adaptive-batch (built binary)', () => {
  it('given --adaptive-batch, then the accumulation steps change during the run and the report shows them with the noise scale', () => {
    const out = join(dir, 'adaptive.json');
    // Early in training the noise dominates, so maou's estimate sits near the update's rows (b·K): from K = 3 the
    // target is round_to_power_of_two(3) = 4, which the controller takes at its first adjustment.
    const r = runMaou(
      [
        'utility',
        'benchmark-training',
        ...small,
        '--batch-size',
        '4',
        '--max-batches',
        '30',
        '--warmup-batches',
        '2',
        '--adaptive-batch',
        '--adaptive-batch-min-steps',
        '3',
        '--adaptive-batch-interval',
        '3',
        '--adaptive-batch-measurement-interval',
        '1',
        '--adaptive-batch-smoothing',
        '0.5',
        '--output-json',
        out,
        '--report-html',
        join(dir, 'adaptive.html'),
      ],
      env,
    );
    expect(r.stderr).not.toMatch(/maou benchmark-training:/);
    expect(readFileSync(join(dir, 'adaptive.html'), 'utf8')).toMatch(
      /steps 3 from batch 0, 4 from batch 9; noise scale \(EMA\)/,
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Adaptive batch \(steps 3–8, adjust every 3 optimiser steps, measure every 1/);
    expect(r.stdout).toMatch(/steps over time: 3 from batch 0, 4 from batch 9/);
    const report = JSON.parse(readFileSync(out, 'utf8'));
    const a = report.adaptive_batch;
    expect(a.settings).toEqual({ min_steps: 3, max_steps: 8, interval: 3, smoothing: 0.5, measurement_interval: 1 });
    expect(a.steps_chosen).toEqual([
      { from_batch: 0, accumulation_steps: 3 },
      { from_batch: 9, accumulation_steps: 4 },
    ]);
    // Every cycle was measured; each kept estimate is a positive noise scale, and the smoothed one is their EMA.
    expect(a.cycles.length).toBe(a.optimizer_steps);
    for (const c of a.cycles) expect(c.measured && c.noise_scale > 0).toBe(true);
    // The batches carry their cycle: 3 batches a step, then 4.
    const batches: Batch[] = report.batches;
    expect(batches.map((b) => b.accumulationSteps)).toEqual([...Array(9).fill(3), ...Array(21).fill(4)]);
    const stepsAt = batches.flatMap((b, i) => (b.optimizerStep ? [i] : []));
    expect(stepsAt).toEqual([2, 5, 8, 12, 16, 20, 24, 28]);
    // The epoch prediction counts the rest of the epoch's optimiser steps at 4 batches each.
    expect(a.epoch.predicted_remaining_steps).toBe(Math.floor((1 + a.epoch.remaining_batches) / 4));
    expect(report.epoch_estimate.method).toMatch(/adaptive batch: \d+ optimiser steps predicted/);
    // maou's loss is the loss it back-propagates: ÷ the cycle's steps.
    const mean = batches.reduce((n, b) => n + b.loss / b.accumulationSteps!, 0) / batches.length;
    expect(report.maou.training_metrics.average_loss).toBeCloseTo(mean, 10);
    // Ours is the batch's own loss: the first batch, before any update, as a run without accumulation has it.
    const plain = join(dir, 'adaptive-plain.json');
    const one = runMaou(
      [
        'utility',
        'benchmark-training',
        ...small,
        '--batch-size',
        '4',
        '--max-batches',
        '2',
        '--warmup-batches',
        '1',
      ].concat(['--output-json', plain]),
      env,
    );
    expect(one.code).toBe(0);
    expect(batches[0]!.loss).toBeCloseTo(JSON.parse(readFileSync(plain, 'utf8')).batches[0].loss, 4);
  });

  it('given --gradient-accumulation-steps 2, then an optimiser step every second batch, the batch’s own loss throughout and maou’s loss halved', () => {
    const run = (steps: number) => {
      const out = join(dir, `accumulate-${steps}.json`);
      const r = runMaou(
        [
          'utility',
          'benchmark-training',
          ...small,
          '--batch-size',
          '8',
          '--max-batches',
          '6',
          '--warmup-batches',
          '1',
          '--gradient-accumulation-steps',
          String(steps),
          '--output-json',
          out,
        ],
        env,
      );
      expect(r.code).toBe(0);
      return { stdout: r.stdout, report: JSON.parse(readFileSync(out, 'utf8')) };
    };
    const { stdout, report } = run(2);
    const batches: Batch[] = report.batches;
    // The first batch meets the same weights at any accumulation: its loss is the same figure, not twice it.
    expect(batches[0]!.loss).toBeCloseTo(run(1).report.batches[0].loss, 4);
    // One figure in the summary line, training_metrics and batches.
    const m = report.training_metrics;
    expect([m.initial_loss, m.final_loss]).toEqual([batches[0]!.loss, batches[5]!.loss]);
    expect(stdout).toContain(`${m.initial_loss.toFixed(4)} → ${m.final_loss.toFixed(4)}`);
    expect(batches.map((b) => b.optimizerStep)).toEqual([false, true, false, true, false, true]);
    // maou counts every loader batch (a micro-batch) and its samples; the loss it records is ÷ 2.
    expect(report.maou.training_metrics.total_batches).toBe(6);
    const mean = batches.reduce((n, b) => n + b.loss / 2, 0) / batches.length;
    expect(report.maou.training_metrics.average_loss).toBeCloseTo(mean, 10);
    expect(report.maou.training_metrics.final_loss).toBeCloseTo(batches[5]!.loss / 2, 10);
    expect(report.adaptive_batch).toBeUndefined();
  });

  // A knob without --adaptive-batch is accepted with a note, as maou ignores it (model-knobs.e2e: flags that do not apply).
  it('given min steps above max steps or a knob out of range, then exit 2 naming the flags, before any I/O', () => {
    const untouched = { MAOU_BENCH_CACHE: join(dir, 'untouched') };
    const r = runMaou(
      [
        'utility',
        'benchmark-training',
        ...small,
        '--adaptive-batch',
        '--adaptive-batch-min-steps',
        '16',
        '--adaptive-batch-smoothing',
        '0',
      ],
      untouched,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--adaptive-batch-smoothing: 0 is not in the range 0\.01<=x<=1\.0\./);
    const minMax = runMaou(
      ['utility', 'benchmark-training', ...small, '--adaptive-batch', '--adaptive-batch-min-steps', '16'],
      untouched,
    );
    expect(minMax.code).toBe(2);
    expect(minMax.stderr).toMatch(/--adaptive-batch-min-steps \(16\) must be <= --adaptive-batch-max-steps \(8\)/);
    expect(existsSync(untouched.MAOU_BENCH_CACHE)).toBe(false);
  });
});
