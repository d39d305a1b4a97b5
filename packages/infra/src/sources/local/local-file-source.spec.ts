import { copyFileSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURES } from '../../arrow/arrow-test-helpers';
import { LocalFileSourceAdapter } from './local-file-source.adapter';
import { readStageFile } from './read-stage-file';

describe('LocalFileSourceAdapter', () => {
  it('lists a directory as sorted shards with row counts from metadata and reads each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'maou-src-'));
    mkdirSync(join(dir, 'sub'));
    copyFileSync(join(FIXTURES, 'stage3.lz4.feather'), join(dir, 'b.feather'));
    copyFileSync(join(FIXTURES, 'stage3.list.multibatch.lz4.arrows'), join(dir, 'sub', 'a.arrows'));
    copyFileSync(join(FIXTURES, 'legacy-packed.npy'), join(dir, 'c.npy'));
    writeFileSync(join(dir, 'notes.txt'), 'ignored');
    const source = new LocalFileSourceAdapter(3, [dir]);
    const shards = await source.shards();
    expect(shards.map((s) => [s.path.slice(dir.length + 1), s.rows])).toEqual([
      ['b.feather', 32],
      ['c.npy', 8],
      ['sub/a.arrows', 32],
    ]);
    const cols = await source.read(shards[2]!);
    expect(cols.rows).toBe(32);
    expect(source.ioStats()?.objects).toBe(1);
  });

  it('names the path of a missing file or an unsupported suffix', async () => {
    await expect(new LocalFileSourceAdapter(3, ['/nonexistent/x.feather']).shards()).rejects.toThrow(
      'file /nonexistent/x.feather: no such file or directory',
    );
    const dir = mkdtempSync(join(tmpdir(), 'maou-src-'));
    writeFileSync(join(dir, 'x.csv'), 'a');
    await expect(new LocalFileSourceAdapter(3, [join(dir, 'x.csv')]).shards()).rejects.toThrow(
      /x\.csv: unsupported file suffix ".csv"/,
    );
    await expect(readStageFile(join(dir, 'x.parquet'), 3)).rejects.toThrow(/x\.parquet: unsupported file suffix/);
    await expect(readStageFile(join(dir, 'missing.feather'), 3)).rejects.toThrow(/missing\.feather: cannot read file/);
  });
});
