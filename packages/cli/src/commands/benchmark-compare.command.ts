import { BENCHMARK_COMPARE_OPTIONS, BENCHMARK_COMPARE_POSITIONALS } from '@maou/bench-interface';
import { benchmarkCompareSpec } from '@maou/bench-app/commands';
import { runCommand } from '../run-command';
import { utilityCommand } from './command-module';

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
  handler: (args) => runCommand(benchmarkCompareSpec, args),
});
