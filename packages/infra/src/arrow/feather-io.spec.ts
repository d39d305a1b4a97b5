import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stage, StageColumns } from '@maou/bench-domain';
import { FIXTURES_DIR, loadVectors, pyarrowOrFail, runPythonJson } from '@maou/bench-testkit/arrow';
import { parseArrowIpc } from './feather-reader';
import { decodeStageBatches } from './stage-table-decoder';
import { writeStageFeather } from './feather-writer';

const vectors = loadVectors();

const readStage = async (name: string, stage: Stage): Promise<StageColumns> => {
  const path = join(FIXTURES_DIR, name);
  const parsed = await parseArrowIpc(path, readFileSync(path));
  if (!parsed.ok) throw parsed.error;
  const cols = decodeStageBatches(parsed.value, stage);
  if (!cols.ok) throw cols.error;
  return cols.value;
};

const expectPositions = (c: StageColumns): void => {
  expect(c.rows).toBe(vectors.length);
  expect(Array.from(c.boardIdPositions)).toEqual(vectors.flatMap((v) => v.boardIdPositions.flat()));
  expect(Array.from(c.piecesInHand)).toEqual(vectors.flatMap((v) => v.piecesInHand));
};

describe('reading pyarrow-written fixtures (scripts/make-arrow-fixtures.py)', () => {
  it('Stage 3, IPC File + LZ4, large_list', async () => {
    const c = await readStage('stage3.lz4.feather', 3);
    expectPositions(c);
    if (c.stage !== 3) throw new Error('stage');
    vectors.forEach((v, i) => {
      const first = v.legal[0]![2];
      const last = v.legal[v.legal.length - 1]![2];
      expect(c.moveLabel[i * 1496 + first]).toBeCloseTo(first === last ? 1 : 0.5);
      expect(c.moveLabel.subarray(i * 1496, (i + 1) * 1496).reduce((a, b) => a + b, 0)).toBeCloseTo(1);
      expect(c.resultValue[i]).toBe([0, 0.5, 1][i % 3]);
    });
  });

  it('Stage 3, IPC Stream + LZ4, 32-bit List, three record batches', async () => {
    const multi = await readStage('stage3.list.multibatch.lz4.arrows', 3);
    const single = await readStage('stage3.lz4.feather', 3);
    expect(multi).toEqual(single);
  });

  it('Stage 2, LZ4 large_list and ZSTD FixedSizeList in four batches agree with the legal-move vectors', async () => {
    for (const name of ['stage2.lz4.feather', 'stage2.fixedsize.multibatch.zstd.feather']) {
      const c = await readStage(name, 2);
      expectPositions(c);
      if (c.stage !== 2) throw new Error('stage');
      vectors.forEach((v, i) => {
        const row = c.legalMovesLabel.subarray(i * 1496, (i + 1) * 1496);
        expect(row.reduce((a, b) => a + b, 0)).toBe(v.legal.length);
        for (const [, , label] of v.legal) expect(row[label]).toBe(1);
      });
    }
  });

  it('Stage 1, LZ4', async () => {
    const c = await readStage('stage1.lz4.feather', 1);
    expectPositions(c);
    if (c.stage !== 1) throw new Error('stage');
    expect(c.reachableSquares[0 * 81 + 0]).toBe(1);
    expect(c.reachableSquares[1 * 81 + 6]).toBe(1);
    expect(c.reachableSquares.reduce((a, b) => a + b, 0)).toBe(
      Array.from({ length: 32 * 81 }, (_, k) => ((k % 81) + Math.floor(k / 81)) % 7 === 0).filter(Boolean).length,
    );
  });

  it('names the file and the stage it holds when it is not the stage asked for', async () => {
    const path = join(FIXTURES_DIR, 'stage2.lz4.feather');
    const parsed = await parseArrowIpc(path, readFileSync(path));
    if (!parsed.ok) throw parsed.error;
    const r = decodeStageBatches(parsed.value, 3);
    expect(r.ok ? '' : r.error.message).toMatch(
      /stage2\.lz4\.feather: Arrow IPC file holds Stage 2 rows, expected Stage 3 training rows \(pass it with --stage2-data-path/,
    );
  });
});

const READ_BACK = `
import sys, json, pyarrow.ipc as ipc, pyarrow as pa
path = sys.argv[1]
with open(path, 'rb') as f:
    head = f.read(6)
t = ipc.open_file(path).read_all() if head == b'ARROW1' else ipc.open_stream(path).read_all()
out = {'rows': t.num_rows, 'types': {f.name: str(f.type) for f in t.schema}, 'batches': len(t.to_batches())}
for name in t.column_names:
    if name == 'id': continue
    flat = t.column(name).combine_chunks()
    while pa.types.is_large_list(flat.type) or pa.types.is_list(flat.type): flat = flat.flatten()
    out[name] = flat.to_pylist()
print(json.dumps(out))
`;

// CI installs pyarrow (scripts/setup-system.sh): without it these fail rather than skip.
describe('pyarrow reads what we write', () => {
  beforeEach(pyarrowOrFail());
  const dir = mkdtempSync(join(tmpdir(), 'maou-feather-'));
  it.each([
    ['file', 'lz4', undefined],
    ['file', 'lz4', 10],
    ['stream', 'lz4', 7],
    ['file', 'none', undefined],
  ] as const)(
    'Stage 3 %s / %s / batchRows %s round-trips through pyarrow and back',
    async (format, compression, batchRows) => {
      const src = await readStage('stage3.lz4.feather', 3);
      const path = join(dir, `s3-${format}-${compression}-${batchRows ?? 'all'}.feather`);
      await writeStageFeather(
        path,
        src,
        BigUint64Array.from({ length: src.rows }, (_, i) => BigInt(i)),
        { format, compression, batchRows },
      );
      const py = runPythonJson<Record<string, unknown>>(READ_BACK, [path]);
      expect(py.types).toEqual({
        id: 'uint64',
        boardIdPositions: 'large_list<item: large_list<item: uint8>>',
        piecesInHand: 'large_list<item: uint8>',
        moveLabel: 'large_list<item: float>',
        resultValue: 'float',
      });
      expect(py.batches).toBe(batchRows ? Math.ceil(src.rows / batchRows) : 1);
      if (src.stage !== 3) throw new Error('stage');
      expect(py.boardIdPositions).toEqual(Array.from(src.boardIdPositions));
      expect(py.moveLabel).toEqual(Array.from(src.moveLabel));
      expect(py.resultValue).toEqual(Array.from(src.resultValue));
      const back = await parseArrowIpc(path, readFileSync(path));
      if (!back.ok) throw back.error;
      expect(decodeStageBatches(back.value, 3)).toEqual({ ok: true, value: src });
    },
  );

  it.each([1, 2] as const)('Stage %i written with LZ4 is read by pyarrow', async (stage) => {
    const src = await readStage(stage === 1 ? 'stage1.lz4.feather' : 'stage2.lz4.feather', stage);
    const path = join(dir, `s${stage}.feather`);
    await writeStageFeather(path, src, new BigUint64Array(src.rows), { compression: 'lz4' });
    const py = runPythonJson<Record<string, number[]>>(READ_BACK, [path]);
    const target = src.stage === 1 ? src.reachableSquares : src.stage === 2 ? src.legalMovesLabel : new Uint8Array();
    expect(py[stage === 1 ? 'reachableSquares' : 'legalMovesLabel']).toEqual(Array.from(target));
    expect(py.piecesInHand).toEqual(Array.from(src.piecesInHand));
  });
});

describe('files written by Polars write_ipc(compression="lz4") (maou cloud path, spec D11)', () => {
  it('decode to the same Stage 3 rows as pyarrow’s', async () => {
    expect(await readStage('stage3.polars.lz4.feather', 3)).toEqual(await readStage('stage3.lz4.feather', 3));
  });
});
