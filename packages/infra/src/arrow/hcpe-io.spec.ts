import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HcpeColumns } from '@maou/bench-domain';
import { FIXTURES, loadVectors, pyarrowOrFail, runPythonJson } from './arrow-test-helpers';
import { parseArrowIpc } from './feather-reader';
import { decodeHcpeBatches, writeHcpeFeather } from './hcpe-table-codec';

const vectors = loadVectors();
const readHcpe = async (path: string): Promise<HcpeColumns> => {
  const parsed = await parseArrowIpc(path, readFileSync(path));
  if (!parsed.ok) throw parsed.error;
  const cols = decodeHcpeBatches(parsed.value);
  if (!cols.ok) throw cols.error;
  return cols.value;
};

describe('HCPE records', () => {
  it('reads the pyarrow LZ4 fixture: HCP bytes, moves, results, strings, dates, ratings', async () => {
    const c = await readHcpe(join(FIXTURES, 'hcpe.lz4.feather'));
    expect(c.rows).toBe(32);
    expect(Buffer.from(c.hcp).toString('hex')).toBe(vectors.map((v) => v.hcp_hex).join(''));
    expect(Array.from(c.bestMove16)).toEqual(vectors.map((v) => v.legal[0]![1]));
    expect(Array.from(c.gameResult)).toEqual(vectors.map((_, i) => i % 3));
    expect(c.id[5]).toBe('fixture.hcpe_5');
    expect(c.endgameStatus[0]).toBe('%TORYO');
    expect(c.partitioningKey[1]! - c.partitioningKey[0]!).toBe(1);
    expect(c.partitioningKey[0]).toBe(Date.UTC(2024, 0, 1) / 86_400_000);
    expect(Array.from(c.ratings.subarray(0, 4))).toEqual([1500, 1600, 1501, 1599]);
    expect(Array.from(c.eval.subarray(0, 2))).toEqual([-100, -90]);
  });

  it('writes HCPE that pyarrow reads with maou’s types (LZ4, two batches)', async () => {
    pyarrowOrFail()();
    const src = await readHcpe(join(FIXTURES, 'hcpe.lz4.feather'));
    const path = join(mkdtempSync(join(tmpdir(), 'maou-hcpe-')), 'hcpe.feather');
    await writeHcpeFeather(path, src, { compression: 'lz4', batchRows: 20 });
    const py = runPythonJson<{ types: Record<string, string>; hcp: string; id: string[]; key: string[] }>(
      `import sys, json, pyarrow.ipc as ipc
t = ipc.open_file(sys.argv[1]).read_all()
print(json.dumps({'types': {f.name: str(f.type) for f in t.schema}, 'hcp': b''.join(t.column('hcp').to_pylist()).hex(),
  'id': t.column('id').to_pylist(), 'key': [str(d) for d in t.column('partitioningKey').to_pylist()]}))`, [path]);
    expect(py.types).toEqual({
      hcp: 'large_binary', eval: 'int16', bestMove16: 'int16', gameResult: 'int8', id: 'large_string',
      partitioningKey: 'date32[day]', ratings: 'large_list<item: uint16>', endgameStatus: 'large_string', moves: 'int16',
    });
    expect(py.hcp).toBe(Buffer.from(src.hcp).toString('hex'));
    expect(py.id).toEqual(src.id);
    expect(py.key[0]).toBe('2024-01-01');
    expect(await readHcpe(path)).toEqual(src);
  });
});

describe('files written by Polars write_ipc(compression="lz4") (maou cloud path, spec D11)', () => {
  it('decode to the same HCPE rows (binary_view / string_view columns)', async () => {
    expect(await readHcpe(join(FIXTURES, 'hcpe.polars.lz4.feather'))).toEqual(await readHcpe(join(FIXTURES, 'hcpe.lz4.feather')));
  });
});
