import type { Argv } from 'yargs';
import type { GlobalArgv } from './command-module';
import { generateSampleDataCommand } from './generate-sample-data.command';
import { benchmarkIoCommand } from './benchmark-io.command';
import { benchmarkDataloaderCommand } from './benchmark-dataloader.command';
import { benchmarkTrainingCommand } from './benchmark-training.command';
import { benchmarkCompareCommand } from './benchmark-compare.command';
import { benchmarkTuneCommand } from './benchmark-tune.command';
import type { PlugIns } from '@maou/bench-app/commands';

/** Subcommands of `maou utility`, one line per command module (append under a lock). */
export const withUtilityCommands = (y: Argv<GlobalArgv>, plugIns: PlugIns): Argv<GlobalArgv> =>
  y
    .command(generateSampleDataCommand)
    .command(benchmarkIoCommand)
    .command(benchmarkDataloaderCommand(plugIns))
    .command(benchmarkTrainingCommand(plugIns))
    .command(benchmarkCompareCommand)
    .command(benchmarkTuneCommand(plugIns));
