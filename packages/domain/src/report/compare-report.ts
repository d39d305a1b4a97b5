import type { RunComparison } from '../compare/compare-runs';

/** The payload of `benchmark-compare`. @public */
export interface BenchmarkCompareReport {
  readonly schema_version: 1;
  readonly command: 'benchmark-compare';
  readonly a: {
    readonly path: string;
    readonly label: string;
    readonly batch_ms: readonly number[];
    readonly samples_per_second: number;
  };
  readonly b: {
    readonly path: string;
    readonly label: string;
    readonly batch_ms: readonly number[];
    readonly samples_per_second: number;
  };
  readonly comparison: RunComparison;
  readonly environment_diff: readonly { readonly key: string; readonly a: unknown; readonly b: unknown }[];
  readonly config_diff: readonly { readonly key: string; readonly a: unknown; readonly b: unknown }[];
}
