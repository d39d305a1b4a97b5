import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { generateArgs, runMaou } from './run-maou';

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
    expect(r.stderr).toBe(
      `maou ${command}: invalid options\n${flag}: directory /proc/self is not writable\n` +
        `Run 'maou utility ${command} --help' for the flags.\n`,
    );
    expect(existsSync(env.MAOU_BENCH_CACHE)).toBe(false);
  });

  it('generate-sample-data into a file used as a directory: exit 2 naming --output-dir, nothing generated', () => {
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    const r = runMaou(generateArgs(3, 16, join(file, 'out'), '--log-level', 'silent'), env);
    expect({ code: r.code, stderr: r.stderr }).toEqual({
      code: 2,
      stderr: `maou generate-sample-data: invalid options\n--output-dir: ${file} (the nearest existing part of ${join(file, 'out')}) is not a directory\nRun 'maou utility generate-sample-data --help' for the flags.\n`,
    });
  });
});

// The output rule (docs/command-line.md, "Output files"): devices and FIFOs are written in place, never replaced; two outputs on one
// file, or an output on an input, exit 2 before anything is read or written.
describe('outputs never destroy (built binary)', () => {
  const asRoot = process.getuid?.() === 0;

  (asRoot ? it : it.skip)('--output-json on a character device (a copy of /dev/null): written in place, exit 0', () => {
    // skipped unless root: mknod needs CAP_MKNOD
    const scratch = mkdtempSync(join(dir, 'dev-'));
    const dev = join(scratch, 'null');
    execFileSync('mknod', [dev, 'c', '1', '3']);
    const r = runMaou([
      'utility',
      'benchmark-io',
      '--rows',
      '8',
      '--repeats',
      '1',
      '--output-json',
      dev,
      '--log-level',
      'silent',
    ]);
    expect(r.code).toBe(0);
    expect(lstatSync(dev).isCharacterDevice()).toBe(true);
    expect(readdirSync(scratch)).toEqual(['null']);
  });

  it('--output-json and --report-html on one file: exit 2 naming both flags, nothing run', () => {
    const same = join(dir, 'same.out');
    const r = runMaou(
      [
        'utility',
        'benchmark-training',
        '--sample-positions',
        '64',
        '--output-json',
        same,
        '--report-html',
        join(dir, '.', 'same.out'),
        '--log-level',
        'silent',
      ],
      env,
    );
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 2, stdout: '' });
    expect(r.stderr).toContain(`--report-html: ${join(dir, 'same.out')} is also --output-json (${same})`);
    expect(existsSync(same)).toBe(false);
    expect(existsSync(env.MAOU_BENCH_CACHE)).toBe(false);
  });

  it('--output-json on an input data file: exit 2 naming the input, the data file unchanged', () => {
    const data = join(dir, 'x.feather');
    writeFileSync(data, 'not read');
    const r = runMaou(
      [
        'utility',
        'benchmark-training',
        '--stage3-data-path',
        data,
        '--output-json',
        join(dir, '..', basename(dir), 'x.feather'),
        '--log-level',
        'silent',
      ],
      env,
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /--output-json: .*x\.feather is an input \(data path .*x\.feather\); an output never overwrites data/,
    );
    expect(readFileSync(data, 'utf8')).toBe('not read');
  });

  it('--output-json as a data file inside the cache the run reads (here the sample cache): exit 2, nothing written', () => {
    const cache = join(dir, 'sample-cache');
    mkdirSync(cache);
    const out = join(cache, 'stage3.feather');
    const r = runMaou(
      ['utility', 'benchmark-training', '--sample-cache-dir', cache, '--output-json', out, '--log-level', 'silent'],
      env,
    );
    expect({ code: r.code, line: r.stderr.split('\n')[1] }).toEqual({
      code: 2,
      line: `--output-json: ${out} is an input (the input cache ${cache}); an output never overwrites data`,
    });
    expect(readdirSync(cache)).toEqual([]);
  });
});
