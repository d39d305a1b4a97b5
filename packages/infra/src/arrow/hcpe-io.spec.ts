import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HcpeColumns } from '@maou/bench-domain';
import type { Data } from 'apache-arrow';
import { FIXTURES_DIR, loadVectors, pyarrowOrFail, runPythonJson } from '@maou/bench-testkit/arrow';
import { DataFileError } from './data-file-error';
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
    const c = await readHcpe(join(FIXTURES_DIR, 'hcpe.lz4.feather'));
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
    const src = await readHcpe(join(FIXTURES_DIR, 'hcpe.lz4.feather'));
    const path = join(mkdtempSync(join(tmpdir(), 'maou-hcpe-')), 'hcpe.feather');
    await writeHcpeFeather(path, src, { compression: 'lz4', batchRows: 20 });
    const py = runPythonJson<{ types: Record<string, string>; hcp: string; id: string[]; key: string[] }>(
      `import sys, json, pyarrow.ipc as ipc
t = ipc.open_file(sys.argv[1]).read_all()
print(json.dumps({'types': {f.name: str(f.type) for f in t.schema}, 'hcp': b''.join(t.column('hcp').to_pylist()).hex(),
  'id': t.column('id').to_pylist(), 'key': [str(d) for d in t.column('partitioningKey').to_pylist()]}))`,
      [path],
    );
    expect(py.types).toEqual({
      hcp: 'large_binary',
      eval: 'int16',
      bestMove16: 'int16',
      gameResult: 'int8',
      id: 'large_string',
      partitioningKey: 'date32[day]',
      ratings: 'large_list<item: uint16>',
      endgameStatus: 'large_string',
      moves: 'int16',
    });
    expect(py.hcp).toBe(Buffer.from(src.hcp).toString('hex'));
    expect(py.id).toEqual(src.id);
    expect(py.key[0]).toBe('2024-01-01');
    expect(await readHcpe(path)).toEqual(src);
  });
});

describe('files written by Polars write_ipc(compression="lz4") (maou cloud path, spec D11)', () => {
  it('decode to the same HCPE rows (binary_view / string_view columns)', async () => {
    expect(await readHcpe(join(FIXTURES_DIR, 'hcpe.polars.lz4.feather'))).toEqual(
      await readHcpe(join(FIXTURES_DIR, 'hcpe.lz4.feather')),
    );
  });

  // apache-arrow decodes view columns lazily, on get(): a damaged view threw an untyped Error there (fuzz seed 19).
  const damaged = async (column: string, damage: (views: DataView, data: Data) => void): Promise<string> => {
    const path = join(FIXTURES_DIR, 'hcpe.polars.lz4.feather');
    const parsed = await parseArrowIpc(path, readFileSync(path));
    if (!parsed.ok) throw parsed.error;
    const data = parsed.value.batches[0]!.data.children[
      parsed.value.schema.fields.findIndex((f) => f.name === column)
    ] as Data;
    const views = data.values as Uint8Array;
    damage(new DataView(views.buffer, views.byteOffset, views.length), data);
    const cols = decodeHcpeBatches(parsed.value);
    if (cols.ok) throw new Error('damaged views decoded');
    expect(cols.error).toBeInstanceOf(DataFileError);
    return cols.error.message;
  };

  it('given a view naming a data buffer the batch lacks, then a DataFileError names the file, column and row', async () => {
    // Row 3 of id ("fixture.hcpe_3", 14 bytes) lives in data buffer 0; point it at buffer 7.
    expect(await damaged('id', (v) => v.setInt32(3 * 16 + 8, 7, true))).toMatch(
      /hcpe\.polars\.lz4\.feather, record batch 0, column id, row 3: view names data buffer 7, the batch has 1/,
    );
  });

  it('given a view reaching past its data buffer, then a DataFileError says which range', async () => {
    expect(await damaged('hcp', (v) => v.setInt32(5 * 16 + 12, 1020, true))).toMatch(
      /column hcp, row 5: view \[1020, \+32\) outside data buffer 0 of 1024 bytes/,
    );
  });

  it('given a view buffer shorter than its rows, then a DataFileError says how short', async () => {
    expect(
      await damaged('endgameStatus', (_, data) => {
        (data as { values: Uint8Array }).values = data.values.subarray(0, 100);
      }),
    ).toMatch(/column endgameStatus, row 0: view buffer of 100 bytes, 32 rows need 512/);
  });
});
