type Range = readonly [start: number, end: number];

/** Where in a file the mutations aim: its magic/header, its metadata (flatbuffers, npy header, frame descriptor), its body. */
interface Regions {
  readonly header: Range;
  readonly metadata: readonly Range[];
  readonly body: readonly Range[];
}

/** The mutation classes whose silent-acceptance rates are reported separately. @internal */
export const MUTATION_CLASSES = [
  'empty',
  'wrong-magic',
  'truncate',
  'flip-header',
  'flip-metadata',
  'flip-body',
  'lying-length',
] as const;
/** @internal */
export type MutationClass = (typeof MUTATION_CLASSES)[number];

const i32 = (b: Uint8Array, at: number): number =>
  at + 4 <= b.length ? new DataView(b.buffer, b.byteOffset).getInt32(at, true) : 0;
const clamp = (size: number, [a, b]: Range): Range => [Math.max(0, Math.min(a, size)), Math.max(0, Math.min(b, size))];
const text = (b: Uint8Array, n: number): string =>
  Buffer.from(b.buffer, b.byteOffset, Math.min(n, b.length)).toString('latin1');

/** An Arrow IPC message's metadata starting at `at` (continuation marker or not). */
const messageMeta = (b: Uint8Array, at: number): Range =>
  i32(b, at) === -1 ? [at + 8, at + 8 + i32(b, at + 4)] : [at + 4, at + 4 + i32(b, at)];

/** Finds the regions of the formats the readers take: Arrow File and Stream, .npy, LZ4 frames, JSON; else all body. */
const regionsOf = (b: Uint8Array): Regions => {
  const size = b.length;
  const c = (r: Range): Range => clamp(size, r);
  if (text(b, 6) === 'ARROW1') {
    const footerLen = i32(b, size - 10);
    const meta = c(messageMeta(b, 8));
    return {
      header: [0, 8],
      metadata: [meta, c([size - 10 - footerLen, size - 10])],
      body: [c([meta[1], size - 10 - footerLen])],
    };
  }
  if (i32(b, 0) === -1) {
    const meta = c(messageMeta(b, 0));
    return { header: [0, 8], metadata: [meta], body: [c([meta[1], size])] };
  }
  if (text(b, 6) === '\x93NUMPY') {
    const data = 10 + (b[8] ?? 0) + ((b[9] ?? 0) << 8);
    return { header: [0, 10], metadata: [c([10, data])], body: [c([data, size])] };
  }
  if (i32(b, 0) === 0x184d2204) return { header: [0, 4], metadata: [c([4, 15]), c([15, 19])], body: [c([19, size])] };
  return { header: c([0, 16]), metadata: [c([0, size])], body: [c([0, size])] };
};

const pick = <T>(rnd: () => number, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
const within = (rnd: () => number, [a, b]: Range): number => (b > a ? a + Math.floor(rnd() * (b - a)) : a);

const flipIn = (src: Uint8Array, range: Range, rnd: () => number): Uint8Array => {
  const out = src.slice();
  if (out.length === 0) return out;
  const r: Range = range[1] > range[0] ? range : [0, out.length];
  for (let n = 1 + Math.floor(rnd() * 3); n > 0; n--) {
    const at = within(rnd, r);
    out[at] = (out[at] ?? 0) ^ (1 << Math.floor(rnd() * 8));
  }
  return out;
};

const JSON_LIES = ['1e308', '-1', '99999999999999', '"NaN"', '[]', 'null', '{}', '"\\u0000"'];

/** Lengths, counts and shapes that lie: an int32 of the metadata set to an absurd value, or (text formats) a number swapped. */
const lie = (src: Uint8Array, regions: Regions, rnd: () => number): Uint8Array => {
  const head = text(src, 16);
  if (head.trimStart().startsWith('{') || head.startsWith('\x93NUMPY')) {
    const s = Buffer.from(src).toString('latin1');
    const numbers = [...s.matchAll(/-?\d+(\.\d+)?(e[+-]?\d+)?/g)];
    if (numbers.length === 0) return src.slice();
    const m = pick(rnd, numbers);
    const value = head.startsWith('\x93NUMPY')
      ? pick(rnd, ['0', '999999999', '4294967296', '300'])
      : pick(rnd, JSON_LIES);
    return new Uint8Array(Buffer.from(s.slice(0, m.index) + value + s.slice((m.index ?? 0) + m[0].length), 'latin1'));
  }
  const out = src.slice();
  const range = pick(rnd, regions.metadata);
  const at = within(rnd, range) & ~3;
  if (at + 4 > out.length) return out;
  const size = out.length;
  new DataView(out.buffer).setInt32(at, pick(rnd, [0x7fffffff, -1, 0x40000000, size * 8, size + 1, 0]), true);
  return out;
};

/**
 * One damaged copy of `src` of class `kind`, decided by `rnd` alone (so a seed replays it).
 * @internal
 */
export const mutate = (src: Uint8Array, kind: MutationClass, rnd: () => number): Uint8Array => {
  const regions = regionsOf(src);
  switch (kind) {
    case 'empty':
      return new Uint8Array(0);
    case 'wrong-magic': {
      const out = src.slice();
      for (let i = 0; i < Math.min(8, out.length); i++) out[i] = Math.floor(rnd() * 256);
      return out;
    }
    case 'truncate': {
      // Every region is a target: cut in the header, in each metadata block, in the body, or just short of the end.
      const region = pick(rnd, [
        regions.header,
        ...regions.metadata,
        ...regions.body,
        clamp(src.length, [src.length - 16, src.length]),
      ]);
      return src.slice(0, within(rnd, region));
    }
    case 'flip-header':
      return flipIn(src, regions.header, rnd);
    case 'flip-metadata':
      return flipIn(src, pick(rnd, regions.metadata), rnd);
    case 'flip-body':
      return flipIn(src, pick(rnd, regions.body), rnd);
    case 'lying-length':
      return lie(src, regions, rnd);
  }
};
