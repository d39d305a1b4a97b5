import { statSync } from 'node:fs';
import { extname, sep } from 'node:path';
import type { DataSourceSpec, ValidationIssue } from '@maou/bench-domain';
import { STAGE_FILE_SUFFIXES } from '@maou/bench-infra';
import { machineDefaults } from '../composition-root';
import { checkOutputDir, checkOutputFile, fileIdentity, outputPathIssues, realOrResolved } from './output-paths';

/** Where a benchmark run will write; each path is checked before the run starts. */
export interface RunOutputs {
  readonly outputJson?: string;
  readonly reportHtml?: string;
  readonly tracePath?: string;
  readonly calibrationFile?: string;
  /** a directory the run creates or fills (`generate-sample-data --output-dir`) */
  readonly outputDir?: string;
  readonly source?: DataSourceSpec;
}

// The default sample cache is not a flag the user gave: a problem there names where it came from.
const sampleCacheField = (cacheDir: string): string =>
  cacheDir !== machineDefaults().sampleCacheDir
    ? '--sample-cache-dir'
    : process.env.MAOU_BENCH_CACHE !== undefined
      ? 'the sample cache (MAOU_BENCH_CACHE; set --sample-cache-dir to use another)'
      : 'the sample cache (default ~/.cache/maou-bench/sample; set --sample-cache-dir or MAOU_BENCH_CACHE to use another)';

const sourceDir = (source: DataSourceSpec | undefined): ValidationIssue | null => {
  if (source?.kind === 'sample') return checkOutputDir(sampleCacheField(source.cacheDir), source.cacheDir);
  if (source && 'localCacheDir' in source) return checkOutputDir('--input-local-cache-dir', source.localCacheDir);
  return null;
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
  // Remote sources are read through a local cache, and the sample through its own: a data file there is an input.
  const s = o.source;
  const inputs: readonly string[] =
    s?.kind === 'local'
      ? s.paths
      : s?.kind === 'sample'
        ? [s.cacheDir]
        : s && 'localCacheDir' in s && s.localCacheDir !== undefined
          ? [s.localCacheDir]
          : [];
  const issues: ValidationIssue[] = [];
  given.forEach(([flag, path], i) => {
    const twin = given.slice(0, i).find(([, other]) => fileIdentity(other) === fileIdentity(path));
    if (twin)
      issues.push({ field: flag, message: `${path} is also ${twin[0]} (${twin[1]}); give each output its own file` });
    const input = onInput(path, inputs);
    if (input !== undefined)
      issues.push({
        field: flag,
        message: `${path} is an input (${o.source?.kind === 'local' ? 'data path' : 'the input cache'} ${input}); an output never overwrites data`,
      });
  });
  return issues;
};

/** Every output path of a benchmark run that cannot be written, or that clashes with another path, each naming its flag. @public */
export const runOutputIssues = (o: RunOutputs): ValidationIssue[] =>
  outputPathIssues([
    ...clashes(o),
    checkOutputFile('--output-json', o.outputJson),
    checkOutputFile('--report-html', o.reportHtml),
    checkOutputFile('--trace-path', o.tracePath),
    checkOutputFile('--calibration-file', o.calibrationFile, { createsParent: true }),
    checkOutputDir('--output-dir', o.outputDir),
    sourceDir(o.source),
  ]);
