import { pyarrowOrFail } from '@maou/bench-testkit/arrow';
import { runHostile } from '@maou/bench-testkit/fuzz';

// The "hostile but valid" class at CI sizes (each file written by pyarrow, read in a fresh child process from the
// built code: `pnpm build` first). `pnpm fuzz:readers -- --hostile-scale 5` runs it at five times the sizes.
describe('readers under hostile but valid Arrow files', () => {
  const needPyarrow = pyarrowOrFail();

  it('given extreme shapes (10 M rows of empty lists, 10 k columns, duplicate names, dictionary and null columns), then each is refused naming what is wrong, or read, as stated', async () => {
    needPyarrow();
    const figures = await runHostile();
    expect(figures.filter((f) => !f.ok).map((f) => `${f.name}: ${f.outcome}`)).toEqual([]);
    // Refused at its first record batch: before the check streamed, the whole 40 MB file was decoded and its columns
    // built first (8.8 s and 870 MB of resident memory to reject row 0).
    const empty = figures.find((f) => f.name === '10 M rows of empty lists')!;
    expect({ bytes: empty.bytes > 40e6, belowMiB: empty.childRssBytes < 300 * 2 ** 20 }).toEqual({
      bytes: true,
      belowMiB: true,
    });
  }, 240_000);
});
