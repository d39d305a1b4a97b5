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
// No early stop by the stopping rule (--target-precision 0): the run is still training when its signal comes.
const args = [...common, '--max-batches', '1000', '--warmup-batches', '3', '--target-precision', '0'];
// One thread (no data-parallel replicas) where the replicas are not what a case is about: a run trains on every
// thread it has until its signal, so each thread is CI time; the SIGHUP case keeps the replicas.
const oneThread = ['--threads', '1'];

interface Outcome {
  readonly code: number | null;
  readonly stderr: string;
  readonly pgid: number;
}

/** Runs maou in its own process group and sends `signal` after `delayMs`. */
const interruptAfter = (
  signal: 'SIGHUP' | 'SIGINT' | 'SIGTERM',
  delayMs: number,
  out: string,
  command = args,
): Promise<Outcome> =>
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
    expect(runMaou([...common, ...oneThread, '--max-batches', '2', '--warmup-batches', '0'], env).code).toBe(0);
  }, 300_000);

  it.each([0, 1, 2, 3, 4, 5])(
    'run %p: exit 130/143, "interrupted after N of M batches", an atomic partial JSON, nothing left behind',
    async (run) => {
      const signal = run % 2 === 0 ? 'SIGINT' : 'SIGTERM';
      // From just after start-up (handlers installed, nothing trained yet) to well into the run (warm-up is 3 of its
      // 1,000 batches); the run trains until the signal, so a later one only costs CI time. On one thread the steps run
      // on the main thread, whose signal handlers must still get their turn between batches.
      const delayMs = 1500 + Math.floor(random() * 6_000);
      const out = join(dir, `run-${run}.json`);
      const r = await interruptAfter(signal, delayMs, out, [...args, ...oneThread]);
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

  it('SIGHUP (the terminal closed) mid-run, data-parallel replicas training: exit 129 and an atomic partial report, as for SIGTERM', async () => {
    const out = join(dir, 'hup.json');
    const r = await interruptAfter('SIGHUP', 6000, out);
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 129,
      stderr: expect.stringMatching(/interrupted (after \d+ of \d+ batches|before the first batch) \(SIGHUP\)/),
    });
    expect(groupAlive(r.pgid)).toBe(false);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
      interrupted: true,
      interruption: { reason: 'SIGHUP' },
    });
  }, 120_000);

  it('signals after the last batch: the full report is written, exit 0 with a note; a second ends it at once, never leaving less', async () => {
    // The validation pass runs after the last training batch: the signals land there, on the "last batch done" line.
    // A 10 % test split makes that pass ~50 batches, a second or more on one thread: time for both signals to land (at 2 %,
    // 10 batches, a loaded machine sometimes finished the run before the first signal came).
    const out = join(dir, 'after-last.json');
    const afterLast = [
      MAOU_BIN,
      ...common.slice(0, -2),
      ...oneThread,
      '--max-batches',
      '3',
      '--warmup-batches',
      '1',
      '--run-validation',
      '--test-ratio',
      '0.1',
      '--log-level',
      'info',
      '--output-json',
      out,
    ];
    // Sends SIGTERM on "last batch done" and, with `twice`, SIGINT once the note comes. An attempt whose run ended
    // before a signal landed (a loaded machine reads the line late) proves nothing and is run again, up to 3: for the
    // first, no note; for the second, a clean exit 0, which a SIGINT that landed while the command held its handlers
    // never gives (it exits 130).
    const signalAfterLast = async (twice: boolean) => {
      for (let attempt = 1; ; attempt++) {
        const child = spawn(process.execPath, afterLast, { env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d: Buffer) => {
          const before = stderr;
          stderr += d.toString();
          if (!before.includes('"msg":"last batch done"') && stderr.includes('"msg":"last batch done"'))
            child.kill('SIGTERM');
          if (twice && !before.includes('came after the last batch') && stderr.includes('came after the last batch'))
            child.kill('SIGINT');
        });
        const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
          child.on('close', (code, signal) => done({ code, signal })),
        );
        const landed = stderr.includes('came after the last batch') && !(twice && ended.code === 0);
        if (landed || attempt === 3) return { ...ended, stderr };
      }
    };
    const first = await signalAfterLast(false);
    expect({
      code: first.code,
      note: first.stderr.includes('SIGTERM came after the last batch; the report is complete'),
    }).toEqual({
      code: 0,
      note: true,
    });
    const report = JSON.parse(readFileSync(out, 'utf8'));
    expect(report.interrupted).toBeUndefined();
    expect(report.batches).toHaveLength(3);
    expect(report.validation).not.toBeNull();

    // Again, with a second signal once the first is noted: it stops at once, and a complete report is left.
    const { stderr: second, ...ended } = await signalAfterLast(true);
    // The second signal ends the run at once (130). It may come while the report is still being written (the first
    // run's file stays, or this run's complete one when its rename was already under way), or once it is written and
    // the process is past its handlers, ending (the signal's default action; a shell reads 130 as well; 1 of 25
    // loaded runs). Never less than a complete report, and nothing left beside it.
    expect(second).toContain('came after the last batch');
    expect(ended.code === 130 ? { ended, said: second.includes('SIGINT again; stopping at once') } : ended).toEqual(
      ended.code === 130 ? { ended: { code: 130, signal: null }, said: true } : { code: null, signal: 'SIGINT' },
    );
    const left = JSON.parse(readFileSync(out, 'utf8'));
    expect({
      interrupted: left.interrupted,
      batches: left.batches.length,
      validated: left.validation !== null,
    }).toEqual({
      interrupted: undefined,
      batches: 3,
      validated: true,
    });
    expect(temporaries(dir)).toEqual([]);
  }, 180_000);

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
