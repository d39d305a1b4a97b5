import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompareBenchmarksUseCase } from '@maou/bench-app';
import { trainingReportFixture } from '../html/html-report.fixtures';
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
});
