import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE_CASES, writeHostileFile } from '@maou/bench-testkit/fuzz';
import { MAOU_BIN } from './run-maou';

// Under an address-space limit (RLIMIT_AS, as batch systems and containers set it) a run either trains or exits 2
// naming the limit and the need, before any batch; never V8's abort text, never a quiet switch to another backend.
const prlimit = ['/usr/bin/prlimit', '/bin/prlimit'].find((p) => existsSync(p));
const dir = mkdtempSync(join(tmpdir(), 'maou-limits-'));
const GIB = 1024 ** 3;
const run = (gib: number, args: readonly string[], nodeOptions = '') =>
  spawnSync(prlimit!, [`--as=${gib * GIB}`, process.execPath, MAOU_BIN, 'utility', 'benchmark-training', ...args], {
    encoding: 'utf8',
    env: { ...process.env, MAOU_BENCH_CACHE: join(dir, 'cache'), NODE_OPTIONS: nodeOptions },
    timeout: 240_000,
  });
const small = [
  '--model-architecture',
  'lite',
  '--sample-positions',
  '256',
  '--batch-size',
  '8',
  '--log-level',
  'silent',
];

(prlimit ? describe : describe.skip)(
  'benchmark-training under prlimit --as (skipped without util-linux prlimit)',
  () => {
    it.each([4, 8])(
      '%i GiB with guard regions (node defaults): exit 2 naming RLIMIT_AS and the need, nothing run',
      (gib) => {
        const out = join(dir, `refused-${gib}.json`);
        const r = run(gib, [...small, '--output-json', out]);
        expect({ code: r.status, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
        expect(r.stderr).toMatch(
          new RegExp(
            `^maou benchmark-training: invalid options\\nRLIMIT_AS: the address-space limit .* is ${gib}\\.0 GiB; the wasm backend with 1 thread\\(s\\) and 0 loader worker\\(s\\) needs about 21\\.0 GiB: .*--disable-wasm-trap-handler`,
          ),
        );
        expect(existsSync(out)).toBe(false);
        expect(existsSync(join(dir, 'cache'))).toBe(false);
      },
    );

    it('4 GiB with --disable-wasm-trap-handler: trains on wasm, threads planned down to fit, saying why', () => {
      const out = join(dir, 'trained.json');
      const r = run(
        4,
        [...small, '--max-batches', '3', '--warmup-batches', '1', '--output-json', out],
        '--disable-wasm-trap-handler',
      );
      expect({ code: r.status, stderr: r.stderr }).toEqual({ code: 0, stderr: '' });
      const report = JSON.parse(readFileSync(out, 'utf8'));
      expect(report.batches).toHaveLength(3);
      expect(report.environment).toMatchObject({
        backend: 'wasm',
        threads: 1,
        backend_notes: expect.arrayContaining(['wasm heap planned at 0.5 GiB per instance, inside the limits']),
      });
      expect(report.resource_limits.decisions.find((d: { setting: string }) => d.setting === 'threads')).toMatchObject({
        value: 1,
        origin: 'derived',
        reason: expect.stringContaining('fewer to fit the address-space limit of 4.0 GiB'),
      });
    });
    it("a valid file of 10 M rows of empty lists, under 4 GiB: refused at row 0 as the data's failure, not V8's", () => {
      const hostile = join(dir, 'empty-lists.feather');
      writeHostileFile(
        HOSTILE_CASES.find((c) => c.kind === 'empty-lists')!,
        hostile,
      );
      const r = run(
        4,
        ['--stage3-data-path', hostile, '--max-batches', '3', '--log-level', 'silent'],
        '--disable-wasm-trap-handler',
      );
      expect({ code: r.status, stdout: r.stdout, stderr: r.stderr }).toEqual({
        code: 1,
        stdout: '',
        stderr: `maou benchmark-training: datasource: file ${hostile}, record batch 0, column boardIdPositions, row 0: list of length 0, expected 9 (a Stage 3 file, whose boardIdPositions must be a list of 9 × list of 9 × uint8)\n`,
      });
    });
  },
);

// The heap beside the address space: under NODE_OPTIONS=--max-old-space-size=32, generating 65,536 sample positions
// ended in V8's fatal out-of-memory abort (a native stack, signal 6) after a minute; it is refused before any game.
describe('a JS heap too small for the sample generation (--max-old-space-size=32)', () => {
  const small32 = {
    ...process.env,
    MAOU_BENCH_CACHE: join(dir, 'heap-cache'),
    NODE_OPTIONS: '--max-old-space-size=32',
  };
  it.each([
    [
      'generate-sample-data',
      ['--stage', '3', '--positions', '65536', '--output-dir', join(dir, 'heap-out')],
      'generating 65536 positions',
    ],
    ['benchmark-training', ['--sample-positions', '65536'], 'generating the 65536-position sample data'],
  ])('%s: exit 2 naming --max-old-space-size, the limit and the need; nothing generated', (command, args, what) => {
    const r = spawnSync(process.execPath, [MAOU_BIN, 'utility', command, ...args, '--log-level', 'silent'], {
      encoding: 'utf8',
      env: small32,
      timeout: 240_000,
    });
    expect({ code: r.status, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr.split('\n')[1]).toMatch(
      new RegExp(
        `^--max-old-space-size: the JS heap limit is \\d+ MiB \\(V8's heap_size_limit, set by --max-old-space-size\\) with \\d+ MiB in use, and ${what} needs about \\d+ MiB more: give NODE_OPTIONS=--max-old-space-size=\\d+ or more$`,
      ),
    );
    expect(existsSync(join(dir, 'heap-out'))).toBe(false);
    expect(existsSync(join(dir, 'heap-cache'))).toBe(false);
  });
});
