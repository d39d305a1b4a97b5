import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stage3Columns } from '@maou/bench-domain';
import { FIXTURES_DIR, pyarrowAvailable, runPythonJson } from '@maou/bench-testkit/arrow';
import { readStageFile } from '../sources/local/read-stage-file';
import { writeStageNpy } from './npy-stage-writer';

const firstRows = (c: Stage3Columns, n: number): Stage3Columns => ({
  stage: 3,
  rows: n,
  boardIdPositions: c.boardIdPositions.slice(0, n * 81),
  piecesInHand: c.piecesInHand.slice(0, n * 14),
  moveLabel: c.moveLabel.slice(0, n * 1496),
  resultValue: c.resultValue.slice(0, n),
});

describe('legacy .npy shards', () => {
  it.each(['legacy-standard.npy', 'legacy-packed.npy'])(
    '%s (headerless, 104 planes) decodes to the same positions and targets',
    async (name) => {
      const expected = firstRows(
        (await readStageFile(join(FIXTURES_DIR, 'stage3.lz4.feather'), 3)) as Stage3Columns,
        8,
      );
      expect(await readStageFile(join(FIXTURES_DIR, name), 3)).toEqual(expected);
    },
  );

  it('reports a truncated raw shard with its byte offset', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'maou-npy-')), 'cut.npy');
    writeFileSync(path, readFileSync(join(FIXTURES_DIR, 'legacy-packed.npy')).subarray(0, 4242 * 3 + 100));
    await expect(readStageFile(path, 3)).rejects.toThrow(
      /cut\.npy, byte offset 12826: 12826 bytes is not a whole number of Stage 3 records/,
    );
  });

  it('writes PRIMARY-layout .npy that reads back (and numpy loads when available)', async () => {
    const src = (await readStageFile(join(FIXTURES_DIR, 'stage3.lz4.feather'), 3)) as Stage3Columns;
    const path = join(mkdtempSync(join(tmpdir(), 'maou-npy-')), 's3.npy');
    await writeStageNpy(
      path,
      src,
      BigUint64Array.from({ length: src.rows }, (_, i) => BigInt(i)),
    );
    expect(await readStageFile(path, 3)).toEqual(src);
    if (!pyarrowAvailable()) return;
    const py = runPythonJson<{ itemsize: number; rows: number; sum: number }>(
      "import sys, json, numpy as np\na = np.load(sys.argv[1])\nprint(json.dumps({'itemsize': a.dtype.itemsize, 'rows': len(a), 'sum': float(a['moveLabel'].astype('f8').sum())}))",
      [path],
    );
    expect(py).toEqual({ itemsize: 3097, rows: 32, sum: 32 });
  });
});
