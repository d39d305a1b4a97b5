import { PythonRandom } from '../random/python-random';

/** The seed maou's streaming split draws from: fixed, whatever the run's own seed. @public */
export const MAOU_FILE_SPLIT_SEED = 42;

/** Python's order of two strings: by code point (JavaScript's `<` compares UTF-16 units, which differ past U+FFFF). */
const compareCodePoints = (a: string, b: string): number => {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
};

/**
 * The order of Python's `sorted()` over `pathlib` paths: component by component (so `a/x` sorts before `a-b/x`,
 * where the whole strings would not), each component by code point. Paths are taken as written with `/`.
 * @public
 */
export const comparePythonPaths = (a: string, b: string): number => {
  const x = a.split('/');
  const y = b.split('/');
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = compareCodePoints(x[i]!, y[i]!);
    if (d !== 0) return d;
  }
  return x.length - y.length;
};

/**
 * maou's file-level split of a streaming dataset: the files in path order, shuffled by `random.Random(42)`,
 * `max(1, int(n × ratio))` of them held out for validation, at least one left to train; train is the shuffled list's
 * head, validation its tail. A ratio of 0 (Stage 2's default) holds none out and, as maou, leaves the path order. The
 * same files on both sides give the same split.
 * @public
 */
export const maouFileSplit = <T>(
  files: readonly T[],
  pathOf: (file: T) => string,
  ratio: number,
): { readonly train: T[]; readonly validation: T[] } => {
  const sorted = [...files].sort((a, b) => comparePythonPaths(pathOf(a), pathOf(b)));
  if (!(ratio > 0)) return { train: sorted, validation: [] };
  const shuffled = new PythonRandom(MAOU_FILE_SPLIT_SEED).shuffle(sorted);
  const n = shuffled.length;
  let nVal = Math.max(1, Math.floor(n * ratio));
  if (n - nVal < 1) nVal = Math.max(0, n - 1);
  return { train: shuffled.slice(0, n - nVal), validation: shuffled.slice(n - nVal) };
};
