import { comparePythonPaths, maouFileSplit } from '../data/maou-file-split';
import { PythonRandom } from './python-random';
// What CPython 3 printed (testdata/python-random-vectors.py writes it).
import vectors from './testdata/python-random-vectors.json';

describe('PythonRandom against CPython', () => {
  it.each(vectors.streams)('given random.Random($seed), then the same 32-bit words and getrandbits', (v) => {
    const r = new PythonRandom(v.seed);
    expect(Array.from({ length: 8 }, () => r.getrandbits(32))).toEqual(v.first);
    // past three regenerations of the 624-word table
    for (let i = 0; i < 2000; i++) r.getrandbits(32);
    expect(Array.from({ length: 4 }, () => r.getrandbits(32))).toEqual(v.after2008);
    expect(v.bits.map(([k]) => [k, r.getrandbits(k!)])).toEqual(v.bits);
  });

  it.each(vectors.shuffles)('given Random($seed).shuffle of $n items, then the same order', (v) => {
    const items = Array.from({ length: v.n }, (_, i) => i);
    expect(new PythonRandom(v.seed).shuffle(items)).toEqual(v.shuffled);
  });

  it('given a seed that is not a safe integer or a k out of range, then a RangeError naming it', () => {
    expect(() => new PythonRandom(0.5)).toThrow(/seed must be a safe integer, got 0.5/);
    expect(() => new PythonRandom(1).getrandbits(54)).toThrow(/k must be 1 to 53, got 54/);
    expect(() => new PythonRandom(1).randbelow(0)).toThrow(/n must be a positive integer, got 0/);
  });
});

describe("maou's file split", () => {
  it("given paths with '-', '.', spaces, accents and emoji, then sorted as Python sorts pathlib paths", () => {
    for (const v of vectors.path_orders) expect([...v.paths].sort(comparePythonPaths)).toEqual(v.sorted);
  });

  it.each(vectors.splits.map((v) => ({ ...v, n: v.paths.length })))(
    'given $n files and ratio $ratio, then the train and validation files maou picks, in its order',
    (v) => {
      // given in reverse: the split depends on the paths, not on the order they were listed in
      const split = maouFileSplit([...v.paths].reverse(), (p) => p, v.ratio);
      expect(split).toEqual({ train: v.train, validation: v.validation });
    },
  );

  it('given a ratio of 0, then no file is held out; given one file, then it trains', () => {
    // maou's Stage 2 at ratio 0 streams the collected (sorted) paths unshuffled
    expect(maouFileSplit(['/b', '/a'], (p) => p, 0)).toEqual({ train: ['/a', '/b'], validation: [] });
    expect(maouFileSplit(['/a'], (p) => p, 0.2)).toEqual({ train: ['/a'], validation: [] });
    expect(maouFileSplit([], (p: string) => p, 0.2)).toEqual({ train: [], validation: [] });
  });
});
