import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  compareFixture,
  dataloaderFixture,
  trainingReportFixture,
  dumpDom,
  findChromium,
  renderedCharts,
  screenshot,
} from '@maou/bench-testkit/report';
import { writeCompareHtmlReport, writeDataloaderHtmlReport, writeTrainingHtmlReport } from './html-report.writers';

// Screenshots are kept for people to look at; artifacts/ is git-ignored.
const ARTIFACTS = resolve(__dirname, '../../../../../artifacts/html-report');
const chromium = findChromium();
const browserIt = chromium ? it : it.skip;
if (!chromium) {
  process.stderr.write(
    'html-report browser checks SKIPPED: no Chromium found (apt-get install -y chromium, or set CHROMIUM_PATH)\n',
  );
}

describe('HTML reports in headless Chromium', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'maou-html-'));
    await mkdir(ARTIFACTS, { recursive: true });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const check = async (
    name: string,
    write: (path: string) => Promise<unknown>,
    expected: Record<string, number>,
    height: number,
  ): Promise<string> => {
    const file = join(dir, `${name}.html`);
    await write(file);
    const dom = await dumpDom(chromium!, file);
    expect(dom).not.toMatch(/data-render-error="[^"]*"/);
    expect(Object.fromEntries(renderedCharts(dom))).toEqual(expected);
    // every chart drew SVG marks, not just an empty frame
    const svgs = dom.match(/<svg[\s\S]*?<\/svg>/g) ?? [];
    expect(svgs.length).toBe(Object.keys(expected).length);
    for (const svg of svgs) expect((svg.match(/<path/g) ?? []).length).toBeGreaterThan(5);
    await screenshot(chromium!, file, join(ARTIFACTS, `${name}.png`), 1280, height);
    expect((await readFile(join(ARTIFACTS, `${name}.png`))).subarray(1, 4).toString()).toBe('PNG');
    return dom;
  };

  browserIt(
    'given a training report, then all five plots render with every point and hostile text stays text',
    async () => {
      const report = trainingReportFixture(60);
      const dom = await check(
        'training',
        (p) => writeTrainingHtmlReport(report, p),
        {
          'batch-time': 60,
          phases: 60 * 7,
          throughput: 2 * 55,
          epoch: 4,
          resources: 36,
        },
        2900,
      );
      expect(dom).toContain('<title>maou benchmark-training: resnet-small &lt;img');
      expect(dom).not.toMatch(/<img[^>]*onerror/);
      expect(dom).toContain('Raise workers &lt;img src=x onerror=');
    },
    60_000,
  );

  browserIt(
    'given a loader grid, then the heat map has one cell per setting and the chosen settings face the model rate',
    async () => {
      const dom = await check(
        'dataloader',
        (p) => writeDataloaderHtmlReport(dataloaderFixture(), p),
        { 'loader-grid': 14, 'loader-per-batch-size': 6 },
        1500,
      );
      expect(dom).not.toContain('<script>document.title');
    },
    60_000,
  );

  browserIt(
    'given two runs, then samples, distributions and ratio render and the diff is listed',
    async () => {
      const dom = await check(
        'compare',
        (p) => writeCompareHtmlReport(compareFixture(), p),
        {
          'compare-samples': 80,
          'compare-distribution': 2,
          'compare-ratio': 2,
        },
        1500,
      );
      expect(dom).toContain('<title>maou benchmark-compare: B is slower</title>');
      expect(dom).toContain('&lt;/script&gt;&lt;script&gt;document.title="pwned"');
    },
    60_000,
  );
});
