import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMaou } from './run-maou';

// Tiny runs on one backend thread: the point is what lands on stderr, not the training.
const args = [
  'utility',
  'benchmark-training',
  '--model-architecture',
  'lite',
  '--threads',
  '1',
  '--sample-positions',
  '256',
  '--batch-size',
  '16',
  '--max-batches',
  '2',
  '--warmup-batches',
  '1',
  '--json',
];

describe('progress on stderr (built binary, stderr is a pipe)', () => {
  it('given a fresh sample cache, then sample generation prints plain progress lines to stderr and stdout stays JSON; a reuse prints none', () => {
    const env = { MAOU_BENCH_CACHE: join(mkdtempSync(join(tmpdir(), 'maou-e2e-progress-')), 'cache') };
    const first = runMaou([...args, '--log-level', 'warn'], env);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^sample data \(stage 3\): games: started \(256 positions\)$/m);
    expect(first.stderr).toMatch(/^sample data \(stage 3\): games: done 256\/256 positions in .+\(.+positions\/s\)$/m);
    // no terminal: no carriage returns or escape codes
    expect(first.stderr).not.toMatch(/[\r\x1b]/);
    expect(JSON.parse(first.stdout).command).toBe('benchmark-training');
    const reused = runMaou([...args, '--log-level', 'warn'], env);
    expect(reused.code).toBe(0);
    // no generation progress (the warning that the sample data is used still appears)
    expect(reused.stderr).not.toMatch(/^sample data \(stage/m);
    expect(reused.stderr).toMatch(/using the embedded sample data/);
  });

  it('given --log-level silent, then a fresh sample cache is generated without any progress line', () => {
    const env = { MAOU_BENCH_CACHE: join(mkdtempSync(join(tmpdir(), 'maou-e2e-progress-')), 'cache') };
    const r = runMaou([...args, '--log-level', 'silent'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/sample data|benchmark batches/);
  });
});
