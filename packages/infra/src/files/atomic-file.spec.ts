import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outputTarget, writeFileAtomic, writeFileAtomicSync, type OutputKind } from './atomic-file';

// The files these cases replace are the spec's own (anything but Arrow); the rule's own cases are at the end.
const OURS: OutputKind = { what: 'a test file', owns: (head) => !head.startsWith('ARROW1') };

// mknod needs root (CAP_MKNOD); as anyone else the device cases are skipped, and say so.
const asRoot = process.getuid?.() === 0;
const itAsRoot = asRoot ? it : it.skip;
if (!asRoot) console.warn('atomic-file.spec: not root, so the character-device cases are skipped (mknod needs root)');

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
      await Promise.all([writeFileAtomic(path, a, OURS), writeFileAtomic(path, b, OURS)]);
      const left = await readFile(path);
      expect(left.equals(a) || left.equals(b)).toBe(true);
      expect(await readdir(dir)).toEqual(['report.json']);
    }
  });

  it('given a target that cannot be replaced, then it throws, leaves the target as it was and no temporary file', async () => {
    const path = join(dir, 'taken');
    await mkdir(path);
    await writeFile(join(path, 'inside'), 'kept');
    await expect(writeFileAtomic(path, 'new', OURS)).rejects.toThrow(/is a directory/);
    expect(await readdir(dir)).toEqual(['taken']);
    expect(await readFile(join(path, 'inside'), 'utf8')).toBe('kept');
  });

  it('given a missing directory, then it throws ENOENT and creates nothing', async () => {
    await expect(writeFileAtomic(join(dir, 'no', 'such.json'), 'x', OURS)).rejects.toThrow(/ENOENT/);
    expect(await readdir(dir)).toEqual([]);
  });

  // A second Ctrl-C exits at once (process.exit) while the report may be half written: CI once found the temporary
  // file left beside a complete report. The child exits as soon as the temporary file exists.
  it('given a process that exits mid-write, then the temporary file is removed and the old file stays', () => {
    const path = join(dir, 'report.json');
    const child = `
      const { writeFileSync, readdirSync } = require('node:fs');
      const { writeFileAtomic } = require(${JSON.stringify(join(__dirname, 'atomic-file.ts'))});
      writeFileSync(${JSON.stringify(path)}, 'old');
      const poll = setInterval(() => {
        if (readdirSync(${JSON.stringify(dir)}).some((n) => n.endsWith('.tmp'))) {
          process.stdout.write('exiting mid-write');
          process.exit(130);
        }
      }, 0);
      writeFileAtomic(${JSON.stringify(path)}, Buffer.alloc(256 * 2 ** 20, 'n'), { what: 'a test file', owns: () => true }).then(() => {
        clearInterval(poll);
        process.stdout.write('the write finished first');
      });`;
    const r = spawnSync(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), '-e', child], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect({ status: r.status, stdout: r.stdout, left: readdirSync(dir) }).toEqual({
      status: 130,
      stdout: 'exiting mid-write',
      left: ['report.json'],
    });
    expect(readFileSync(path, 'utf8')).toBe('old');
  });

  it('given a process that exits in the same tick as the write starts, then no temporary file is left', () => {
    const path = join(dir, 'report.json');
    const child = `
      const { writeFileAtomic } = require(${JSON.stringify(join(__dirname, 'atomic-file.ts'))});
      void writeFileAtomic(${JSON.stringify(path)}, 'new', { what: 'a test file', owns: () => true });
      process.exit(130);`;
    const r = spawnSync(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), '-e', child], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect({ status: r.status, left: readdirSync(dir) }).toEqual({ status: 130, left: [] });
  });

  it('given the sync variant, then it replaces the file whole and cleans up after a failure the same way', async () => {
    const path = join(dir, 'stub.json');
    await writeFile(path, 'old');
    writeFileAtomicSync(path, '{"interrupted": true}\n', OURS);
    expect(await readFile(path, 'utf8')).toBe('{"interrupted": true}\n');
    await mkdir(join(dir, 'taken'));
    await writeFile(join(dir, 'taken', 'inside'), 'kept');
    expect(() => writeFileAtomicSync(join(dir, 'taken'), 'x', OURS)).toThrow(/is a directory/);
    expect((await readdir(dir)).sort()).toEqual(['stub.json', 'taken']);
  });
});

