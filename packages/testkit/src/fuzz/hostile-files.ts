import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

/**
 * The "hostile but valid" class: Arrow files that pyarrow writes without complaint, in shapes no trainer would write
 * (10 M rows of empty lists, 10 k columns, duplicate names, dictionary and all-null columns). Each must end in the
 * stated outcome, in bounded time and memory: refused naming the file and what is wrong, or read.
 * @internal
 */
export interface HostileCase {
  readonly name: string;
  /** what pyarrow writes (see SCRIPT) */
  readonly kind: 'empty-lists' | 'wide' | 'duplicate-name' | 'dictionary-column' | 'null-column' | 'null-values';
  /** rows (empty-lists) or extra columns (wide) */
  readonly size: number;
  /** the message of a refusal, or null when the file must be read */
  readonly refused: RegExp | null;
}

/** The class at the sizes CI runs; `pnpm fuzz:readers -- --hostile-scale 5` multiplies the sizes. @internal */
export const HOSTILE_CASES: readonly HostileCase[] = [
  {
    name: '10 M rows of empty lists',
    kind: 'empty-lists',
    size: 10_000_000,
    refused: /row 0: list of length 0, expected 9/,
  },
  { name: '10 k extra columns', kind: 'wide', size: 10_000, refused: /more than the 10000 this reader accepts/ },
  { name: '1 k extra columns', kind: 'wide', size: 1_000, refused: null },
  {
    name: 'resultValue twice, the second a string',
    kind: 'duplicate-name',
    size: 0,
    refused: /2 columns named resultValue/,
  },
  { name: 'an extra dictionary column', kind: 'dictionary-column', size: 0, refused: null },
  { name: 'an extra all-null column', kind: 'null-column', size: 0, refused: null },
  { name: 'resultValue all null', kind: 'null-values', size: 0, refused: /column resultValue, row 0: null value/ },
];

const FIXTURE = resolve(__dirname, '..', '..', 'fixtures', 'stage3.lz4.feather');

// Starts from the pyarrow-readable Stage 3 fixture, so every case is a real Stage 3 file but for its one oddity.
const SCRIPT = `
import sys, numpy as np, pyarrow as pa, pyarrow.feather as feather
kind, path, size, fixture = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
t = feather.read_table(fixture)
cols = {name: t.column(name) for name in t.column_names}
n = t.num_rows
def empty(rows, item):
    return pa.LargeListArray.from_arrays(pa.array(np.zeros(rows + 1, dtype=np.int64)), pa.array([], type=item))
if kind == 'empty-lists':
    cols = {'id': pa.array(np.arange(size, dtype=np.uint64)),
            'boardIdPositions': empty(size, pa.large_list(pa.uint8())),
            'piecesInHand': empty(size, pa.uint8()),
            'moveLabel': empty(size, pa.float32()),
            'resultValue': pa.array(np.zeros(size, dtype=np.float32))}
elif kind == 'wide':
    for i in range(size): cols['extra%d' % i] = pa.array(np.zeros(n, dtype=np.uint8))
elif kind == 'dictionary-column':
    cols['note'] = pa.array(['win', 'loss'] * (n // 2) + ['win'] * (n % 2)).dictionary_encode()
elif kind == 'null-column':
    cols['note'] = pa.nulls(n, type=pa.float32())
elif kind == 'null-values':
    cols['resultValue'] = pa.nulls(n, type=pa.float32())
if kind == 'duplicate-name':
    table = pa.Table.from_arrays(list(cols.values()) + [pa.array(['x'] * n)], names=list(cols) + ['resultValue'])
else:
    table = pa.table(cols)
feather.write_feather(table, path, compression='lz4')
`;

/** Writes `c` with pyarrow at `path`; `scale` multiplies its size. @internal */
export const writeHostileFile = (c: HostileCase, path: string, scale = 1): void => {
  const r = spawnSync('python3', ['-c', SCRIPT, c.kind, path, String(Math.round(c.size * scale)), FIXTURE], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`pyarrow could not write ${c.name}: ${r.stderr || r.error?.message}`);
};
