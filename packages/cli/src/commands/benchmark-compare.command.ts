import { CompareBenchmarksUseCase } from '@maou/bench-app';
import { readTrainingReport, renderCompareSummary, toJson, writeCompareHtmlReport, writeJsonReport } from '@maou/bench-infra';
import type { UtilityCommand } from './command-module';
import { checkOutputFile, outputPathIssues } from '../output/output-paths';
import { formatIssues } from '@maou/bench-domain';

interface Args {
  readonly a: string;
  readonly b: string;
  readonly alpha: number;
  readonly outputJson?: string;
  readonly json?: boolean;
  readonly reportHtml?: string;
}

const handler = async (args: Args): Promise<void> => {
  const issues = [
    ...(args.alpha > 0 && args.alpha < 0.5 ? [] : [{ field: '--alpha', message: `must be in (0, 0.5), got ${args.alpha}` }]),
    ...outputPathIssues([checkOutputFile('--output-json', args.outputJson), checkOutputFile('--report-html', args.reportHtml)]),
  ];
  if (issues.length) {
    process.stderr.write(`maou benchmark-compare: invalid options\n${formatIssues(issues)}\n`);
    process.exitCode = 2;
    return;
  }
  const [a, b] = await Promise.all([readTrainingReport(args.a), readTrainingReport(args.b)]);
  for (const r of [a, b]) {
    if (!r.ok) {
      process.stderr.write(`maou benchmark-compare: ${r.error}\n`);
      process.exitCode = 2;
      return;
    }
  }
  if (!a.ok || !b.ok) return;
  const report = new CompareBenchmarksUseCase().execute({ a: { path: args.a, report: a.value }, b: { path: args.b, report: b.value }, alpha: args.alpha });
  if (args.outputJson) await writeJsonReport(report, args.outputJson);
  if (args.reportHtml) {
    const html = await writeCompareHtmlReport(report, args.reportHtml);
    if (!html.ok) throw new Error(html.error.message);
  }
  process.stdout.write(args.json ? toJson(report) : renderCompareSummary(report));
};

/** `maou utility benchmark-compare A.json B.json`. */
export const benchmarkCompareCommand: UtilityCommand = {
  command: 'benchmark-compare <a> <b>',
  describe: 'Are two benchmark-training runs different beyond noise?',
  builder: (y) => y
    .positional('a', { type: 'string', describe: 'baseline report (--output-json of benchmark-training)' })
    .positional('b', { type: 'string', describe: 'candidate report' })
    .options({
      alpha: { type: 'number', default: 0.05, describe: 'significance level of the test' },
      'output-json': { type: 'string', describe: 'write the comparison as JSON' },
      json: { type: 'boolean', describe: 'print the JSON on stdout' },
      'report-html': { type: 'string', describe: 'write a self-contained HTML report' },
    })
    .example('$0 utility benchmark-compare before.json after.json', 'did my change make training faster?'),
  handler: (args) => handler(args as unknown as Args),
};
