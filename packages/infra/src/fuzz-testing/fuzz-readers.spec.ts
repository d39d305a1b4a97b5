import { runFuzz } from './fuzz-runner';
import { FUZZ_TARGETS } from './fuzz-targets';

// The short fuzz run of #19 (the child processes run the built code: `pnpm build` first, as CI does).
// `pnpm fuzz:readers` runs the long one and prints the silent-acceptance rate per reader and mutation class.
describe('readers under damaged inputs (short fuzz run)', () => {
  it('given 35 damaged copies per reader, then each is rejected naming the file or read as valid: no untyped error, hang or crash', async () => {
    const figures = await runFuzz({ seed: 19, perReader: 35, seconds: 150, timeoutMs: 15_000 });
    expect(figures.problems).toEqual([]);
    expect(Object.keys(figures.counts).sort()).toEqual(Object.keys(FUZZ_TARGETS).sort());
    for (const [target, byClass] of Object.entries(figures.counts)) {
      expect({ target, classes: Object.keys(byClass).length }).toEqual({ target, classes: 7 });
      // A file cut in its header or emptied is never data (an empty LZ4 buffer is zero frames, which is valid).
      if (target !== 'lz4-frame') expect({ target, empty: byClass.empty.rejected }).toEqual({ target, empty: byClass.empty.inputs });
    }
    expect(figures.maxChildRssBytes).toBeLessThan(768 * 2 ** 20);
  }, 200_000);
});
