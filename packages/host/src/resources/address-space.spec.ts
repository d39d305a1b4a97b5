import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fitAddressSpace,
  parseAddressSpaceLimit,
  readAddressSpace,
  wasmAddressSpaceNeed,
  wasmHeapLimit,
} from './address-space';

const GIB = 1024 ** 3;
// The layout of /proc/self/limits, as the kernel writes it (columns padded with spaces).
const limits = (soft: string, hard = 'unlimited') =>
  [
    'Limit                     Soft Limit           Hard Limit           Units     ',
    'Max cpu time              unlimited            unlimited            seconds   ',
    `Max address space         ${soft.padEnd(20)} ${hard.padEnd(20)} bytes     `,
    'Max file locks            unlimited            unlimited            locks     ',
  ].join('\n');

describe('address-space limit (RLIMIT_AS)', () => {
  it('reads the soft limit of /proc/self/limits; "unlimited" and a missing line are no limit', () => {
    expect(parseAddressSpaceLimit(limits(`${8 * GIB}`))).toBe(8 * GIB);
    expect(parseAddressSpaceLimit(limits('unlimited', `${8 * GIB}`))).toBeNull();
    expect(parseAddressSpaceLimit('')).toBeNull();
  });

  it('reads this process: the real file parses, and --disable-wasm-trap-handler turns guard regions off', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'maou-limits-'));
    try {
      await writeFile(join(dir, 'limits'), limits(`${4 * GIB}`));
      expect(await readAddressSpace(join(dir, 'limits'), ['--disable-wasm-trap-handler'])).toEqual({
        limitBytes: 4 * GIB,
        guardRegions: false,
      });
      const self = await readAddressSpace();
      expect(self.limitBytes === null || self.limitBytes > 0).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('given guard regions and 8 GiB, then even one thread cannot fit: refused naming the limit, the need and the flag', () => {
    const fit = fitAddressSpace(
      { limitBytes: 8 * GIB, guardRegions: true },
      { threads: 2, workers: 1 },
      {
        threads: false,
        workers: false,
      },
    );
    expect(fit).toEqual({
      ok: false,
      message: expect.stringMatching(
        /^the address-space limit \(RLIMIT_AS.*\) is 8\.0 GiB; the wasm backend with 1 thread\(s\) and 0 loader worker\(s\) needs about 21\.0 GiB: .*--disable-wasm-trap-handler/,
      ),
    });
  });

  it('given 24 GiB with guard regions, then derived threads shrink to one replica-free backend and a loader worker', () => {
    expect(
      fitAddressSpace(
        { limitBytes: 24 * GIB, guardRegions: true },
        { threads: 2, workers: 1 },
        {
          threads: false,
          workers: false,
        },
      ),
    ).toEqual({ ok: true, threads: 1, workers: 1, reduced: true });
  });

  it('given no guard regions, then 4 GiB fits one thread, and --threads 2 given by the user is refused, not changed', () => {
    const space = { limitBytes: 4 * GIB, guardRegions: false };
    expect(fitAddressSpace(space, { threads: 2, workers: 1 }, { threads: false, workers: false })).toEqual({
      ok: true,
      threads: 1,
      workers: 0,
      reduced: true,
    });
    const given = fitAddressSpace(space, { threads: 2, workers: 1 }, { threads: true, workers: false });
    expect(given.ok ? '' : given.message).toMatch(
      /with 2 thread\(s\) and 0 loader worker\(s\) needs about .*--threads/,
    );
  });

  it('given no limit, then nothing changes; heaps stay at 4 GiB unless memory or the address space left is smaller', () => {
    expect(
      fitAddressSpace(
        { limitBytes: null, guardRegions: true },
        { threads: 2, workers: 1 },
        {
          threads: false,
          workers: false,
        },
      ),
    ).toEqual({ ok: true, threads: 2, workers: 1, reduced: false });
    expect(wasmHeapLimit({ limitBytes: null, guardRegions: true }, 64 * GIB, 2)).toBe(4 * GIB);
    expect(wasmHeapLimit({ limitBytes: null, guardRegions: true }, 6 * GIB, 2)).toBe(2 * GIB);
    // 8 GiB without guard regions, one thread: 8 - 2 (backend) - 1 (two loader workers) = 5 GiB, halved for growth.
    expect(wasmHeapLimit({ limitBytes: 8 * GIB, guardRegions: false }, 64 * GIB, 1)).toBe(2.5 * GIB);
    expect(wasmAddressSpaceNeed(1, 0, false)).toBe(4 * GIB);
  });
});