describe('the output rule: what is not a regular file is never replaced', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maou-special-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  itAsRoot(
    'given a character device (a copy of /dev/null), then it is written in place and stays a device',
    async () => {
      const dev = join(dir, 'null');
      execFileSync('mknod', [dev, 'c', '1', '3']);
      const before = statSync(dev);
      await writeFileAtomic(dev, '{"a": 1}\n', OURS);
      writeFileAtomicSync(dev, '{"a": 2}\n', OURS);
      const after = statSync(dev);
      expect({ char: after.isCharacterDevice(), ino: after.ino, rdev: after.rdev }).toEqual({
        char: true,
        ino: before.ino,
        rdev: before.rdev,
      });
      expect(await readdir(dir)).toEqual(['null']);
    },
  );

  itAsRoot(
    'given a full device (a copy of /dev/full), then the write fails with ENOSPC and the device stays',
    async () => {
      const full = join(dir, 'full');
      execFileSync('mknod', [full, 'c', '1', '7']);
      await expect(writeFileAtomic(full, 'x', OURS)).rejects.toThrow(/ENOSPC/);
      expect(lstatSync(full).isCharacterDevice()).toBe(true);
      expect(await readdir(dir)).toEqual(['full']);
    },
  );

  it('given a FIFO with a reader, then the reader gets the bytes and the FIFO stays; without one, a named error', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const reader = spawn('cat', [fifo]);
    const got: Buffer[] = [];
    reader.stdout.on('data', (b: Buffer) => got.push(b));
    const closed = new Promise((done) => reader.on('close', done));
    // cat opens the FIFO a moment after it starts; until then the FIFO has no reader.
    for (
      let i = 0;
      i < 100 &&
      !(await writeFileAtomic(fifo, 'through the pipe\n', OURS).then(
        () => true,
        () => false,
      ));
      i++
    )
      await new Promise((r) => setTimeout(r, 20));
    await closed;
    expect(Buffer.concat(got).toString()).toBe('through the pipe\n');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(() => writeFileAtomicSync(fifo, 'x', OURS)).toThrow(`FIFO ${fifo} has no reader`);
    expect(await readdir(dir)).toEqual(['fifo']);
  });

  // A reader that leaves at end-of-file (`cat`, `>(jq .)`) must still get the report: the first version closed its
  // non-blocking probe before the real open, the reader saw end-of-file and left, and the open then blocked for ever
  // (it hung 50 of 50 rounds in a child; the child runs with a time limit so a regression fails instead of hanging).
  it('given FIFO readers that leave at end-of-file, then each gets the whole report and no write blocks', () => {
    const child = `
      const { writeFileAtomicSync } = require(${JSON.stringify(join(__dirname, 'atomic-file.ts'))});
      const { spawn, execFileSync } = require('node:child_process');
      (async () => {
        for (let round = 0; round < 50; round++) {
          const fifo = ${JSON.stringify(dir)} + '/f' + round;
          execFileSync('mkfifo', [fifo]);
          const reader = spawn('cat', [fifo]);
          let got = '';
          reader.stdout.on('data', (b) => (got += b));
          const closed = new Promise((done) => reader.on('close', done));
          for (let i = 0; i < 500; i++) {
            try { writeFileAtomicSync(fifo, 'round ' + round + '\\n', { what: 'a test file', owns: () => true }); break; }
            catch (e) { if (!/no reader/.test(e.message)) throw e; await new Promise((r) => setTimeout(r, 5)); }
          }
          await closed;
          if (got !== 'round ' + round + '\\n') throw new Error('round ' + round + ' got ' + JSON.stringify(got));
        }
        process.stdout.write('50 rounds');
      })();`;
    const r = spawnSync(process.execPath, ['-r', require.resolve('ts-node/register/transpile-only'), '-e', child], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect({ signal: r.signal, stdout: r.stdout, stderr: r.stderr }).toEqual({
      signal: null,
      stdout: '50 rounds',
      stderr: '',
    });
  });

  it('given a symlink, then its target is replaced and the link stays a link; a dangling one is refused', async () => {
    await writeFile(join(dir, 'real.json'), 'old');
    await symlink('real.json', join(dir, 'link.json'));
    await writeFileAtomic(join(dir, 'link.json'), 'new', OURS);
    expect(readlinkSync(join(dir, 'link.json'))).toBe('real.json');
    expect(await readFile(join(dir, 'real.json'), 'utf8')).toBe('new');
    await symlink('missing.json', join(dir, 'dangling.json'));
    await expect(writeFileAtomic(join(dir, 'dangling.json'), 'x', OURS)).rejects.toThrow(
      /is a symlink to a missing file/,
    );
    expect((await readdir(dir)).sort()).toEqual(['dangling.json', 'link.json', 'real.json']);
  });

  it('given a socket, then it is refused by kind', async () => {
    const sock = join(dir, 'sock');
    const server = createServer();
    await new Promise<void>((done) => server.listen(sock, done));
    try {
      expect(outputTarget(sock, OURS)).toEqual({ kind: 'refuse', reason: `${sock} is a socket; name a regular file` });
      await expect(writeFileAtomic(sock, 'x', OURS)).rejects.toThrow(/is a socket/);
    } finally {
      server.close();
    }
  });
});

