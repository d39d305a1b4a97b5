import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { computeTrainingMetrics, formatRateInterval, type BenchmarkTrainingReport } from '@maou/bench-domain';
import { toJson, writeTrainingHtmlReport } from '@maou/bench-infra';
import { trainingReportFixture } from '@maou/bench-testkit/report';
import { renderTrainingSummary } from './training-summary';

// One throughput interval, written one way in the console, the JSON and the HTML. Two measured batches 30 % apart
// put the batch-time interval below 0 ms, so nothing bounds samples/s from above: it used to print "21.6–∞", write a
// bare null and show "[21.6, Infinity]".
const dir = mkdtempSync(join(tmpdir(), 'maou-interval-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The fixture's report with its first batches re-timed and the metrics computed from them (warm-up 1). */
const reportWith = (wallMs: readonly number[]): BenchmarkTrainingReport => {
  const r = trainingReportFixture();
  const batches = r.batches.slice(0, wallMs.length).map((b, i) => {
    const scale = wallMs[i]! / b.wallMs;
    const phases = Object.fromEntries(Object.entries(b.phases).map(([p, ms]) => [p, ms * scale]));
    return { ...b, wallMs: wallMs[i]!, phases: phases as typeof b.phases };
  });
  return { ...r, batches, training_metrics: computeTrainingMetrics(batches, 1, 1) };
};

interface PageData {
  facts: [string, string][];
  charts: { id: string; caption: string; option: { series: { markArea?: unknown }[] } }[];
}
const htmlPage = async (r: BenchmarkTrainingReport, name: string): Promise<PageData> => {
  const path = join(dir, name);
  const w = await writeTrainingHtmlReport(r, path);
  if (!w.ok) throw new Error(w.error.message);
  const data = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(
    readFileSync(path, 'utf8'),
  )![1]!;
  expect(data).not.toMatch(/Infinity|∞/);
  return JSON.parse(data);
};

describe('the steady throughput interval in console, JSON and HTML', () => {
  it('given a batch-time interval reaching 0 ms, then each says "≥ low" and why, and the JSON holds null and the reason', async () => {
    const r = reportWith([400, 100, 130]);
    const m = r.training_metrics;
    expect(m.batch_ms.ci95[0]).toBeLessThan(0);
    const text = formatRateInterval(m.samples_per_second_ci95, m.samples_per_second_ci95_note);
    expect(text).toBe(
      `≥ ${m.samples_per_second_ci95[0].toFixed(1)} (no upper bound: the 95 % interval of the batch time over 2 measured batches reaches 0 ms; more batches close it)`,
    );

    const summary = renderTrainingSummary(r);
    expect(summary).toContain(`samples/s (95% CI ${text})`);
    expect(summary).not.toContain('∞');

    const json = toJson(r);
    const parsed = JSON.parse(json).training_metrics;
    expect(parsed.samples_per_second_ci95).toEqual([m.samples_per_second_ci95[0], null]);
    expect(parsed.samples_per_second_ci95_note).toBe(m.samples_per_second_ci95_note);

    const page = await htmlPage(r, 'open.html');
    expect(page.facts.find(([k]) => k === 'throughput')![1]).toContain(`(95 % interval ${text})`);
    const chart = page.charts.find((c) => c.id === 'throughput')!;
    expect(chart.caption).toContain(`95 % interval ${text}.`);
    expect(chart.option.series.some((s) => s.markArea !== undefined)).toBe(false);
  });

  it('given batches close enough for a bounded interval, then each writes the same "low–high" and the JSON no reason', async () => {
    const r = reportWith([400, 100, 101]);
    const m = r.training_metrics;
    const [lo, hi] = m.samples_per_second_ci95;
    const text = formatRateInterval(m.samples_per_second_ci95, m.samples_per_second_ci95_note);
    expect(text).toBe(`${lo.toFixed(1)}–${hi!.toFixed(1)}`);
    expect(renderTrainingSummary(r)).toContain(`samples/s (95% CI ${text})`);
    const parsed = JSON.parse(toJson(r)).training_metrics;
    expect(parsed.samples_per_second_ci95).toEqual([lo, hi]);
    expect(parsed.samples_per_second_ci95_note).toBeNull();
    const page = await htmlPage(r, 'closed.html');
    expect(page.facts.find(([k]) => k === 'throughput')![1]).toContain(`(95 % interval ${text})`);
    const chart = page.charts.find((c) => c.id === 'throughput')!;
    expect(chart.caption).toContain(`95 % interval ${text} (shaded band).`);
    expect(chart.option.series.some((s) => s.markArea !== undefined)).toBe(true);
  });
});
