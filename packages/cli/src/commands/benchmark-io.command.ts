import { BENCHMARK_IO_OPTIONS } from '@maou/bench-interface';
import { benchmarkIoSpec } from '@maou/bench-app/commands';
import { runCommand } from '../run-command';
import { utilityCommand } from './command-module';

/** `maou utility benchmark-io`: write/read throughput per format and compression on the same rows. */
export const benchmarkIoCommand = utilityCommand({
  command: 'benchmark-io',
  describe: 'Write and read throughput (rows/s, MB/s) of .feather (LZ4/none), Arrow stream and .npy on the same rows',
  builder: (y) => y.options(BENCHMARK_IO_OPTIONS),
  handler: (args) => runCommand(benchmarkIoSpec, args),
});
