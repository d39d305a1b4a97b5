import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

// The limit is the process's own, so each case runs in a child started with the heap it asks about.
const refusalUnder = (oldSpaceMiB: number, positions: number): string => {
  const child = `
    const { jsHeapRefusal, sampleGenerationHeap } = require(${JSON.stringify(join(__dirname, 'js-heap.ts'))});
    process.stdout.write(String(jsHeapRefusal(sampleGenerationHeap(${positions}), 'generating ${positions} positions')));`;
  const r = spawnSync(
    process.execPath,
    [`--max-old-space-size=${oldSpaceMiB}`, '-r', require.resolve('ts-node/register/transpile-only'), '-e', child],
    { encoding: 'utf8', timeout: 60_000 },
  );
  return r.stdout;
};

describe('jsHeapRefusal (the heap beside the address space)', () => {
  it('given --max-old-space-size=32 and 16,384 positions (V8 aborted there), then a refusal naming the limit, the need and the flag', () => {
    expect(refusalUnder(32, 16384)).toMatch(
      /^the JS heap limit is \d+ MiB \(V8's heap_size_limit, set by --max-old-space-size\) with \d+ MiB in use, and generating 16384 positions needs about 64 MiB more: give NODE_OPTIONS=--max-old-space-size=\d+ or more$/,
    );
  });

  it('given room enough (the default sample of 4,096 under 32 MiB; a million positions under 4 GiB), then none', () => {
    expect(refusalUnder(32, 4096)).toBe('null');
    expect(refusalUnder(4096, 1_000_000)).toBe('null');
  });
});
