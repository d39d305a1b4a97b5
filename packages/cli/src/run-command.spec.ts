import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TOKENS, type ClockPort } from '@maou/bench-use-cases';
import { err, ok, type Result } from '@maou/bench-domain';
import type { CommandFailure, CommandSpec, OutputFlags } from '@maou/bench-app/commands';
import { runCommand } from './run-command';
import type { GlobalOptions } from '@maou/bench-app/commands';

type Args = GlobalOptions & OutputFlags & { readonly n: number };
const dir = mkdtempSync(join(tmpdir(), 'maou-runner-'));

// A command whose run reads the real container's clock, so it proves the container came from the composition root.
const command = (
  outcome: (n: number) => Result<number, CommandFailure>,
  runs: number[] = [],
): CommandSpec<Args, number, number> => ({
  name: 'demo',
  validate: (a) => (a.n >= 0 ? ok(a.n) : err([{ field: '--n', message: `must be non-negative, got ${a.n}` }])),
  run: async (container, n) => {
    runs.push(container.resolve<ClockPort>(TOKENS.Clock).now());
    return outcome(n);
  },
  present: (n) => ({
    payload: { n },
    text: `n is ${n}`,
    ...(n === 7 ? { exit: { code: 130, message: 'stopped early' } } : {}),
  }),
});

const capture = async (
  body: () => Promise<void>,
): Promise<{ stdout: string; stderr: string; code: number | undefined }> => {
  const out: string[] = [];
  const errs: string[] = [];
  const so = jest.spyOn(process.stdout, 'write').mockImplementation((c) => out.push(String(c)) > 0);
  const se = jest.spyOn(process.stderr, 'write').mockImplementation((c) => errs.push(String(c)) > 0);
  process.exitCode = undefined;
  try {
    await body();
  } finally {
    so.mockRestore();
    se.mockRestore();
  }
  const code = process.exitCode === undefined ? undefined : Number(process.exitCode);
  process.exitCode = undefined;
  return { stdout: out.join(''), stderr: errs.join(''), code };
};

describe('runCommand', () => {
  it('given bad flags and an unwritable --report-html, then exit 2 naming both, and the run never starts', async () => {
    const runs: number[] = [];
    const r = await capture(() =>
      runCommand(
        command((n) => ok(n), runs),
        { logLevel: 'silent', n: -1, reportHtml: '/proc/self/r.html' },
      ),
    );
    expect(r).toEqual({
      stdout: '',
      code: 2,
      stderr:
        "maou demo: invalid options\n--n: must be non-negative, got -1\n--report-html: directory /proc/self is not writable\nRun 'maou utility demo --help' for the flags.\n",
    });
    expect(runs).toEqual([]);
  });

  it('given a result, then the summary on stdout, the payload in --output-json, or the payload on stdout with --json', async () => {
    const file = join(dir, 'ok.json');
    expect(
      await capture(() =>
        runCommand(
          command((n) => ok(n)),
          { logLevel: 'silent', n: 3, outputJson: file },
        ),
      ),
    ).toEqual({ stdout: 'n is 3\n', stderr: '', code: undefined });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ n: 3 });
    expect(
      JSON.parse(
        (
          await capture(() =>
            runCommand(
              command((n) => ok(n)),
              { logLevel: 'silent', n: 3, json: true },
            ),
          )
        ).stdout,
      ),
    ).toEqual({ n: 3 });
  });

  it('given a failed run, then its code and message, and its partial JSON in --output-json', async () => {
    const file = join(dir, 'failed.json');
    const r = await capture(() =>
      runCommand(
        command(() => err({ code: 143, message: 'interrupted', outputJson: { interrupted: true } })),
        { logLevel: 'silent', n: 1, outputJson: file },
      ),
    );
    expect(r).toEqual({ stdout: '', stderr: 'maou demo: interrupted\n', code: 143 });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ interrupted: true });
  });

  it('given a result that still ends non-zero, then it is written first and the exit code follows', async () => {
    expect(
      await capture(() =>
        runCommand(
          command((n) => ok(n)),
          { logLevel: 'silent', n: 7 },
        ),
      ),
    ).toEqual({ stdout: 'n is 7\n', stderr: 'maou demo: stopped early\n', code: 130 });
  });
});
