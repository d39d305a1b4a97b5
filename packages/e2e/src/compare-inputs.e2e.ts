import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMaou } from './run-maou';

// benchmark-compare's inputs are checked before they are parsed: a report too large for the JS heap is refused with
// the sizes and the flag that raises the limit, never V8's fatal out-of-memory abort.
const dir = mkdtempSync(join(tmpdir(), 'maou-compare-in-'));

describe('benchmark-compare inputs (built binary)', () => {
  it('a 50 MB report under --max-old-space-size=32: exit 2 naming the file, its size and the heap, no V8 abort', () => {
    const small = join(dir, 'small.json');
    const trained = runMaou(
      [
        'utility',
        'benchmark-training',
        ...['--model-architecture', 'lite', '--sample-positions', '64', '--batch-size', '8'],
        ...['--max-batches', '2', '--warmup-batches', '1', '--output-json', small, '--log-level', 'silent'],
      ],
      { MAOU_BENCH_CACHE: join(dir, 'cache') },
    );
    expect(trained.code).toBe(0);
    const report = JSON.parse(readFileSync(small, 'utf8')) as { batches: unknown[] };
    const big = join(dir, 'big.json');
    const copies = Math.ceil(50e6 / JSON.stringify(report.batches).length);
    writeFileSync(
      big,
      JSON.stringify({ ...report, batches: Array.from({ length: copies }, () => report.batches).flat() }),
    );
    const r = runMaou(['utility', 'benchmark-compare', big, small], { NODE_OPTIONS: '--max-old-space-size=32' });
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr).toMatch(
      new RegExp(
        `^maou benchmark-compare: ${big}: is 4\\d\\.\\d MB; reading it needs about \\d+ MB of JS heap and this process has \\d+ MB free of its \\d+ MB limit: raise it with NODE_OPTIONS=--max-old-space-size=\\d+ \\(MB\\)\\n`,
      ),
    );
  });
});
