import { join } from 'node:path';

/**
 * The JSON Schema of each JSON file the commands write: `id` is what the file names in `$schema` (and the schema's
 * `$id`), `file` where the schema ships in this package, `type` the TypeScript type it is generated from.
 * @public
 */
export const REPORT_SCHEMAS = {
  'benchmark-training-report': {
    id: 'urn:maou-bench:schema:benchmark-training-report:2',
    type: 'BenchmarkTrainingJson',
    title: 'maou utility benchmark-training report (schema_version 2)',
  },
  'batch-study-report': {
    id: 'urn:maou-bench:schema:batch-study-report:1',
    type: 'BatchStudyJson',
    title: 'maou utility benchmark-training batch study (--batch-sizes, --learning-rates, --find-max-batch)',
  },
  'benchmark-dataloader-report': {
    id: 'urn:maou-bench:schema:benchmark-dataloader-report:1',
    type: 'BenchmarkDataloaderJson',
    title: 'maou utility benchmark-dataloader report',
  },
  'benchmark-tune-report': {
    id: 'urn:maou-bench:schema:benchmark-tune-report:1',
    type: 'BenchmarkTuneJson',
    title: 'maou utility benchmark-tune report',
  },
} as const;

/** A report kind with a schema. @public */
export type ReportSchemaName = keyof typeof REPORT_SCHEMAS;

/** Where a report kind's schema file is in this package (`schemas/<name>.schema.json`). @public */
export const reportSchemaPath = (name: ReportSchemaName): string =>
  join(__dirname, '..', '..', 'schemas', `${name}.schema.json`);

/** The payload as written: `$schema` first, naming the schema it conforms to. @public */
export const withSchema = <T extends object>(name: ReportSchemaName, payload: T): { $schema: string } & T => ({
  $schema: REPORT_SCHEMAS[name].id,
  ...payload,
});
