import { GENERATE_SAMPLE_DATA_OPTIONS } from '@maou/bench-interface';
import { generateSampleDataSpec } from '@maou/bench-app/commands';
import { runCommand } from '../run-command';
import { utilityCommand } from './command-module';

/** `maou utility generate-sample-data`: maou-format records from random legal games. */
export const generateSampleDataCommand = utilityCommand({
  command: 'generate-sample-data',
  describe: 'Generate Stage 1/2/3 records (maou .feather, LZ4) from random legal shogi games',
  builder: (y) => y.options(GENERATE_SAMPLE_DATA_OPTIONS),
  handler: (args) => runCommand(generateSampleDataSpec, args),
});
