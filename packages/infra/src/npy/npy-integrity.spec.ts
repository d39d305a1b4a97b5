import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runPythonJson } from '@maou/bench-testkit/arrow';
import { LocalFileSourceAdapter } from '../sources/local/local-file-source.adapter';
import { readStageFile } from '../sources/local/read-stage-file';

// numpy writes every file here (setup-system.sh installs it): the headers are numpy's, not ours.
const SAVE = `
import sys, json, numpy as np
path, rows, reach, ident = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
dt = np.dtype([('id', ident), ('boardIdPositions', 'u1', (9, 9)), ('piecesInHand', 'u1', (14,)), ('reachableSquares', reach, (9, 9))])
a = np.zeros(rows, dtype=dt)
a['id'] = np.arange(rows)
a['reachableSquares'][:, 0, 0] = 1
np.save(path, a)
with open(path, 'rb') as f: head = f.read(10)
print(json.dumps({'dataOffset': 10 + int.from_bytes(head[8:10], 'little')}))
`;

const dir = mkdtempSync(join(tmpdir(), 'maou-npy-integrity-'));
const save = (name: string, rows: number, reach = 'u1', ident = '<u8'): { path: string; dataOffset: number } => {
  const path = join(dir, name);
  return { path, ...runPythonJson<{ dataOffset: number }>(SAVE, [path, String(rows), reach, ident]) };
};
const shardRows = async (path: string): Promise<number> =>
  (await new LocalFileSourceAdapter(1, [path]).shards())[0]!.rows;

describe('.npy headers are checked against the file (#19)', () => {
  it('given a 300-row numpy file, then 300 rows are counted and read', async () => {
    const { path } = save('ok.npy', 300);
    expect(await shardRows(path)).toBe(300);
    expect((await readStageFile(path, 1)).rows).toBe(300);
  });

  it('given only the header of a 300-row file, then counting fails naming the file, not 300 rows of nothing', async () => {
    const { path, dataOffset } = save('full.npy', 300);
    const cut = join(dir, 'header-only.npy');
    writeFileSync(cut, readFileSync(path).subarray(0, dataOffset));
    const message =
      /header-only\.npy, byte offset \d+: the header says 300 rows of 184 bytes \(55200 bytes\) but the file holds 0 bytes after the header \(0 whole records\)/;
    await expect(shardRows(cut)).rejects.toThrow(message);
    await expect(readStageFile(cut, 1)).rejects.toThrow(message);
  });

  it('given a 300-row file whose header says 900, then the size disagreement is named', async () => {
    const { path } = save('lying.npy', 300);
    const bytes = Buffer.from(
      readFileSync(path).toString('latin1').replace("'shape': (300,)", "'shape': (900,)"),
      'latin1',
    );
    writeFileSync(path, bytes);
    await expect(shardRows(path)).rejects.toThrow(
      /lying\.npy.*header says 900 rows .* holds 55200 bytes after the header \(300 whole records\)/,
    );
  });

  it.each([
    [
      'f4',
      '<u8',
      /field reachableSquares is f4×81 at byte 103 of the record; maou's stage1 dtype has u1×81 at byte 103/,
    ],
    ['i1', '<u8', /field reachableSquares is i1×81 .* maou's stage1 dtype has u1×81/],
    ['u1', '<f8', /field id is f8×1 at byte 0 .* has u8×1 at byte 0/],
    ['u1', '>u8', /field id is big-endian \(>u8\)/],
  ])('given reachableSquares %s and id %s in the header, then the dtype is refused', async (reach, ident, message) => {
    const { path } = save(`dtype-${reach}-${ident.replace('>', 'be')}.npy`, 10, reach, ident);
    await expect(readStageFile(path, 1)).rejects.toThrow(message);
    await expect(shardRows(path)).rejects.toThrow(message);
  });

  it('given an empty file, then the file is named when it is counted', async () => {
    const path = join(dir, 'empty.npy');
    writeFileSync(path, '');
    await expect(shardRows(path)).rejects.toThrow(
      /empty\.npy, byte offset 0: 0 bytes is not a whole number of Stage 1 records/,
    );
  });

  it('given a header length past the end of the file, then nothing is decoded', async () => {
    const { path } = save('long-header.npy', 4);
    const bytes = readFileSync(path);
    bytes.writeUInt16LE(0xffff, 8);
    writeFileSync(path, bytes);
    await expect(readStageFile(path, 1)).rejects.toThrow(
      /long-header\.npy, byte offset 8: header of 65535 bytes runs past the end of the \d+-byte file/,
    );
  });
});
