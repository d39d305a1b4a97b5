import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MAOU_BIN as BIN } from './run-maou';

// Drives only the built binary (pnpm build first); screenshots land in the git-ignored artifacts/.
const ARTIFACTS = resolve(__dirname, '../../../artifacts/html-report');
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', process.env['CHROMIUM_PATH'] ?? ''].find(
  (p) => p !== '' && existsSync(p),
);
if (!CHROMIUM)
  process.stderr.write('html-report e2e: browser checks SKIPPED, no Chromium (apt-get install -y chromium)\n');

const run = (file: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((done) => {
    execFile(file, args, { timeout: 120_000, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) =>
      done({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
const maou = (...args: string[]) => run(process.execPath, [BIN, ...args]);
// The reports, not data-parallel training, are under test: one backend thread, no replica workers to start.
const ONE_THREAD = ['--threads', '1'];

/** Loads the report in headless Chromium once: returns the DOM after scripts ran and keeps a screenshot of it. */
const browse = async (html: string, png: string, height: number): Promise<string> => {
  const profile = await mkdtemp(join(tmpdir(), 'maou-e2e-chromium-'));
  const flags = [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--hide-scrollbars',
    '--virtual-time-budget=5000',
    `--user-data-dir=${profile}`,
  ];
  try {
    // one browser start does both: the DOM on stdout, the screenshot to its file
    const r = await run(CHROMIUM!, [
      ...flags,
      '--dump-dom',
      `--screenshot=${png}`,
      `--window-size=1280,${height}`,
      pathToFileURL(html).href,
    ]);
    return r.stdout;
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
};

const rendered = (dom: string): Record<string, number> =>
  Object.fromEntries(
    [...dom.matchAll(/id="chart-([\w-]+)"[^>]*?data-rendered="(\d+) points"/g)].map((m) => [m[1]!, Number(m[2])]),
  );

/** What the tune's page is checked against: its JSON on stdout. */
interface TuneAnswer {
  readonly command: string;
  readonly changes: readonly { flag: string; value: string; gain: number | null }[];
}

describe('maou command line: version, completion, help', () => {
  it('given --version, then the package version', async () => {
    const r = await maou('--version');
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('given completion, then a bash completion script on stdout', async () => {
    expect((await maou('completion')).stdout).toContain('###-begin-maou-completions-###');
  });

  it('given --help of each benchmark command, then at least one example', async () => {
    for (const command of ['benchmark-training', 'benchmark-compare', 'benchmark-dataloader']) {
      const r = await maou('utility', command, '--help');
      expect({ command, examples: /\nExamples:\n/.test(r.stdout) }).toEqual({ command, examples: true });
    }
  });
});

describe('maou --report-html and --json', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maou-e2e-html-'));
    await mkdir(ARTIFACTS, { recursive: true });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const train = async (name: string, seed: string) => {
    const html = join(dir, `${name}.html`);
    const r = await maou(
      'utility',
      'benchmark-training',
      '--model-architecture',
      'lite',
      ...ONE_THREAD,
      '--max-batches',
      '8',
      '--warmup-batches',
      '2',
      '--batch-size',
      '16',
      '--sample-positions',
      '512',
      '--seed',
      seed,
      '--enable-resource-monitoring',
      '--json',
      '--output-json',
      join(dir, `${name}.json`),
      '--report-html',
      html,
    );
    expect({ code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ code: 0, stderr: '' });
    return { html, payload: JSON.parse(r.stdout) as { batches: unknown[]; resources: { timeline: unknown[] } | null } };
  };

  it('given benchmark-training and benchmark-compare, then stdout is JSON and every plot of both reports renders', async () => {
    const a = await train('a', '1');
    await train('b', '2');
    expect(JSON.parse(await readFile(join(dir, 'a.json'), 'utf8'))).toEqual(a.payload);
    const compareHtml = join(dir, 'compare.html');
    const c = await maou(
      'utility',
      'benchmark-compare',
      join(dir, 'a.json'),
      join(dir, 'b.json'),
      '--json',
      '--report-html',
      compareHtml,
    );
    expect(c.code).toBe(0);
    expect(JSON.parse(c.stdout).command).toBe('benchmark-compare');
    if (!CHROMIUM) return;
    const charts = rendered(await browse(a.html, join(ARTIFACTS, 'e2e-training.png'), 2900));
    expect(charts['batch-time']).toBe(a.payload.batches.length);
    expect(charts['phases']).toBe(7 * a.payload.batches.length);
    expect(charts['throughput']).toBeGreaterThan(0);
    expect(charts['epoch']).toBeGreaterThanOrEqual(2);
    if (a.payload.resources?.timeline.length) expect(charts['resources']).toBeGreaterThan(0);
    const compared = rendered(await browse(compareHtml, join(ARTIFACTS, 'e2e-compare.png'), 1500));
    expect(Object.keys(compared).sort()).toEqual(['compare-distribution', 'compare-ratio', 'compare-samples']);
    expect(Object.values(compared).every((n) => n > 0)).toBe(true);
  }, 240_000);

  it('given a batch study, then stdout is its JSON and the throughput, efficiency and max-batch plots render', async () => {
    const html = join(dir, 'study.html');
    const r = await maou(
      'utility',
      'benchmark-training',
      '--batch-sizes',
      '8,16',
      '--estimate-cbs',
      '--find-max-batch',
      '--find-max-batch-cap',
      '32',
      '--model-architecture',
      'lite',
      ...ONE_THREAD,
      '--batch-size',
      '8',
      '--max-batches',
      '6',
      '--warmup-batches',
      '2',
      '--sample-positions',
      '512',
      '--json',
      '--report-html',
      html,
    );
    expect({ code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ code: 0, stderr: '' });
    const study = JSON.parse(r.stdout) as {
      kind: string;
      sweep: { points: { status: string }[] };
      critical_batch: object | null;
      max_batch: { tries: unknown[] };
    };
    expect(study.kind).toBe('batch-study');
    expect(study.sweep.points.map((p) => p.status)).toEqual(['ok', 'ok']);
    expect(study.critical_batch).not.toBeNull();
    if (!CHROMIUM) return;
    const charts = rendered(await browse(html, join(ARTIFACTS, 'e2e-batch-study.png'), 1800));
    expect(Object.keys(charts).sort()).toEqual(['max-batch', 'sweep-efficiency', 'sweep-throughput']);
    expect(charts['max-batch']).toBe(study.max_batch.tries.length);
    expect(charts['sweep-throughput']).toBeGreaterThanOrEqual(2);
  }, 240_000);

  it('given benchmark-tune --report-html, then the changes, before and after with intervals and the command are on the page; a page not ours is refused and kept', async () => {
    const html = join(dir, 'tune.html');
    // one backend thread of the usable cores, the rest already set: few candidates, a short real tune
    const flags = ['--model-architecture', 'lite', ...ONE_THREAD, '--batch-size', '16', '--sample-positions', '256'];
    const set = ['--dataloader-workers', '1', '--prefetch-factor', '4', '--pin-memory', '--input-cache-mode', 'memory'];
    const r = await maou(
      'utility',
      'benchmark-tune',
      ...flags,
      ...set,
      '--tune-budget',
      '40',
      '--json',
      '--report-html',
      html,
    );
    expect({ code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ code: 0, stderr: '' });
    const tune = JSON.parse(r.stdout) as TuneAnswer;
    const page = await readFile(html, 'utf8');
    expect(page).toContain('<meta name="generator" content="maou-bench">');
    const data = /<script type="application\/json" id="report-data">([^<]*)<\/script>/.exec(page)![1]!;
    // the page keeps the report (without the schema name, which says what the JSON file is)
    expect({ $schema: expect.any(String), ...JSON.parse(data).payload }).toEqual(tune);
    if (CHROMIUM) {
      const dom = await browse(html, join(ARTIFACTS, 'e2e-tune.png'), 1500);
      const charts = rendered(dom);
      // the epoch before and after: an interval and a prediction each; a gain and its interval per measured change
      expect(charts['tune-epoch']).toBe(4);
      const measured = tune.changes.filter((c) => c.gain !== null).length;
      expect(charts['tune-gains']).toBe(measured ? 2 * measured : undefined);
      for (const c of tune.changes) expect(dom).toContain(`<td>${c.flag} ${c.value}</td>`);
      expect(dom).toContain(`<td>${tune.command}</td>`);
    }
    // a file of that name that this product did not write: refused by name before any work, left as it was
    const notes = join(dir, 'notes.html');
    await writeFile(notes, '<!doctype html><p>mine</p>');
    const refused = await maou('utility', 'benchmark-tune', ...flags, '--tune-budget', '30', '--report-html', notes);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`--report-html: ${notes} exists and is not an HTML report written by maou-bench`);
    expect(await readFile(notes, 'utf8')).toBe('<!doctype html><p>mine</p>');
  }, 120_000);

  it('given benchmark-dataloader --report-html, then its grid heat map renders', async () => {
    const html = join(dir, 'loader.html');
    const r = await maou(
      'utility',
      'benchmark-dataloader',
      '--sample-positions',
      '512',
      '--batch-size',
      '32',
      '--num-batches',
      '4',
      '--repeats',
      '1',
      '--workers',
      '0',
      '1',
      '--consumption-steps',
      '1',
      '--model-architecture',
      'lite',
      ...ONE_THREAD,
      '--json',
      '--report-html',
      html,
    );
    expect({ code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(r.stdout)).toBeTruthy();
    if (!CHROMIUM) return;
    const charts = rendered(await browse(html, join(ARTIFACTS, 'e2e-dataloader.png'), 1500));
    expect(Object.values(charts).length).toBeGreaterThan(0);
    expect(Object.values(charts).every((n) => n > 0)).toBe(true);
  }, 240_000);
});
