import { benchmarkTrainingSpec, benchmarkTrainingTable, type PlugIns } from '@maou/bench-app/commands';
import { runCommand } from '../run-command';
import { utilityCommand } from './command-module';

/** `maou utility benchmark-training`. */
export const benchmarkTrainingCommand = (plugIns: PlugIns) =>
  utilityCommand({
    command: 'benchmark-training',
    describe: 'Time a single-epoch dry run of the training stack and predict the epoch',
    builder: (y) => {
      const withExamples = y
        .options(benchmarkTrainingTable(plugIns))
        .example(
          '$0 utility benchmark-training --max-batches 20 --warmup-batches 5',
          'benchmark on the embedded sample data',
        )
        .example(
          '$0 utility benchmark-training --stage3-data-path data/ --batch-size 128 --run-validation --output-json out.json',
          'your Stage 3 files, with a validation pass',
        )
        .example(
          '$0 utility benchmark-training --batch-sizes 64,128,256,512 --estimate-cbs --report-html study.html',
          'which batch size: throughput, critical batch size, gradient noise scale',
        );
      // the search's example on the first backend with a bounded heap, by its capability
      const heap = plugIns.backends.byPriority().find((b) => b.boundedHeap);
      return heap
        ? withExamples.example(
            `$0 utility benchmark-training --gpu ${heap.usage} --find-max-batch`,
            `the largest batch that trains as one piece in the ${heap.name} heap`,
          )
        : withExamples;
    },
    handler: (args) => runCommand(benchmarkTrainingSpec(plugIns), args),
  });
