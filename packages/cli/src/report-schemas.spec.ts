import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv from 'ajv';
import { toJson } from '@maou/bench-infra';
import { interruptedDataloaderStub, interruptedStub } from '@maou/bench-app/commands';
import { run } from './run';
import { REPORT_SCHEMAS, reportSchemaPath, type ReportSchemaName } from '@maou/bench-app';

// The JSON Schemas shipped in packages/cli/schemas, checked by a standard validator (ajv) against what the real
// commands write on the embedded sample data: each file names its schema in `$schema` and conforms to it.
const dir = mkdtempSync(join(tmpdir(), 'maou-schemas-'));
const small = ['--sample-positions', '256', '--sample-cache-dir', join(dir, 'sample'), '--log-level', 'silent'];
const training = ['--model-architecture', 'lite', '--batch-size', '16', '--warmup-batches', '1', '--max-batches', '3'];

const validator = (name: ReportSchemaName) =>
  new Ajv({ allErrors: true, strict: false }).compile(JSON.parse(readFileSync(reportSchemaPath(name), 'utf8')));

const written = async (argv: string[], file: string): Promise<Record<string, unknown>> => {
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  try {
    expect(await run([...argv, '--output-json', file])).toBe(0);
  } finally {
    out.mockRestore();
  }
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
};

const expectValid = (name: ReportSchemaName, doc: unknown): void => {
  const validate = validator(name);
  validate(doc);
  expect(validate.errors ?? []).toEqual([]);
};

describe('report JSON Schemas against real output', () => {
  let report: Record<string, unknown>;

  beforeAll(async () => {
    report = await written(
      ['utility', 'benchmark-training', ...training, '--no-calibrate', ...small],
      join(dir, 'training.json'),
    );
  });

  it('benchmark-training: names its schema and conforms to it', () => {
    expect(report.$schema).toBe(REPORT_SCHEMAS['benchmark-training-report'].id);
    expectValid('benchmark-training-report', report);
  });

  it('the schema rejects a report missing a block or carrying an unknown key', () => {
    const validate = validator('benchmark-training-report');
    const { training_metrics: _dropped, ...missing } = report;
    expect(validate(missing)).toBe(false);
    expect(validate({ ...report, samples_per_sec: 1 })).toBe(false);
    expect(validate({ ...report, stage: 4 })).toBe(false);
  });

  it('a batch study: names its schema and conforms to it', async () => {
    const study = await written(
      ['utility', 'benchmark-training', ...training, '--batch-sizes', '8,16', ...small],
      join(dir, 'study.json'),
    );
    expect(study.$schema).toBe(REPORT_SCHEMAS['batch-study-report'].id);
    expectValid('batch-study-report', study);
  });

  it('benchmark-dataloader: names its schema and conforms to it', async () => {
    const loader = await written(
      [
        'utility',
        'benchmark-dataloader',
        '--batch-size',
        '16',
        '--num-batches',
        '3',
        '--repeats',
        '1',
        '--workers',
        '0',
        '--consumption-steps',
        '0',
        ...small,
      ],
      join(dir, 'loader.json'),
    );
    expect(loader.$schema).toBe(REPORT_SCHEMAS['benchmark-dataloader-report'].id);
    expectValid('benchmark-dataloader-report', loader);
  });

  it('the stubs a signal leaves in --output-json name and conform to their command’s schema', () => {
    const training = JSON.parse(
      toJson(interruptedStub({ reason: 'SIGINT', completed_batches: 0, planned_batches: 3 })),
    );
    expectValid('benchmark-training-report', training);
    expectValid('benchmark-dataloader-report', JSON.parse(toJson(interruptedDataloaderStub('SIGTERM'))));
  });
});
