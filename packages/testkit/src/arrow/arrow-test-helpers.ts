import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Test-only helpers shared by the arrow, npy and datasource specs. @internal */
export const FIXTURES_DIR = join(__dirname, '../../fixtures');

interface VectorPosition {
  readonly sfen: string;
  readonly hcp_hex: string;
  readonly boardIdPositions: number[][];
  readonly piecesInHand: number[];
  readonly legal: [string, number, number][];
}

/** maou-test-vectors.json (kept next to the domain specs). @internal */
export const loadVectors = (): VectorPosition[] =>
  JSON.parse(readFileSync(join(__dirname, '../../../domain/src/shogi/testdata/maou-test-vectors.json'), 'utf8'))
    .positions;

/** Whether `python3 -c "import pyarrow"` works; specs that need it skip with a message otherwise. @internal */
export const pyarrowAvailable = (): boolean =>
  spawnSync('python3', ['-c', 'import pyarrow, numpy'], { encoding: 'utf8' }).status === 0;

/** Runs a Python snippet with argv and returns its stdout parsed as JSON. @internal */
export const runPythonJson = <T>(code: string, args: readonly string[]): T => {
  const r = spawnSync('python3', ['-c', code, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`python3 failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
};

/**
 * For specs that must run wherever the suite runs (CI installs pyarrow through scripts/setup-system.sh): returns a
 * check that fails the spec with the install command when pyarrow is missing, rather than skipping it silently.
 * @internal
 */
export const pyarrowOrFail = (): (() => void) => {
  const available = pyarrowAvailable();
  return () => {
    if (!available)
      throw new Error(
        'pyarrow is required by this spec: python3 -m pip install pyarrow numpy (scripts/setup-system.sh does it)',
      );
  };
};
