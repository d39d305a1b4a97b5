import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES_DIR, pyarrowOrFail, runPythonJson } from '@maou/bench-testkit/arrow';
import { DataFileError } from '../../arrow/data-file-error';
import { writeStageFeather } from '../../arrow/feather-writer';
import { generateSampleData } from '../../sample-data/generate-sample-data';
import { LocalFileSourceAdapter } from './local-file-source.adapter';
import { readStageFile } from './read-stage-file';

const dir = mkdtempSync(join(tmpdir(), 'maou-kinds-'));
const listed = (path: string, stage: 1 | 2 | 3 = 3): Promise<unknown> =>
  new LocalFileSourceAdapter(stage, [path]).shards();
const copy = (name: string, as = name): string => {
  const p = join(dir, as);
  copyFileSync(join(FIXTURES_DIR, name), p);
  return p;
};

describe('files that are not the training rows asked for are named, with what they hold', () => {
  it.each(['hcpe.lz4.feather', 'hcpe.polars.lz4.feather'])(
    'given the HCPE file %s, when it is listed or read as Stage 3, then the error says it holds raw game records and what to run',
    async (name) => {
      const path = copy(name);
      const message =
        /holds HCPE rows \(raw game records: hcp, eval, bestMove16, gameResult…\), not preprocessed Stage 3 training rows; make training rows with maou's pre-processing \(`maou pre-process --input-path <HCPE dir> --output-dir <dir>`\) or generate sample rows with `maou utility generate-sample-data --stage 3/;
      await expect(listed(path)).rejects.toThrow(message);
      await expect(listed(path)).rejects.toThrow(path);
      await expect(readStageFile(path, 3)).rejects.toThrow(message);
    },
  );

  it('given HCPE records in a .npy written by numpy, when listed, then they are refused as raw game records', async () => {
    pyarrowOrFail()();
    const path = join(dir, 'games.npy');
    runPythonJson(
      `
import sys, json, numpy as np
dt = np.dtype([('hcp', 'u1', 32), ('eval', '<i2'), ('bestMove16', '<i2'), ('gameResult', 'i1'), ('id', '<U128'), ('partitioningKey', '<M8[D]'), ('ratings', '<u2', 2), ('endgameStatus', '<U16'), ('moves', '<i2')])
assert dt.itemsize == 627
np.save(sys.argv[1], np.zeros(5, dtype=dt))
print(json.dumps(dt.itemsize))`,
      [path],
    );
    await expect(listed(path)).rejects.toThrow(/games\.npy: \.npy holds HCPE rows \(raw game records/);
    await expect(readStageFile(path, 3)).rejects.toThrow(/holds HCPE rows/);
  });

  it.each([
    [627, 7],
    [38, 11],
  ])(
    'given a headerless dump of %i-byte HCPE records, when listed, then the record size names them',
    async (size, count) => {
      const path = join(dir, `raw${size}.npy`);
      writeFileSync(path, new Uint8Array(size * count));
      await expect(listed(path)).rejects.toThrow(
        new RegExp(`headerless \\.npy of ${count} ${size}-byte records holds HCPE rows`),
      );
    },
  );

  it('given a Stage 1 file passed as Stage 3, then the error names the stage it holds and the flag it belongs to', async () => {
    const path = copy('stage1.lz4.feather', 'other-stage.feather');
    await expect(listed(path)).rejects.toThrow(
      /other-stage\.feather: Arrow IPC File holds Stage 1 rows, expected Stage 3 training rows \(pass it with --stage1-data-path/,
    );
  });

  it('given a file that is not Arrow IPC, then the error says what it looks like and what was expected', async () => {
    const path = join(dir, 'notes.feather');
    writeFileSync(path, 'hello, not arrow');
    await expect(listed(path)).rejects.toThrow(
      /notes\.feather, byte offset 0: looks like no known format \(first bytes 68656c6c6f2c206e\): neither Arrow IPC File .* expected an Arrow IPC File or Stream \(or \.npy\) of Stage 3 rows with columns id, boardIdPositions, piecesInHand, moveLabel, resultValue/,
    );
    const empty = join(dir, 'empty.feather');
    writeFileSync(empty, '');
    await expect(listed(empty)).rejects.toThrow(
      /empty\.feather, byte offset 0: is empty: file of 0 bytes is too short for Arrow IPC/,
    );
  });

  it('given a Stage 3 file pyarrow wrote with 1495-value moveLabel lists, when read, then the error says it is a Stage 3 file and what the column must be', async () => {
    pyarrowOrFail()();
    const path = join(dir, 'short-labels.feather');
    runPythonJson(
      `
import sys, json, pyarrow as pa, pyarrow.ipc as ipc
t = ipc.open_file(sys.argv[1]).read_all()
flat = t.column('moveLabel').combine_chunks().flatten()
n = t.num_rows
short = pa.LargeListArray.from_arrays(pa.array([i * 1495 for i in range(n + 1)], pa.int64()), flat.slice(0, 1495 * n))
t = t.set_column(t.schema.get_field_index('moveLabel'), 'moveLabel', short)
with pa.OSFile(sys.argv[2], 'wb') as sink:
    w = ipc.new_file(sink, t.schema); w.write_table(t); w.close()
print(json.dumps(n))`,
      [join(FIXTURES_DIR, 'stage3.lz4.feather'), path],
    );
    expect(((await listed(path)) as { rows: number }[])[0]?.rows).toBe(32);
    await expect(readStageFile(path, 3)).rejects.toThrow(
      /short-labels\.feather, record batch 0, column moveLabel, row 0: list of length 1495, expected 1496 \(a Stage 3 file, whose moveLabel must be a list of 1496 × float32\)/,
    );
  });

  it("given maou's I/O-benchmark rows (board IDs 0–80, hands 0–13), when read, then they are accepted as maou's network accepts them", async () => {
    const rows = 40;
    const path = join(dir, 'io-bench.feather');
    const moveLabel = Float32Array.from({ length: rows * 1496 }, (_, i) => ((i * 7919) % 1000) / 1000);
    const columns = {
      stage: 3 as const,
      rows,
      moveLabel,
      resultValue: Float32Array.from({ length: rows }, (_, i) => i % 2),
      boardIdPositions: Uint8Array.from({ length: rows * 81 }, (_, i) => i % 81),
      piecesInHand: Uint8Array.from({ length: rows * 14 }, (_, i) => i % 14),
    };
    await writeStageFeather(
      path,
      columns,
      BigUint64Array.from({ length: rows }, (_, i) => BigInt(i)),
      { compression: 'lz4' },
    );
    expect(await readStageFile(path, 3)).toEqual(columns);
  });
});

describe('damaged files from the reliability report (#19) end in a typed error naming the file, quickly', () => {
  it('given Stage 1 sample data with byte 407 set to 0x20, when listed and read, then a DataFileError names the file (no heap blow-up)', async () => {
    const [file] = await generateSampleData({ stage: 1, positions: 1200, seed: 0, outputDir: join(dir, 's1') });
    const path = join(dir, 's1-byte407.feather');
    const bytes = readFileSync(file!.path);
    bytes[407] = 0x20;
    writeFileSync(path, bytes);
    const before = process.memoryUsage().rss;
    await expect(listed(path, 1)).rejects.toThrow(DataFileError);
    await expect(listed(path, 1)).rejects.toThrow(
      /s1-byte407\.feather, byte offset \d+: looks like a damaged Arrow IPC File: .*outside/,
    );
    await expect(readStageFile(path, 1)).rejects.toThrow(/s1-byte407\.feather.*invalid Arrow IPC structure/);
    expect(process.memoryUsage().rss - before).toBeLessThan(256 << 20);
  });

  it('given Stage 3 sample data whose message vtable size (byte 25) has its high bit set, when read, then it fails at once instead of looping', async () => {
    const [file] = await generateSampleData({ stage: 3, positions: 200, seed: 0, outputDir: join(dir, 's3') });
    const path = join(dir, 's3-byte25.feather');
    const bytes = readFileSync(file!.path);
    bytes[25] = (bytes[25] ?? 0) ^ 0xff;
    writeFileSync(path, bytes);
    await expect(listed(path, 3)).rejects.toThrow(
      /s3-byte25\.feather, byte offset 8: looks like a damaged Arrow IPC File: vtable at \d+ of \d+ bytes/,
    );
    await expect(readStageFile(path, 3)).rejects.toThrow(
      /s3-byte25\.feather, byte offset 8: invalid Arrow IPC structure: vtable/,
    );
  }, 10_000);
});
