import { BenchmarkIoUseCase, type BenchmarkIoResult, type ValidBenchmarkIoInput } from '@maou/bench-app';
import { err, ok } from '@maou/bench-domain';
import { BENCHMARK_IO_OPTIONS, toBenchmarkIoInput, type BenchmarkIoArgs } from '@maou/bench-interface';
import type { GlobalOptions } from '../composition-root';
import { runCommand, type CommandSpec } from '../run-command';
import { utilityCommand } from './command-module';
import { renderIoTable } from '../console/io-summary';

const spec: CommandSpec<BenchmarkIoArgs & GlobalOptions, ValidBenchmarkIoInput, BenchmarkIoResult> = {
  name: 'benchmark-io',
  validate: toBenchmarkIoInput,
  run: async (container, input) => {
    const result = await container.resolve(BenchmarkIoUseCase).execute(input);
    return result.ok
      ? ok(result.value)
      : err({ code: result.error.kind === 'unknown-format' ? 2 : 1, message: result.error.message });
  },
  present: (r) => ({ payload: r, text: renderIoTable(r) }),
};

/** `maou utility benchmark-io`: write/read throughput per format and compression on the same rows. */
export const benchmarkIoCommand = utilityCommand({
  command: 'benchmark-io',
  describe: 'Write and read throughput (rows/s, MB/s) of .feather (LZ4/none), Arrow stream and .npy on the same rows',
  builder: (y) => y.options(BENCHMARK_IO_OPTIONS),
  handler: (args) => runCommand(spec, args),
});
