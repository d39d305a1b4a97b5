import { BenchmarkIoUseCase, type BenchmarkIoResult, type ValidBenchmarkIoInput } from '@maou/bench-use-cases';
import { err, ok } from '@maou/bench-domain';
import { toBenchmarkIoInput, type BenchmarkIoArgs } from '@maou/bench-interface';
import type { GlobalOptions } from '../composition-root';
import type { CommandSpec } from '../run-command';
import { renderIoTable } from '../console/io-summary';

export const benchmarkIoSpec: CommandSpec<BenchmarkIoArgs & GlobalOptions, ValidBenchmarkIoInput, BenchmarkIoResult> = {
  name: 'benchmark-io',
  validate: toBenchmarkIoInput,
  run: async (container, input) => {
    const result = await container.resolve(BenchmarkIoUseCase).execute(input);
    return result.ok
      ? ok(result.value)
      : err({ code: result.error.kind === 'unknown-format' ? 2 : 1, message: result.error.message });
  },
  // `command` first: the marker by which a later run knows the JSON file as its own (files/output-kinds.ts)
  present: (r) => ({ payload: { command: 'benchmark-io', ...r }, text: renderIoTable(r) }),
};
