import { statSync } from 'node:fs';
import { extname, sep } from 'node:path';
import type { DataSourceSpec, ValidationIssue } from '@maou/bench-domain';
import {
  CALIBRATION_FILE,
  HTML_REPORT,
  JSON_REPORT,
  STAGE_FILE_SUFFIXES,
  TRACE_FILE,
  sampleOutputProblem,
} from '@maou/bench-infra';
import type { Stage } from '@maou/bench-domain';
import { checkOutputDir, checkOutputFile, fileIdentity, outputPathIssues, realOrResolved } from './output-paths';

/** Where a benchmark run will write; each path is checked before the run starts. */
export interface RunOutputs {
  readonly outputJson?: string;
  readonly reportHtml?: string;
  readonly tracePath?: string;
  readonly calibrationFile?: string;
  /** a directory the run creates or fills with generated files of one stage (`generate-sample-data --output-dir`) */
  readonly outputDir?: { readonly dir: string; readonly stage: Stage };
  readonly source?: DataSourceSpec;
}

// The source's plug-in says which directory it writes and what set it (a flag, or the default cache).
const sourceDir = (source: DataSourceSpec | undefined): ValidationIssue | null =>
  source?.writes ? checkOutputDir(source.writes.field, source.writes.dir) : null;

// The directory must be creatable, and hold no file of the stage's names that this product did not write.
const generatedDir = (out: RunOutputs['outputDir']): ValidationIssue | null => {
  if (!out) return null;
  const issue = checkOutputDir('--output-dir', out.dir);
  if (issue) return issue;
  const problem = sampleOutputProblem(out.dir, out.stage);
  return problem ? { field: '--output-dir', message: problem } : null;
};

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/**
 * An output on an input: the same file, or a data file inside an input directory or a cache the run reads (the next
 * run would read it).
 */
const onInput = (output: string, inputs: readonly string[]): string | undefined => {
  const id = fileIdentity(output);
  const real = realOrResolved(output);
  return inputs.find((input) => {
    if (!isDirectory(input)) return fileIdentity(input) === id;
    return STAGE_FILE_SUFFIXES.includes(extname(real).toLowerCase()) && real.startsWith(realOrResolved(input) + sep);
  });
};

/** Two output flags naming one file, or an output naming an input: refused before anything is written or read. */
const clashes = (o: RunOutputs): ValidationIssue[] => {
  const files: [string, string | undefined][] = [
    ['--output-json', o.outputJson],
    ['--report-html', o.reportHtml],
    ['--trace-path', o.tracePath],
    ['--calibration-file', o.calibrationFile],
  ];
  const given = files.filter((f): f is [string, string] => f[1] !== undefined && f[1].trim() !== '');
  const inputs = o.source?.reads ?? [];
  const issues: ValidationIssue[] = [];
  given.forEach(([flag, path], i) => {
    const twin = given.slice(0, i).find(([, other]) => fileIdentity(other) === fileIdentity(path));
    if (twin)
      issues.push({ field: flag, message: `${path} is also ${twin[0]} (${twin[1]}); give each output its own file` });
    const input = onInput(path, inputs);
    if (input !== undefined)
      issues.push({
        field: flag,
        message: `${path} is an input (${input === o.source?.writes?.dir ? 'the input cache' : 'data path'} ${input}); an output never overwrites data`,
      });
  });
  return issues;
};

/** Every output path of a benchmark run that cannot be written, or that clashes with another path, each naming its flag. @public */
export const runOutputIssues = (o: RunOutputs): ValidationIssue[] =>
  outputPathIssues([
    ...clashes(o),
    checkOutputFile('--output-json', o.outputJson, JSON_REPORT),
    checkOutputFile('--report-html', o.reportHtml, HTML_REPORT),
    checkOutputFile('--trace-path', o.tracePath, TRACE_FILE),
    checkOutputFile('--calibration-file', o.calibrationFile, CALIBRATION_FILE, { createsParent: true }),
    generatedDir(o.outputDir),
    sourceDir(o.source),
  ]);
