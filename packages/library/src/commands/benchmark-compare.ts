import { CompareBenchmarksUseCase } from '@maou/bench-use-cases';
import { err, ok, type BenchmarkCompareReport } from '@maou/bench-domain';
import { toCompareRequest, type BenchmarkCompareArgs, type ValidCompareRequest } from '@maou/bench-interface';
import { readTrainingReport, writeCompareHtmlReport } from '@maou/bench-infra';
import { renderCompareSummary } from '../console/compare-summary';
import type { GlobalOptions } from '../composition-root';
import type { CommandSpec } from '../run-command';

export const benchmarkCompareSpec: CommandSpec<
  BenchmarkCompareArgs & GlobalOptions,
  ValidCompareRequest,
  BenchmarkCompareReport
> = {
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
