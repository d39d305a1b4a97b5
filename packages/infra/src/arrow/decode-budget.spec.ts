import { Float32, makeData } from 'apache-arrow';
import { buildBatches, encodeArrowIpc, nestLargeList } from './feather-writer';
import { parseArrowIpc } from './feather-reader';

// A decompression bomb spread over many buffers: zeros compress about 250-fold under LZ4, so a small file can ask for
// far more memory than any maou record needs (about 12 KB a row). The reader's budget (64 KiB a row plus 1 MiB) stops
// it once the file has used its share, instead of decoding until memory runs out.
const zerosFile = (rows: number, width: number): Uint8Array => {
  const column = (_start: number, n: number) => {
    const leaf = makeData({ type: new Float32(), length: n * width, nullCount: 0, data: new Float32Array(n * width) });
    return [['moveLabel', nestLargeList(leaf, n, [width])]] as [string, ReturnType<typeof nestLargeList>][];
  };
  return encodeArrowIpc(buildBatches(rows, 1, column), { compression: 'lz4' });
};

describe('decompression budget of one Arrow IPC file', () => {
  it('given 40 one-row batches of 400 KB zeros (16 MB from a small file), then a typed error once the budget is spent', async () => {
    const bytes = zerosFile(40, 100_000);
    expect(bytes.length).toBeLessThan(400_000);
    const r = await parseArrowIpc('bomb.feather', bytes);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.message).toMatch(/bomb\.feather/);
    expect(r.error.message).toMatch(
      /would pass the file's budget of 3670016 bytes \(40 rows at 65536 bytes each, plus 1048576\); \d+ bytes were already decoded/,
    );
  });

  it('given the same layout within the budget (40 rows of 4 KB), then every row decodes', async () => {
    const r = await parseArrowIpc('fine.feather', zerosFile(40, 1_000));
    expect(r.ok && r.value.rows).toBe(40);
  });
});
