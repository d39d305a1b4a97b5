import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic, writeFileAtomicSync } from './atomic-file';

describe('writeFileAtomic', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maou-atomic-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('given two concurrent writers of one path, then one complete file is left and no temporary file', async () => {
    const path = join(dir, 'report.json');
    // Large enough that each write takes several chunks, so the two interleave.
    const a = Buffer.alloc(8 * 2 ** 20, 'a');
    const b = Buffer.alloc(6 * 2 ** 20, 'b');
    for (let round = 0; round < 5; round += 1) {
      await Promise.all([writeFileAtomic(path, a), writeFileAtomic(path, b)]);
      const left = await readFile(path);
      expect(left.equals(a) || left.equals(b)).toBe(true);
      expect(await readdir(dir)).toEqual(['report.json']);
    }
  });

  it('given a target that cannot be replaced, then it throws, leaves the target as it was and no temporary file', async () => {
    const path = join(dir, 'taken');
    await mkdir(path);
    await writeFile(join(path, 'inside'), 'kept');
    await expect(writeFileAtomic(path, 'new')).rejects.toThrow(/EISDIR|ENOTEMPTY|EEXIST|EPERM/);
    expect(await readdir(dir)).toEqual(['taken']);
    expect(await readFile(join(path, 'inside'), 'utf8')).toBe('kept');
  });

  it('given a missing directory, then it throws ENOENT and creates nothing', async () => {
    await expect(writeFileAtomic(join(dir, 'no', 'such.json'), 'x')).rejects.toThrow(/ENOENT/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('given the sync variant, then it replaces the file whole and cleans up after a failure the same way', async () => {
    const path = join(dir, 'stub.json');
    await writeFile(path, 'old');
    writeFileAtomicSync(path, '{"interrupted": true}\n');
    expect(await readFile(path, 'utf8')).toBe('{"interrupted": true}\n');
    await mkdir(join(dir, 'taken'));
    await writeFile(join(dir, 'taken', 'inside'), 'kept');
    expect(() => writeFileAtomicSync(join(dir, 'taken'), 'x')).toThrow(/EISDIR|ENOTEMPTY|EEXIST|EPERM/);
    expect((await readdir(dir)).sort()).toEqual(['stub.json', 'taken']);
  });
});
