import { readFile, stat } from 'node:fs/promises';
import { getHeapStatistics } from 'node:v8';
import { specialFileKind } from '../../files/atomic-file';
import { fileCause } from '../../files/file-error';
import { duplicateTopLevelKey } from './duplicate-keys';
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

// Parsing holds the text and the objects it becomes: a 47.7 MB report (its batches repeated) parsed under
// --max-old-space-size=96 and aborted under 64 (node -e, readFileSync + JSON.parse); three times the bytes leaves room.
const HEAP_PER_BYTE = 3;
const MB = 1024 * 1024;

/**
 * Why `path` cannot be read as a report before reading it: not a regular file (`/dev/zero` would be read for ever), or
 * too large for this process's JS heap (V8 would abort with its fatal out-of-memory error and a native stack).
 */
const unreadable = async (path: string): Promise<string | null> => {
  let s;
  try {
    s = await stat(path);
  } catch (e) {
    return `${path}: cannot read (${fileCause(e)})`;
  }
  if (s.isDirectory()) return `${path}: is a directory; pass a report file from benchmark-training --output-json`;
  if (!s.isFile())
    return `${path}: is a ${specialFileKind(s) ?? 'special file'}, not a report file; pass a file from benchmark-training --output-json`;
  const heap = getHeapStatistics();
  const need = s.size * HEAP_PER_BYTE;
  const room = heap.heap_size_limit - heap.used_heap_size;
  if (need > room)
    return `${path}: is ${(s.size / MB).toFixed(1)} MB; reading it needs about ${(need / MB).toFixed(0)} MB of JS heap and this process has ${(room / MB).toFixed(0)} MB free of its ${(heap.heap_size_limit / MB).toFixed(0)} MB limit: raise it with NODE_OPTIONS=--max-old-space-size=${Math.ceil((need + heap.used_heap_size) / MB / 64) * 64} (MB)`;
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
  const unfit = await unreadable(path);
  if (unfit) return err(unfit);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    return err(`${path}: cannot read (${fileCause(e)})`);
  }
  let data: unknown;
  try {
    // A byte-order mark (editors on Windows write one) is not part of the JSON.
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (e) {
    return err(`${path}: not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  // JSON.parse keeps the last of two equal keys without a word; this product never writes one twice.
  const twice = duplicateTopLevelKey(text);
  if (twice !== null)
    return err(
      `${path}: key '${twice}' appears twice at the top level (JSON keeps only the last); benchmark-training never writes that, so the file was edited or joined: keep one`,
    );
  const r = data as (Partial<BenchmarkTrainingReport> & { readonly kind?: unknown }) | null;
  if (!r || r.command !== 'benchmark-training')
    return err(`${path}: field 'command' is not 'benchmark-training'; pass files written by --output-json`);
  if (r.kind === 'batch-study') return err(`${path}: ${BATCH_STUDY}`);
  if (typeof r.schema_version === 'string')
    return err(
      `${path}: field 'schema_version' is the string ${JSON.stringify(r.schema_version)}; it must be a number, one of ${READABLE_REPORT_SCHEMA_VERSIONS.join(', ')}`,
    );
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
