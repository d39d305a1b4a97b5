import type { DataSourceSpec, ValidationIssue } from '@maou/bench-domain';
import { checkOutputDir, checkOutputFile, outputPathIssues } from './output-paths';

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

const sourceDir = (source: DataSourceSpec | undefined): ValidationIssue | null => {
  if (source?.kind === 'sample') return checkOutputDir('--sample-cache-dir', source.cacheDir);
  if (source && 'localCacheDir' in source) return checkOutputDir('--input-local-cache-dir', source.localCacheDir);
  return null;
};

/** Every output path of a benchmark run that cannot be written, each naming its flag. @public */
export const runOutputIssues = (o: RunOutputs): ValidationIssue[] =>
  outputPathIssues([
    checkOutputFile('--output-json', o.outputJson),
    checkOutputFile('--report-html', o.reportHtml),
    checkOutputFile('--trace-path', o.tracePath),
    checkOutputFile('--calibration-file', o.calibrationFile, { createsParent: true }),
    checkOutputDir('--output-dir', o.outputDir),
    sourceDir(o.source),
  ]);
