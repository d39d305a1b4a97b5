import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMaou } from './run-maou';

// Every command checks where it will write before it reads anything: an unwritable --report-html or --output-json
// exits 2 naming the flag, and no data is read, generated or cached. procfs refuses new files even for root.
const dir = mkdtempSync(join(tmpdir(), 'maou-outputs-'));
const env = { MAOU_BENCH_CACHE: join(dir, 'cache') };
const unwritable = '/proc/self/maou-report.html';
// Reports that do not exist: had benchmark-compare read them first, it would name them instead of the flag.
const missing = [join(dir, 'a.json'), join(dir, 'b.json')];

describe('output paths are checked before any run (built binary)', () => {
  it.each([
    ['benchmark-training', '--report-html', ['--sample-positions', '64']],
    ['benchmark-dataloader', '--report-html', ['--sample-positions', '64']],
    ['benchmark-compare', '--report-html', missing],
    ['benchmark-io', '--output-json', ['--rows', '8']],
  ])('%s with an unwritable %s path: exit 2 naming the flag, nothing read or cached', (command, flag, args) => {
    const r = runMaou(['utility', command, ...args, flag, unwritable, '--log-level', 'silent'], env);
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr).toBe(`maou ${command}: invalid options\n${flag}: directory /proc/self is not writable\n`);
    expect(existsSync(env.MAOU_BENCH_CACHE)).toBe(false);
  });

  it('generate-sample-data into a file used as a directory: exit 2 naming --output-dir, nothing generated', () => {
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    const r = runMaou(
      [
        'utility',
        'generate-sample-data',
        '--stage',
        '3',
        '--positions',
        '16',
        '--output-dir',
        join(file, 'out'),
        '--log-level',
        'silent',
      ],
      env,
    );
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr: `maou generate-sample-data: invalid options\n--output-dir: ${file} (the nearest existing part of ${join(file, 'out')}) is not a directory\n`,
    });
  });
});
