import { readFile } from 'node:fs/promises';
import {
  READABLE_REPORT_SCHEMA_VERSIONS,
  err,
  ok,
  type BenchmarkTrainingReport,
  type ComparableTrainingReport,
  type Result,
} from '@maou/bench-domain';

type Rule = 'count' | 'positive integer' | 'duration' | 'rate';
// The figures `benchmark-compare` reads or shows beside them. A file with a negative, non-finite or fractional one was
// not written by benchmark-training, and a comparison built on it would look as trustworthy as a real one.
const METRICS: readonly (readonly [keyof BenchmarkTrainingReport['training_metrics'], Rule])[] = [
  ['total_batches', 'count'],
  ['warmup_batches', 'count'],
  ['steady_state_start', 'count'],
  ['measured_batches', 'count'],
  ['measured_samples', 'count'],
  ['batch_size', 'positive integer'],
  ['samples_per_second', 'rate'],
  ['batch_ms_including_warmup_mean', 'duration'],
  ['warmup_total_ms', 'duration'],
];

// Far beyond any real run (a batch of 31 years), yet small enough that sums of squares stay finite: a larger figure
// would turn the comparison into Infinity and NaN.
const MAX_FIGURE = 1e12;

const breaks = (rule: Rule, v: unknown): string | null => {
  if (typeof v !== 'number' || !Number.isFinite(v)) return 'a finite number';
  if (rule === 'count' && !(Number.isInteger(v) && v >= 0)) return 'a whole number ≥ 0';
  if (rule === 'positive integer' && !(Number.isInteger(v) && v >= 1)) return 'a whole number ≥ 1';
  if ((rule === 'duration' || rule === 'rate') && !(v >= 0 && v <= MAX_FIGURE))
    return `${rule === 'rate' ? 'a rate' : 'a duration'} between 0 and ${MAX_FIGURE.toExponential()}`;
  return null;
};

const fieldError = (path: string, field: string, expected: string, got: unknown): string =>
  `${path}: field '${field}' must be ${expected}, got ${typeof got === 'number' ? String(got) : (JSON.stringify(got) ?? String(got))}`;

/** The first impossible figure among those compare uses, as an error naming the file and the field; null if none. */
const impossibleFigure = (path: string, r: ComparableTrainingReport): string | null => {
  for (const [i, b] of r.batches.entries()) {
    const why = breaks('duration', b.wallMs);
    if (why) return fieldError(path, `batches[${i}].wallMs`, why, b.wallMs);
  }
  for (const [name, rule] of METRICS) {
    const v: unknown = r.training_metrics[name];
    const why = breaks(rule, v);
    if (why) return fieldError(path, `training_metrics.${name}`, why, v);
  }
  if (!r.batches.some((b) => !b.warmup))
    return `${path}: field 'batches' has no steady-state batch (every one is warmup); there is nothing to compare`;
  return null;
};

const BATCH_STUDY =
  "a batch study (field 'kind' is 'batch-study': benchmark-training with --batch-sizes, --learning-rates or --find-max-batch), several runs in one file; benchmark-compare compares two single runs: pass files from benchmark-training --output-json without those flags";

/**
 * Reads a `benchmark-training --output-json` file of any readable schema version, checking that it is one and that the
 * figures compare reads are possible ones (an error names the file and the field).
 * @public
 */
export const readTrainingReport = async (path: string): Promise<Result<ComparableTrainingReport, string>> => {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    return err(`${path}: cannot read (${e instanceof Error ? e.message : String(e)})`);
  }
  let data: unknown;
  try {
    // A byte-order mark (editors on Windows write one) is not part of the JSON.
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return err(`${path}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const r = data as (Partial<BenchmarkTrainingReport> & { readonly kind?: unknown }) | null;
  if (!r || r.command !== 'benchmark-training')
    return err(`${path}: field 'command' is not 'benchmark-training'; pass files written by --output-json`);
  if (r.kind === 'batch-study') return err(`${path}: ${BATCH_STUDY}`);
  if (!READABLE_REPORT_SCHEMA_VERSIONS.includes(r.schema_version as number)) {
    return err(
      `${path}: field 'schema_version' is ${String(r.schema_version)}, expected one of ${READABLE_REPORT_SCHEMA_VERSIONS.join(', ')}`,
    );
  }
  if (
    !Array.isArray(r.batches) ||
    r.batches.some((b) => typeof b?.wallMs !== 'number' || typeof b?.warmup !== 'boolean')
  ) {
    return err(`${path}: field 'batches' must list batches with wallMs and warmup`);
  }
  if (!r.environment || !r.config || !r.training_metrics || !r.model)
    return err(`${path}: missing environment, config, model or training_metrics`);
  const report = r as ComparableTrainingReport;
  const impossible = impossibleFigure(path, report);
  return impossible === null ? ok(report) : err(impossible);
};
