import type { BenchmarkCompareReport } from '@maou/bench-domain';
import { BENCHMARK_COMPARE_OPTIONS, BENCHMARK_COMPARE_POSITIONALS, type RawOptions } from '@maou/bench-interface';
import type { LogLevel } from '@maou/bench-infra';
import type { RunWiring } from './benchmark-training';
import { benchmarkCompareSpec } from './commands/benchmark-compare';
import { runAsLibrary } from './library-options';

/** The options of `maou utility benchmark-compare`: the two reports (`a`, `b`: paths) and its flags. @public */
export type BenchmarkCompareOptions = Omit<
  RawOptions<typeof BENCHMARK_COMPARE_POSITIONALS & typeof BENCHMARK_COMPARE_OPTIONS>,
  'json'
> & { readonly a: string; readonly b: string; readonly logLevel?: LogLevel };

/**
 * `maou utility benchmark-compare`: are two benchmark-training reports (their `--output-json` files) different beyond
 * noise? Resolves to the comparison; a file that is not such a report rejects with `BenchmarkRunError` (exit code 2).
 * @public
 */
export const benchmarkCompare = (
  options: BenchmarkCompareOptions,
  wiring: RunWiring = {},
): Promise<BenchmarkCompareReport> =>
  runAsLibrary(
    benchmarkCompareSpec,
    { ...BENCHMARK_COMPARE_POSITIONALS, ...BENCHMARK_COMPARE_OPTIONS },
    options,
    wiring,
  );
