import { benchmarkTuneSpec, benchmarkTuneTable, type PlugIns } from '@maou/bench-app/commands';
import { runCommand } from '../run-command';
import { utilityCommand } from './command-module';

/** `maou utility benchmark-tune`. */
export const benchmarkTuneCommand = (plugIns: PlugIns) =>
  utilityCommand({
    command: 'benchmark-tune',
    describe:
      'Measure each advised change against your configuration in one run, keep what measurably helps, and print the command line',
    builder: (y) =>
      y
        .options(benchmarkTuneTable(plugIns))
        .example(
          '$0 utility benchmark-tune --threads 1 --dataloader-workers 0',
          'which of the advised changes help here',
        )
        .example(
          '$0 utility benchmark-tune --stage3-data-path data/ --tune-budget 600 --tune-allow batch-size --output-json tune.json',
          'your files, ten minutes, larger batches allowed up to the measured critical batch size',
        ),
    handler: (args) => runCommand(benchmarkTuneSpec(plugIns), args),
  });
