import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** Path of the built binary; e2e tests never import sources. */
export const MAOU_BIN = join(__dirname, '..', '..', 'cli', 'dist', 'main.js');

/** Runs `maou` with args and returns exit code and both streams. */
export const runMaou = (args: readonly string[], env: Record<string, string> = {}, timeoutMs = 240_000) => {
  const r = spawnSync(process.execPath, [MAOU_BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: timeoutMs,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

/** As `runMaou`, without blocking this process (for tests that serve the binary from here, e.g. a local S3). */
export const runMaouAsync = (
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [MAOU_BIN, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });

/** benchmark-dataloader's flags for one quick point: the loader alone (no model), no workers, one repeat, quiet. */
export const oneLoaderPoint = (numBatches: number): string[] => [
  '--num-batches',
  String(numBatches),
  '--repeats',
  '1',
  '--workers',
  '0',
  '--consumption-steps',
  '0',
  '--log-level',
  'silent',
];

/** `generate-sample-data`'s arguments for `positions` Stage `stage` positions into `outputDir`. */
export const generateArgs = (stage: number, positions: number, outputDir: string, ...more: string[]): string[] => [
  'utility',
  'generate-sample-data',
  '--stage',
  String(stage),
  '--positions',
  String(positions),
  '--output-dir',
  outputDir,
  ...more,
];
