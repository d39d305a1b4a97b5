import { CompareBenchmarksUseCase } from '@maou/bench-app';
import { err, ok, type BenchmarkCompareReport } from '@maou/bench-domain';
import {
  BENCHMARK_COMPARE_OPTIONS,
  BENCHMARK_COMPARE_POSITIONALS,
  toCompareRequest,
  type BenchmarkCompareArgs,
  type ValidCompareRequest,
} from '@maou/bench-interface';
import { readTrainingReport, writeCompareHtmlReport } from '@maou/bench-infra';
import { renderCompareSummary } from '../console/compare-summary';
import type { GlobalOptions } from '../composition-root';
import { runCommand, type CommandSpec } from '../run-command';
import { utilityCommand } from './command-module';

const spec: CommandSpec<BenchmarkCompareArgs & GlobalOptions, ValidCompareRequest, BenchmarkCompareReport> = {
  name: 'benchmark-compare',
  validate: toCompareRequest,
  run: async (container, request) => {
    const [a, b] = await Promise.all([readTrainingReport(request.a), readTrainingReport(request.b)]);
    // A report that is not one is bad input, like a bad flag.
    if (!a.ok) return err({ code: 2, message: a.error });
    if (!b.ok) return err({ code: 2, message: b.error });
    return ok(
      container.resolve(CompareBenchmarksUseCase).execute({
        a: { path: request.a, report: a.value },
        b: { path: request.b, report: b.value },
        alpha: request.alpha,
      }),
    );
  },
  present: (report) => ({
    payload: report,
    text: renderCompareSummary(report),
    writeHtml: (path) => writeCompareHtmlReport(report, path),
  }),
};

/** `maou utility benchmark-compare A.json B.json`. */
export const benchmarkCompareCommand = utilityCommand({
  command: 'benchmark-compare <a> <b>',
  describe: 'Are two benchmark-training runs different beyond noise?',
  builder: (y) =>
    y
      .positional('a', BENCHMARK_COMPARE_POSITIONALS.a)
      .positional('b', BENCHMARK_COMPARE_POSITIONALS.b)
      .options(BENCHMARK_COMPARE_OPTIONS)
      .example('$0 utility benchmark-compare before.json after.json', 'did my change make training faster?'),
  handler: (args) => runCommand(spec, args),
});
