import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeReportFile } from './atomic-write';
import { embedJson } from './embed-json';
import { trainingReportFixture } from '@maou/bench-testkit/report';
import { writeTrainingHtmlReport } from './html-report.writers';
import { renderReportPage } from './render-report-page';

describe('embedJson', () => {
  it('given text that could close a script or open a comment, then no <, > or & survives and the JSON round-trips', () => {
    const value = { s: '</script><!-- & \u2028', n: Number.NaN, i: Infinity };
    const text = embedJson(value);
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual({ s: value.s, n: null, i: null });
  });
});

describe('HTML report writers', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maou-html-w-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('given a training report, then one offline file holds the library, the data and no external reference', async () => {
    const path = join(dir, 'report.html');
    const result = await writeTrainingHtmlReport(trainingReportFixture(20), path);
    const html = await readFile(path, 'utf8');
    expect(result).toEqual({ ok: true, value: { path, bytes: Buffer.byteLength(html) } });
    expect(html).toContain('Licensed to the Apache Software Foundation');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/cdn/i);
    const data = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(html)![1]!;
    expect(JSON.parse(data).payload.batches).toHaveLength(20);
    expect(await readdir(dir)).toEqual(['report.html']);
  });

  it('given a report it wrote, then it is replaced whole; a file it did not write is refused by name and kept', async () => {
    const path = join(dir, 'r.html');
    const page = (title: string): string =>
      renderReportPage({ title, subtitle: '', facts: [], charts: [], tables: [], payload: null });
    expect((await writeReportFile(path, page('old'))).ok).toBe(true);
    expect((await writeReportFile(path, page('new'))).ok).toBe(true);
    expect(await readFile(path, 'utf8')).toBe(page('new'));
    const notes = join(dir, 'notes.html');
    await writeFile(notes, '<!doctype html><p>mine</p>');
    expect(await writeReportFile(notes, page('x'))).toEqual({
      ok: false,
      error: {
        kind: 'report-write-failed',
        path: notes,
        message: `cannot write HTML report ${notes}: ${notes} exists and is not an HTML report written by maou-bench (<meta name="generator" content="maou-bench">); maou-bench never replaces a file it did not write: move it away or name another path`,
      },
    });
    expect(await readFile(notes, 'utf8')).toBe('<!doctype html><p>mine</p>');
  });

  it('given a missing directory, then an error naming the path and no temp file left', async () => {
    const path = join(dir, 'missing', 'r.html');
    const result = await writeReportFile(path, 'x');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toContain(`cannot write HTML report ${path}`);
    expect(await readdir(dir)).toEqual([]);
  });
});
