import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAOU_BIN, runMaou } from './run-maou';

// Signals at seeded random points of real runs: before the first batch, during warm-up, mid-run. The seed is printed
// so a failing schedule can be replayed with MAOU_INTERRUPT_SEED.
const seed = Number(process.env.MAOU_INTERRUPT_SEED ?? Date.now() % 100_000);
let state = seed;
const random = (): number => {
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state / 2 ** 32;
};

const dir = mkdtempSync(join(tmpdir(), 'maou-interrupt-'));
const env = { ...process.env, MAOU_BENCH_CACHE: join(dir, 'cache') };
const common = [
  'utility',
  'benchmark-training',
  '--sample-positions',
  '4096',
  '--batch-size',
  '8',
  '--dataloader-workers',
  '1',
  '--log-level',
  'silent',
];
const args = [...common, '--max-batches', '1000', '--warmup-batches', '3'];

interface Outcome {
  readonly code: number | null;
  readonly stderr: string;
  readonly pgid: number;
}

/** Runs maou in its own process group and sends `signal` after `delayMs`. */
const interruptAfter = (signal: 'SIGINT' | 'SIGTERM', delayMs: number, out: string, command = args): Promise<Outcome> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [MAOU_BIN, ...command, '--output-json', out], {
      env,
      detached: true,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill(signal), delayMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, pgid: child.pid! });
    });
  });

const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

const temporaries = (root: string): string[] =>
  readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tmp$|\.part$/.test(f));

describe(`benchmark-training interrupted at random points (seed ${seed})`, () => {
  beforeAll(() => {
    // The sample data is made once, so the signals land in training, not in generation.
    expect(runMaou([...common, '--max-batches', '2', '--warmup-batches', '0'], env).code).toBe(0);
  }, 300_000);

  it.each([0, 1, 2, 3, 4, 5])(
    'run %p: exit 130/143, "interrupted after N of M batches", an atomic partial JSON, nothing left behind',
    async (run) => {
      const signal = run % 2 === 0 ? 'SIGINT' : 'SIGTERM';
      // From just after start-up (handlers installed, nothing trained yet) to well into the run.
      const delayMs = 1500 + Math.floor(random() * 12_000);
      const out = join(dir, `run-${run}.json`);
      const r = await interruptAfter(signal, delayMs, out);
      const context = `seed ${seed}, run ${run}, ${signal} after ${delayMs} ms\n${r.stderr}`;
      expect({ context, code: r.code }).toEqual({ context, code: signal === 'SIGINT' ? 130 : 143 });
      expect(r.stderr).toMatch(
        new RegExp(`interrupted (after \\d+ of \\d+ batches|before the first batch) \\(${signal}\\)`),
      );
      expect(groupAlive(r.pgid)).toBe(false);
      expect(temporaries(dir)).toEqual([]);
      expect(existsSync(out)).toBe(true);
      const report = JSON.parse(readFileSync(out, 'utf8'));
      expect(report).toMatchObject({
        command: 'benchmark-training',
        interrupted: true,
        interruption: { reason: signal },
      });
      if (report.batches) expect(report.batches).toHaveLength(report.interruption.completed_batches);
    },
    120_000,
  );

  it('benchmark-dataloader: a signal mid-grid exits 143 at once, saying so in stderr and --output-json, nothing left behind', async () => {
    const out = join(dir, 'dataloader.json');
    const grid = [
      'utility',
      'benchmark-dataloader',
      '--sample-positions',
      '4096',
      '--workers',
      '0',
      '1',
      '--num-batches',
      '1000000',
      '--repeats',
      '5',
      '--log-level',
      'silent',
    ];
    const r = await interruptAfter('SIGTERM', 4000, out, grid);
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 143,
      stderr: expect.stringMatching(/interrupted \(SIGTERM\) before the grid was complete/),
    });
    expect(groupAlive(r.pgid)).toBe(false);
    expect(temporaries(dir)).toEqual([]);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toEqual({
      $schema: 'urn:maou-bench:schema:benchmark-dataloader-report:1',
      command: 'benchmark-dataloader',
      interrupted: true,
      interruption: { reason: 'SIGTERM' },
    });
  }, 120_000);
});
