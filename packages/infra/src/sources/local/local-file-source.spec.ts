import { FIXTURES_DIR } from '@maou/bench-testkit/arrow';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalFileSourceAdapter } from './local-file-source.adapter';
import { readStageFile } from './read-stage-file';

describe('LocalFileSourceAdapter', () => {
  it('lists a directory as sorted shards with row counts from metadata and reads each', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'maou-src-'));
    mkdirSync(join(dir, 'sub'));
    copyFileSync(join(FIXTURES_DIR, 'stage3.lz4.feather'), join(dir, 'b.feather'));
    copyFileSync(join(FIXTURES_DIR, 'stage3.list.multibatch.lz4.arrows'), join(dir, 'sub', 'a.arrows'));
    copyFileSync(join(FIXTURES_DIR, 'legacy-packed.npy'), join(dir, 'c.npy'));
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

  it('given a symlink loop or a path over 4,096 bytes, then the cause is said (ELOOP, ENAMETOOLONG), not a missing file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'maou-src-'));
    symlinkSync('b', join(dir, 'a'));
    symlinkSync('a', join(dir, 'b'));
    await expect(new LocalFileSourceAdapter(3, [join(dir, 'a')]).shards()).rejects.toThrow(
      `file ${join(dir, 'a')}: symlink loop (ELOOP): a symlink on this path points back to itself`,
    );
    const long = join(dir, ...Array.from({ length: 21 }, () => 'd'.repeat(200)));
    await expect(new LocalFileSourceAdapter(3, [long]).shards()).rejects.toThrow(
      `(${long.length} characters)…${long.slice(-120)}: name too long (ENAMETOOLONG: a path is at most 4,095 bytes and each name in it at most 255)`,
    );
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

  it('given one file named twice (repeated, through .., through a symlink, inside a directory also given), then it is one shard and the note names the drops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'maou-src-'));
    mkdirSync(join(dir, 'd3'));
    copyFileSync(join(FIXTURES_DIR, 'stage3.lz4.feather'), join(dir, 'd3', 'x.feather'));
    copyFileSync(join(FIXTURES_DIR, 'stage3.lz4.feather'), join(dir, 'd3', 'y.feather'));
    symlinkSync(join(dir, 'd3', 'x.feather'), join(dir, 'link.feather'));
    const x = join(dir, 'd3', 'x.feather');
    const source = new LocalFileSourceAdapter(3, [
      join(dir, 'd3'),
      join(dir, 'd3'),
      `${dir}/d3/../d3/x.feather`,
      join(dir, 'link.feather'),
    ]);
    expect((await source.shards()).map((s) => s.path)).toEqual([x, join(dir, 'd3', 'y.feather')]);
    expect(source.describe()).toBe(
      `local files (${join(dir, 'd3')}, ${join(dir, 'd3')}, ${dir}/d3/../d3/x.feather, ${join(dir, 'link.feather')}; ` +
        `dropped as given twice: ${x}, ${join(dir, 'd3', 'y.feather')}, ${x}, ${join(dir, 'link.feather')})`,
    );
  });

  it('given a FIFO, a character device or a socket as the data path, then it is refused by name and kind', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'maou-src-'));
    execFileSync('mkfifo', [join(dir, 'fifo')]);
    const server = createServer();
    await new Promise<void>((done) => server.listen(join(dir, 'sock'), done));
    try {
      for (const [path, kind] of [
        [join(dir, 'fifo'), 'FIFO'],
        ['/dev/zero', 'character device'],
        ['/dev/urandom', 'character device'],
        [join(dir, 'sock'), 'socket'],
      ])
        await expect(new LocalFileSourceAdapter(3, [path!]).shards()).rejects.toThrow(
          `file ${path}: is a ${kind}, not a data file or a directory of them`,
        );
    } finally {
      server.close();
    }
  });
});
