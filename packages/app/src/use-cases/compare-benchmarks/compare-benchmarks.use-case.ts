import { injectable } from 'tsyringe';
import {
  compareRuns,
  diffRecords,
  type BenchmarkCompareReport,
  type ComparableTrainingReport,
} from '@maou/bench-domain';

/** Two reports and where they came from. @public */
export interface CompareBenchmarksInput {
  readonly a: { readonly path: string; readonly report: ComparableTrainingReport };
  readonly b: { readonly path: string; readonly report: ComparableTrainingReport };
  readonly alpha?: number;
}

const steady = (r: ComparableTrainingReport): number[] => r.batches.filter((b) => !b.warmup).map((b) => b.wallMs);
const label = (r: ComparableTrainingReport): string =>
  `${r.environment.backend} · ${r.model.preset} · batch ${r.training_metrics.batch_size}`;

/**
 * Are two runs different beyond noise? Tests their steady-state batch times (never a bare ratio of means)
 * and lists how their environments and configurations differ.
 * @public
 */
@injectable()
export class CompareBenchmarksUseCase {
  execute({ a, b, alpha = 0.05 }: CompareBenchmarksInput): BenchmarkCompareReport {
    const side = (x: CompareBenchmarksInput['a']) => ({
      path: x.path,
      label: label(x.report),
      batch_ms: steady(x.report),
      samples_per_second: x.report.training_metrics.samples_per_second,
    });
    return {
      schema_version: 1,
      command: 'benchmark-compare',
      a: side(a),
      b: side(b),
      comparison: compareRuns(steady(a.report), steady(b.report), alpha),
      environment_diff: diffRecords({ ...a.report.environment }, { ...b.report.environment }),
      config_diff: diffRecords(a.report.config, b.report.config),
    };
  }
}
