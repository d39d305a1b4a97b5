import 'reflect-metadata';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkOutputDir, checkOutputFile } from './output-paths';

describe('checkOutputFile and checkOutputDir', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maou-out-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('accepts an absent flag, a new file and an existing file in an existing directory', async () => {
    await writeFile(join(dir, 'old.html'), 'x');
    expect([
      checkOutputFile('--report-html', undefined),
      checkOutputFile('--report-html', join(dir, 'new.html')),
      checkOutputFile('--report-html', join(dir, 'old.html')),
    ]).toEqual([null, null, null]);
  });

  it('names the flag for a missing directory, a directory target and an empty path', () => {
    expect(checkOutputFile('--output-json', join(dir, 'nope', 'r.json'))).toEqual({
      field: '--output-json',
      message: `directory ${join(dir, 'nope')} does not exist`,
    });
    expect(checkOutputFile('--report-html', dir)?.message).toMatch(/ is a directory; name a file such as /);
    expect(checkOutputFile('--trace-path', ' ')).toEqual({ field: '--trace-path', message: 'the path is empty' });
  });

  it('given a file used as a directory or a read-only file system, then the flag is named (even for root)', async () => {
    await writeFile(join(dir, 'plain'), 'x');
    expect(checkOutputFile('--output-json', join(dir, 'plain', 'r.json'))).toEqual({
      field: '--output-json',
      message: `${join(dir, 'plain')} is not a directory`,
    });
    // procfs refuses new files in a process directory: access(W_OK) fails there even for root.
    expect(checkOutputFile('--trace-path', '/proc/self/maou-trace.json')?.message).toBe(
      'directory /proc/self is not writable',
    );
  });

  it('given a directory to create, then its nearest existing ancestor decides', async () => {
    await writeFile(join(dir, 'file'), 'x');
    expect(checkOutputDir('--output-dir', join(dir, 'a', 'b', 'c'))).toBeNull();
    expect(checkOutputDir('--sample-cache-dir', join(dir, 'file', 'sub'))?.message).toBe(
      `${join(dir, 'file')} (the nearest existing part of ${join(dir, 'file', 'sub')}) is not a directory`,
    );
    expect(checkOutputFile('--calibration-file', join(dir, 'x', 'y', 'c.json'), { createsParent: true })).toBeNull();
  });
});
