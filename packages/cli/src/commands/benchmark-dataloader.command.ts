import { benchmarkDataloaderOptions, sourceOptions } from '@maou/bench-interface';
import { benchmarkDataloaderSpec, type PlugIns } from '@maou/bench-app/commands';
import { runCommand } from '../run-command';
import { utilityCommand } from './command-module';

/** `maou utility benchmark-dataloader`. */
export const benchmarkDataloaderCommand = (plugIns: PlugIns) =>
  utilityCommand({
    command: 'benchmark-dataloader',
    describe:
      "Find loader settings (workers × prefetch × batch size) that keep the model fed, against the model's own rate",
    builder: (y) =>
      y
        .options({
          ...benchmarkDataloaderOptions(plugIns.backends.byPriority()),
          ...sourceOptions(plugIns.sources.choices(), 3),
        })
        .example('$0 utility benchmark-dataloader --num-batches 30', 'on the embedded sample data')
        .example(
          '$0 utility benchmark-dataloader --stage3-data-path data/ --workers 0 1 2 --batch-sizes 128 256 --output-json dl.json',
          'your files, a custom grid',
        ),
    handler: (args) => runCommand(benchmarkDataloaderSpec(plugIns), args),
  });
