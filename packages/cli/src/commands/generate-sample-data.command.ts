import {
  GenerateSampleDataUseCase,
  type GenerateSampleDataResult,
  type ValidGenerateSampleDataInput,
} from '@maou/bench-app';
import { err, ok } from '@maou/bench-domain';
import {
  GENERATE_SAMPLE_DATA_OPTIONS,
  toGenerateSampleDataInput,
  type GenerateSampleDataArgs,
} from '@maou/bench-interface';
import type { GlobalOptions } from '../composition-root';
import { runCommand, type CommandSpec } from '../run-command';
import { utilityCommand } from './command-module';

const summary = (r: GenerateSampleDataResult): string =>
  [
    ...r.files.map((f) => `${f.path}\t${f.rows} rows\t${f.bytes} bytes`),
    `Stage ${r.stage}: ${r.rows} rows in ${r.files.length} file(s), ${(r.bytes / 1e6).toFixed(2)} MB, ${r.seconds.toFixed(1)} s`,
    '',
  ].join('\n');

const spec: CommandSpec<
  GenerateSampleDataArgs & GlobalOptions,
  ValidGenerateSampleDataInput,
  GenerateSampleDataResult
> = {
  name: 'generate-sample-data',
  validate: toGenerateSampleDataInput,
  outputs: (_args, input) => ({ outputDir: input.outputDir }),
  run: async (container, input) => {
    const result = await container.resolve(GenerateSampleDataUseCase).execute(input);
    return result.ok ? ok(result.value) : err({ code: 1, message: result.error.message });
  },
  present: (r) => ({ payload: r, text: summary(r) }),
};

/** `maou utility generate-sample-data`: maou-format records from random legal games. */
export const generateSampleDataCommand = utilityCommand({
  command: 'generate-sample-data',
  describe: 'Generate Stage 1/2/3 records (maou .feather, LZ4) from random legal shogi games',
  builder: (y) => y.options(GENERATE_SAMPLE_DATA_OPTIONS),
  handler: (args) => runCommand(spec, args),
});
