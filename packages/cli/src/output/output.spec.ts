import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { emitResult, jsonText } from './emit-result';
import { checkReportHtmlPath } from './output-options';

const sink = (): { chunks: string[]; write: (c: string) => boolean } => {
  const chunks: string[] = [];
  return { chunks, write: (c) => chunks.push(c) > 0 };
};

describe('emitResult', () => {
  it('given --json, then exactly one parseable JSON document with NaN as null', () => {
    const out = sink();
    emitResult({ rate: 12.5, p: Number.NaN }, () => 'text', { json: true }, out);
    expect(out.chunks).toHaveLength(1);
    expect(JSON.parse(out.chunks[0]!)).toEqual({ rate: 12.5, p: null });
  });

  it('given no --json, then the rendered summary ending in a newline', () => {
    const out = sink();
    emitResult({ rate: 12.5 }, (p) => `rate ${p.rate}`, {}, out);
    expect(out.chunks).toEqual(['rate 12.5\n']);
  });

  it('jsonText pretty-prints', () => {
    expect(jsonText({ a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}\n');
  });
});

describe('checkReportHtmlPath', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(join(tmpdir(), 'maou-out-')); });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('accepts an absent flag, a new file and an existing file in an existing directory', async () => {
    await writeFile(join(dir, 'old.html'), 'x');
    expect([checkReportHtmlPath(undefined), checkReportHtmlPath(join(dir, 'new.html')), checkReportHtmlPath(join(dir, 'old.html'))]).toEqual([null, null, null]);
  });

  it('names the flag for a missing directory, a directory target and an empty path', () => {
    expect(checkReportHtmlPath(join(dir, 'nope', 'r.html'))).toBe(`--report-html: directory ${join(dir, 'nope')} does not exist`);
    expect(checkReportHtmlPath(dir)).toMatch(/^--report-html: .* is a directory; name a file such as .*report\.html$/);
    expect(checkReportHtmlPath(' ')).toBe('--report-html: the path is empty');
  });
});
