// The composition root first: it loads the reflect-metadata polyfill that tsyringe needs.
import { createContainer, type GlobalOptions } from '../composition-root';
import { GenerateSampleDataUseCase, TOKENS, validateGenerateSampleDataInput, type ClockPort, type LoggerPort, type ProgressPort } from '@maou/bench-app';
import { formatIssues } from '@maou/bench-domain';
import { SampleDataGeneratorAdapter } from '@maou/bench-infra';
import type { UtilityCommand } from './command-module';
import { checkOutputDir } from '../output/output-paths';

interface Args extends GlobalOptions {
  readonly stage: number;
  readonly positions: number;
  readonly outputDir: string;
  readonly seed?: number;
  readonly rowsPerFile?: number;
}

const handler = async (args: Args): Promise<void> => {
  const input = validateGenerateSampleDataInput(args);
  const dir = input.ok ? checkOutputDir('--output-dir', args.outputDir) : null;
  if (!input.ok || dir) {
    process.stderr.write(`maou generate-sample-data:\n${formatIssues(input.ok ? [dir!] : input.error)}\n`);
    process.exitCode = 2;
    return;
  }
  const c = createContainer(args);
  const useCase = new GenerateSampleDataUseCase(
    new SampleDataGeneratorAdapter(), c.resolve<ProgressPort>(TOKENS.Progress), c.resolve<ClockPort>(TOKENS.Clock), c.resolve<LoggerPort>(TOKENS.Logger),
  );
  const result = await useCase.execute(input.value);
  if (!result.ok) {
    process.stderr.write(`maou generate-sample-data: ${result.error.message}\n`);
    process.exitCode = 1;
    return;
  }
  const r = result.value;
  for (const f of r.files) process.stdout.write(`${f.path}\t${f.rows} rows\t${f.bytes} bytes\n`);
  process.stdout.write(`Stage ${r.stage}: ${r.rows} rows in ${r.files.length} file(s), ${(r.bytes / 1e6).toFixed(2)} MB, ${r.seconds.toFixed(1)} s\n`);
};

/** `maou utility generate-sample-data`: maou-format records from random legal games. */
export const generateSampleDataCommand: UtilityCommand = {
  command: 'generate-sample-data',
  describe: 'Generate Stage 1/2/3 records (maou .feather, LZ4) from random legal shogi games',
  builder: (y) => y.options({
    stage: { type: 'number', demandOption: true, describe: '1 reachable squares, 2 legal moves, 3 policy + value' },
    positions: { type: 'number', demandOption: true, describe: 'distinct positions (rows) to generate; Stage 1 repeats its 1,105 patterns' },
    'output-dir': { type: 'string', demandOption: true, describe: 'directory for the .feather files' },
    seed: { type: 'number', describe: 'seed of the random games (default 0)' },
    'rows-per-file': { type: 'number', describe: 'rows per file (default maou: 1,000,000 Stage 3, 100,000 Stage 2)' },
  }),
  handler: (args) => handler(args as unknown as Args),
};
