import { run } from './run';
import { closestName } from '@maou/bench-app/commands';

// The command line in-process, as `run(argv)` gives it to code and the binary: exit codes, and usage errors that are
// the error plus one line pointing to --help (not the whole help), with "did you mean" for a typo.
const capture = async (argv: string[]): Promise<{ code: number; stderr: string; stdout: string }> => {
  const out: string[] = [];
  const errs: string[] = [];
  const so = jest.spyOn(process.stdout, 'write').mockImplementation((c) => out.push(String(c)) > 0);
  const se = jest.spyOn(process.stderr, 'write').mockImplementation((c) => errs.push(String(c)) > 0);
  try {
    return { code: await run(argv), stderr: errs.join(''), stdout: out.join('') };
  } finally {
    so.mockRestore();
    se.mockRestore();
  }
};

describe('run(argv): maou in-process', () => {
  it('a value flag without its value exits 2 naming the flag (it ran with the default before)', async () => {
    const r = await capture(['utility', 'benchmark-training', '--batch-size']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "maou: --batch-size needs a value\nRun 'maou utility benchmark-training --help' for the flags.\n",
    );
    expect(r.stdout).toBe('');
  });

  it.each([
    [['utility', 'benchmark-training', '--batch-sise', '3'], 'unknown option --batch-sise; did you mean --batch-size?'],
    [['utility', 'benchmark-trainin'], 'unknown command benchmark-trainin; did you mean benchmark-training?'],
    [['utilty'], 'unknown command utilty; did you mean utility?'],
    [['utility', 'generate-sample-data', '--output-dir'], '--output-dir needs a value'],
  ])('%j is a short usage error: %s', async (argv, message) => {
    const r = await capture(argv);
    expect(r.code).toBe(2);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`maou: ${message}`);
    expect(lines[1]).toMatch(/^Run 'maou .*--help' for the flags\.$/);
  });

  it('checks of the values still name each flag, then point to --help', async () => {
    const r = await capture(['utility', 'benchmark-training', '--batch-size', '0']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--batch-size: must be an integer');
    expect(r.stderr.trimEnd().split('\n').pop()).toBe("Run 'maou utility benchmark-training --help' for the flags.");
  });

  it("returns the code and leaves the host's exit code as it was", async () => {
    process.exitCode = 5;
    try {
      expect((await capture(['utility', 'benchmark-training', '--batch-size'])).code).toBe(2);
      expect((await capture(['--version'])).code).toBe(0);
      expect(process.exitCode).toBe(5);
    } finally {
      process.exitCode = undefined;
    }
  });
});

describe('closestName', () => {
  it('suggests a near name, and none for a far one', () => {
    expect(closestName('batch-sise', ['batch-size', 'batch-sizes', 'seed'])).toBe('batch-size');
    expect(closestName('zzz', ['batch-size', 'seed'])).toBeUndefined();
  });
});
