import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompareBenchmarksUseCase } from '@maou/bench-use-cases';
import { trainingReportFixture } from '@maou/bench-testkit/report';
import { writeJsonReport } from '../json/json-report.writer';
import { readTrainingReport } from './training-report.reader';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'maou-reader-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A schema-1 file as version 1 wrote it: no maou block, no null reasons, no resource limits, no validation phases. */
const version1 = (): Record<string, unknown> => {
  const { maou: _m, maou_omitted: _o, null_reasons: _n, resource_limits: _r, ...rest } = trainingReportFixture(40, '');
  return { ...rest, schema_version: 1 };
};

describe('readTrainingReport', () => {
  it('given a schema 1 file and a schema 2 file written by the JSON writer, when read and compared, then both are accepted', async () => {
    await writeJsonReport(version1(), join(dir, 'v1.json'));
    await writeJsonReport(trainingReportFixture(40, ''), join(dir, 'v2.json'));
    const [a, b] = [await readTrainingReport(join(dir, 'v1.json')), await readTrainingReport(join(dir, 'v2.json'))];
    if (!a.ok || !b.ok) throw new Error(`${a.ok ? '' : a.error} ${b.ok ? '' : b.error}`);
    expect([a.value.schema_version, b.value.schema_version]).toEqual([1, 2]);
    const report = new CompareBenchmarksUseCase().execute({
      a: { path: 'v1.json', report: a.value },
      b: { path: 'v2.json', report: b.value },
    });
    expect(report.comparison.verdict).toBe('no-significant-difference');
  });

  it('given an unknown schema version, when read, then an error names the file, the field and the readable versions', async () => {
    await writeJsonReport({ ...version1(), schema_version: 3 }, join(dir, 'v3.json'));
    const r = await readTrainingReport(join(dir, 'v3.json'));
    expect(r.ok ? '' : r.error).toBe(`${join(dir, 'v3.json')}: field 'schema_version' is 3, expected one of 1, 2`);
  });

  type Fixture = ReturnType<typeof trainingReportFixture>;
  const withBatch = (r: Fixture, i: number, wallMs: number): Fixture => ({
    ...r,
    batches: r.batches.map((b, j) => (j === i ? { ...b, wallMs } : b)),
  });
  const withMetric = (r: Fixture, name: string, v: number | null): Fixture => ({
    ...r,
    training_metrics: { ...r.training_metrics, [name]: v },
  });
  it.each<[string, (r: Fixture) => Fixture, string]>([
    [
      'a negative batch time',
      (r) => withBatch(r, 3, -2.5),
      "field 'batches[3].wallMs' must be a duration between 0 and 1e+12, got -2.5",
    ],
    [
      'a negative samples/s',
      (r) => withMetric(r, 'samples_per_second', -40),
      "field 'training_metrics.samples_per_second' must be a rate between 0 and 1e+12, got -40",
    ],
    [
      'samples/s written as null (how JSON writes NaN)',
      (r) => withMetric(r, 'samples_per_second', null),
      "field 'training_metrics.samples_per_second' must be a finite number, got null",
    ],
    [
      'batch size 0',
      (r) => withMetric(r, 'batch_size', 0),
      "field 'training_metrics.batch_size' must be a whole number ≥ 1, got 0",
    ],
    [
      'a fractional batch count',
      (r) => withMetric(r, 'measured_batches', 2.5),
      "field 'training_metrics.measured_batches' must be a whole number ≥ 0, got 2.5",
    ],
    [
      'a negative warm-up time',
      (r) => withMetric(r, 'warmup_total_ms', -1),
      "field 'training_metrics.warmup_total_ms' must be a duration between 0 and 1e+12, got -1",
    ],
    [
      'only warm-up batches',
      (r) => ({ ...r, batches: r.batches.map((b) => ({ ...b, warmup: true })) }),
      "field 'batches' has no steady-state batch (every one is warmup); there is nothing to compare",
    ],
  ])('given a report with %s, when read, then an error names the file and the field', async (what, damage, message) => {
    const path = join(dir, `${what.replace(/\W+/g, '-')}.json`);
    await writeJsonReport(damage(trainingReportFixture(40, '')), path);
    const r = await readTrainingReport(path);
    expect(r.ok ? 'accepted' : r.error).toBe(`${path}: ${message}`);
  });

  it('given a finite batch time whose square overflows (1.7e308), when read, then it is refused, not compared as Infinity/NaN', async () => {
    const path = join(dir, 'huge.json');
    await writeJsonReport(withBatch(trainingReportFixture(40, ''), 5, 1.7e308), path);
    const r = await readTrainingReport(path);
    expect(r.ok ? 'accepted' : r.error).toBe(
      `${path}: field 'batches[5].wallMs' must be a duration between 0 and 1e+12, got 1.7e+308`,
    );
  });

  it('given a file starting with a UTF-8 byte-order mark, when read, then it is the same report', async () => {
    const path = join(dir, 'bom.json');
    await writeJsonReport(trainingReportFixture(40, ''), path);
    await writeFile(path, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), await readFile(path)]));
    const r = await readTrainingReport(path);
    expect(r.ok ? r.value.batches.length : r.error).toBe(40);
  });

  it('given a batch time too large for a double (1e999 in the file, Infinity once parsed), when read, then it is refused', async () => {
    const path = join(dir, 'infinite.json');
    await writeJsonReport(withBatch(trainingReportFixture(40, ''), 5, 123456.5), path);
    await writeFile(path, (await readFile(path, 'utf8')).replace('123456.5', '1e999'));
    const r = await readTrainingReport(path);
    expect(r.ok ? 'accepted' : r.error).toBe(
      `${path}: field 'batches[5].wallMs' must be a finite number, got Infinity`,
    );
  });

  it('given a character device (/dev/zero), when read, then it is refused by kind before a byte is read', async () => {
    expect(await readTrainingReport('/dev/zero')).toEqual({
      ok: false,
      error: '/dev/zero: is a character device, not a report file; pass a file from benchmark-training --output-json',
    });
  });

  it('given schema_version as a string, when read, then the error says it is a string', async () => {
    const path = join(dir, 'string-version.json');
    await writeFile(path, JSON.stringify({ ...trainingReportFixture(40, ''), schema_version: '1' }));
    expect(await readTrainingReport(path)).toEqual({
      ok: false,
      error: `${path}: field 'schema_version' is the string "1"; it must be a number, one of 1, 2`,
    });
  });

  it('given the batches key twice (the last all warm-up), when read, then the duplicate key is named', async () => {
    const path = join(dir, 'twice.json');
    const report = trainingReportFixture(40, '');
    const text = JSON.stringify(report, null, 2);
    const warm = JSON.stringify(report.batches.map((b) => ({ ...b, warmup: true })));
    await writeFile(path, `${text.slice(0, text.lastIndexOf('}'))},\n  "batches": ${warm}\n}\n`);
    expect(await readTrainingReport(path)).toEqual({
      ok: false,
      error: `${path}: key 'batches' appears twice at the top level (JSON keeps only the last); benchmark-training never writes that, so the file was edited or joined: keep one`,
    });
  });
});
