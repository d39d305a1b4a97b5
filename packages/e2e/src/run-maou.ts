import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** Path of the built binary; e2e tests never import sources. */
export const MAOU_BIN = join(__dirname, '..', '..', 'cli', 'dist', 'main.js');

/** Runs `maou` with args and returns exit code and both streams. */
export const runMaou = (args: readonly string[], env: Record<string, string> = {}, timeoutMs = 240_000) => {
  const r = spawnSync(process.execPath, [MAOU_BIN, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: timeoutMs });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
