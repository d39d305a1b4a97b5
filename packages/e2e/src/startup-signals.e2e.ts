import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAOU_BIN } from './run-maou';

// A signal while the binary's modules load (a second or more, the event loop blocked): the preload sends it to the
// process itself at the moment the binary asks for its first heavy module, as a user's Ctrl-C right after Enter would.
const dir = mkdtempSync(join(tmpdir(), 'maou-startup-signal-'));
const preload = join(dir, 'signal-while-loading.cjs');
writeFileSync(
  preload,
  `const Module = require('node:module');
const load = Module._load;
let sent = false;
Module._load = function (request, ...rest) {
  if (!sent && request === '@maou/bench-infra') {
    sent = true;
    process.kill(process.pid, process.env.MAOU_TEST_SIGNAL);
  }
  return load.call(this, request, ...rest);
};
`,
);

const whileLoading = (
  signal: 'SIGINT' | 'SIGTERM',
  args: readonly string[],
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, ['--require', preload, MAOU_BIN, ...args], {
      env: { ...process.env, MAOU_TEST_SIGNAL: signal, MAOU_BENCH_CACHE: join(dir, 'cache') },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code, sig) => resolve({ code, signal: sig, stderr }));
  });

describe('a signal while the binary starts up', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'benchmark-training answers %s as one before its first batch: exit 130/143, the message, the stub in --output-json, no data generated',
    async (signal) => {
      const out = join(dir, `${signal}.json`);
      const samples = join(dir, `samples-${signal}`);
      const r = await whileLoading(signal, [
        'utility',
        'benchmark-training',
        '--sample-positions',
        '256',
        '--sample-cache-dir',
        samples,
        '--output-json',
        out,
      ]);
      expect({ code: r.code, signal: r.signal, stderr: r.stderr }).toEqual({
        code: signal === 'SIGINT' ? 130 : 143,
        signal: null,
        stderr: expect.stringContaining(`interrupted before the first batch (${signal})`),
      });
      expect(JSON.parse(readFileSync(out, 'utf8'))).toMatchObject({
        interrupted: true,
        interruption: { reason: signal, completed_batches: 0 },
      });
      expect(existsSync(samples)).toBe(false);
    },
    60_000,
  );

  it('a command that keeps the default action (generate-sample-data) ends by the signal before it writes anything', async () => {
    const output = join(dir, 'generated');
    const r = await whileLoading('SIGTERM', [
      'utility',
      'generate-sample-data',
      '--stage',
      '3',
      '--positions',
      '64',
      '--output-dir',
      output,
    ]);
    expect({ code: r.code, signal: r.signal }).toEqual({ code: null, signal: 'SIGTERM' });
    expect(existsSync(output)).toBe(false);
  }, 60_000);
});