// The write rule (README "Output files"): an existing file is replaced only when empty or of the kind being written,
// by its marker; anything else is refused by name, before a byte is written, and stays as it was.
describe('the write rule: only files this product wrote are replaced', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maou-owned-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("given a file without the kind's marker, then it is refused by name and kept; an empty one is replaced", async () => {
    const theirs = join(dir, 'transformed.feather');
    await writeFile(theirs, "ARROW1 someone else's data");
    await expect(writeFileAtomic(theirs, '{"a": 1}', OURS)).rejects.toThrow(
      `cannot write ${theirs}: ${theirs} exists and is not a test file; maou-bench never replaces a file it did not write: move it away or name another path`,
    );
    expect(await readFile(theirs, 'utf8')).toBe("ARROW1 someone else's data");
    await writeFile(join(dir, 'empty'), '');
    writeFileAtomicSync(join(dir, 'empty'), 'new', OURS);
    expect(await readFile(join(dir, 'empty'), 'utf8')).toBe('new');
    expect((await readdir(dir)).sort()).toEqual(['empty', 'transformed.feather']);
  });

  it('given a legal name of 250 bytes (multi-byte too), then the temporary name fits 255 and the file is written', async () => {
    for (const name of [`${'r'.repeat(245)}.json`, `${'é'.repeat(122)}.json`]) {
      expect(Buffer.byteLength(name)).toBeGreaterThanOrEqual(249);
      await writeFileAtomic(join(dir, name), '{}', OURS);
      expect(await readFile(join(dir, name), 'utf8')).toBe('{}');
    }
    expect(await readdir(dir)).toHaveLength(2);
  });

  itAsRoot('given a full filesystem (a 64 KiB tmpfs), then the error names the path and ENOSPC in words', async () => {
    const mnt = join(dir, 'full');
    await mkdir(mnt);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt]);
    try {
      const path = join(mnt, 'report.json');
      await expect(writeFileAtomic(path, Buffer.alloc(256 * 1024, 1), OURS)).rejects.toThrow(
        `cannot write ${path}: no space left on the device (ENOSPC); free space on that filesystem or write to another`,
      );
      expect(await readdir(mnt)).toEqual([]);
    } finally {
      execFileSync('umount', [mnt]);
    }
  });
});
