import 'reflect-metadata';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CALIBRATION_FILE, HTML_REPORT, JSON_REPORT, TRACE_FILE } from '@maou/bench-infra';
import { checkOutputDir, checkOutputFile } from './output-paths';

describe('checkOutputFile and checkOutputDir', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maou-out-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('accepts an absent flag, a new file, an empty file and a report this product wrote', async () => {
    await writeFile(
      join(dir, 'old.html'),
      '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">\n<meta name="generator" content="maou-bench">\n',
    );
    await writeFile(join(dir, 'empty.html'), '');
    expect([
      checkOutputFile('--report-html', undefined, HTML_REPORT),
      checkOutputFile('--report-html', join(dir, 'new.html'), HTML_REPORT),
      checkOutputFile('--report-html', join(dir, 'empty.html'), HTML_REPORT),
      checkOutputFile('--report-html', join(dir, 'old.html'), HTML_REPORT),
    ]).toEqual([null, null, null, null]);
  });

  it('given an existing file this product did not write (or of another kind), then the flag and the file are named', async () => {
    await writeFile(join(dir, 'notes.html'), '<!doctype html><p>my notes</p>');
    await writeFile(join(dir, 'cal.json'), '{\n  "formatVersion": 1,\n  "entries": {}\n}\n');
    expect(checkOutputFile('--report-html', join(dir, 'notes.html'), HTML_REPORT)?.message).toBe(
      `${join(dir, 'notes.html')} exists and is not an HTML report written by maou-bench (<meta name="generator" content="maou-bench">); maou-bench never replaces a file it did not write: move it away or name another path`,
    );
    expect(checkOutputFile('--output-json', join(dir, 'cal.json'), JSON_REPORT)?.message).toMatch(
      /cal\.json exists and is not a report written by maou-bench/,
    );
    expect(checkOutputFile('--calibration-file', join(dir, 'cal.json'), CALIBRATION_FILE)).toBeNull();
  });

  it('given each report the commands write, then it is known as a report (by its $schema or its command)', async () => {
    const heads = {
      // benchmark-dataloader: its "command" comes after long blocks; the $schema first tells
      'dataloader.json':
        '{\n  "$schema": "urn:maou-bench:schema:benchmark-dataloader-report:1",\n  "benchmark_results": {',
      'compare.json': '{\n  "schema_version": 1,\n  "command": "benchmark-compare",\n',
      'io.json': '{\n  "command": "benchmark-io",\n  "stage": 3,\n',
    };
    for (const [name, head] of Object.entries(heads)) {
      await writeFile(join(dir, name), head);
      expect(checkOutputFile('--output-json', join(dir, name), JSON_REPORT)).toBeNull();
    }
  });

  it('given a legal name of 250 bytes, then it is accepted (its temporary name is clipped to fit 255)', () => {
    expect(checkOutputFile('--output-json', join(dir, `${'r'.repeat(245)}.json`), JSON_REPORT)).toBeNull();
  });

  it('given a symlink loop or a name over 255 bytes, then the cause is said, not "does not exist"', async () => {
    const { symlink } = await import('node:fs/promises');
    await symlink('loop', join(dir, 'loop'));
    expect(checkOutputFile('--output-json', join(dir, 'loop'), JSON_REPORT)?.message).toBe(
      `${join(dir, 'loop')}: symlink loop (ELOOP): a symlink on this path points back to itself`,
    );
    expect(checkOutputFile('--output-json', join(dir, `${'r'.repeat(256)}.json`), JSON_REPORT)?.message).toMatch(
      /: name too long \(ENAMETOOLONG: a path is at most 4,095 bytes and each name in it at most 255\)$/,
    );
  });

  it('names the flag for a missing directory, a directory target and an empty path', () => {
    expect(checkOutputFile('--output-json', join(dir, 'nope', 'r.json'), JSON_REPORT)).toEqual({
      field: '--output-json',
      message: `directory ${join(dir, 'nope')} does not exist`,
    });
    expect(checkOutputFile('--report-html', dir, HTML_REPORT)?.message).toMatch(
      / is a directory; name a file such as /,
    );
    expect(checkOutputFile('--trace-path', ' ', TRACE_FILE)).toEqual({
      field: '--trace-path',
      message: 'the path is empty',
    });
  });

  it('given a file used as a directory or a read-only file system, then the flag is named (even for root)', async () => {
    await writeFile(join(dir, 'plain'), 'x');
    expect(checkOutputFile('--output-json', join(dir, 'plain', 'r.json'), JSON_REPORT)).toEqual({
      field: '--output-json',
      message: `${join(dir, 'plain')} is not a directory`,
    });
    // procfs refuses new files in a process directory: access(W_OK) fails there even for root.
    expect(checkOutputFile('--trace-path', '/proc/self/maou-trace.json', TRACE_FILE)?.message).toBe(
      'directory /proc/self is not writable',
    );
  });

  it('given a directory to create, then its nearest existing ancestor decides', async () => {
    await writeFile(join(dir, 'file'), 'x');
    expect(checkOutputDir('--output-dir', join(dir, 'a', 'b', 'c'))).toBeNull();
    expect(checkOutputDir('--sample-cache-dir', join(dir, 'file', 'sub'))?.message).toBe(
      `${join(dir, 'file')} (the nearest existing part of ${join(dir, 'file', 'sub')}) is not a directory`,
    );
    expect(
      checkOutputFile('--calibration-file', join(dir, 'x', 'y', 'c.json'), CALIBRATION_FILE, { createsParent: true }),
    ).toBeNull();
  });
});
