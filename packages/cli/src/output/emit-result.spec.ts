import { emitResult } from './emit-result';

const sink = (): { chunks: string[]; write: (c: string) => boolean } => {
  const chunks: string[] = [];
  return { chunks, write: (c) => chunks.push(c) > 0 };
};

describe('emitResult', () => {
  it('given --json, then exactly one parseable JSON document with NaN as null', () => {
    const out = sink();
    emitResult({ rate: 12.5, p: Number.NaN }, 'text', { json: true }, out);
    expect(out.chunks).toHaveLength(1);
    expect(JSON.parse(out.chunks[0]!)).toEqual({ rate: 12.5, p: null });
  });

  it('given no --json, then the rendered summary ending in a newline', () => {
    const out = sink();
    emitResult({ rate: 12.5 }, 'rate 12.5', {}, out);
    expect(out.chunks).toEqual(['rate 12.5\n']);
  });
});
