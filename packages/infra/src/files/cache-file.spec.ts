import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cachedCopy, writeCachedFile } from './cache-file';
import { Sha256 } from './sha256';

describe('writeCachedFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maou-cache-file-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const fillWith =
    (bytes: Buffer, during?: () => Promise<void>) =>
    async (temp: string): Promise<string> => {
      await writeFile(temp, bytes, { flag: 'wx' });
      await during?.();
      return Sha256.of(bytes);
    };

  it('given a new path, then the file and its SHA-256 record are written, and the copy reads as intact', async () => {
    const path = join(dir, 'a.feather');
    await writeCachedFile(path, fillWith(Buffer.from('object bytes')));
    expect(await readdir(dir)).toEqual(['a.feather', 'a.feather.sha256']);
    expect(await readFile(`${path}.sha256`, 'utf8')).toBe(`${Sha256.of(Buffer.from('object bytes'))}\n`);
    expect(await cachedCopy(path, 12)).toBe('intact');
    expect(await cachedCopy(path, 13)).toBe('missing');
  });

  it('given its own copy changed in place, then it reads as damaged and is replaced by the next write', async () => {
    const path = join(dir, 'a.feather');
    await writeCachedFile(path, fillWith(Buffer.from('object bytes')));
    await writeFile(path, 'OBJECT bytes');
    expect(await cachedCopy(path, 12)).toBe('damaged');
    await writeCachedFile(path, fillWith(Buffer.from('object bytes')));
    expect(await readFile(path, 'utf8')).toBe('object bytes');
    expect(await cachedCopy(path, 12)).toBe('intact');
  });

  // The target is checked again after the fill: a long download leaves time for a file to appear.
  it("given the user's file appears at the target while the fill runs, then it is refused and kept, with no record and no temporary file", async () => {
    const path = join(dir, 'a.feather');
    const write = writeCachedFile(
      path,
      fillWith(Buffer.from('object bytes'), () => writeFile(path, 'theirs')),
    );
    await expect(write).rejects.toThrow(
      `cannot write ${path}: ${path} exists and is not a file cached by maou-bench (its SHA-256 recorded in <name>.sha256 beside it); maou-bench never replaces a file it did not write: move it away or name another path`,
    );
    expect(await readFile(path, 'utf8')).toBe('theirs');
    expect(await readdir(dir)).toEqual(['a.feather']);
  });
});
