import type { UtilityCommand } from './command-module';
import { generateSampleDataCommand } from './generate-sample-data.command';
import { benchmarkIoCommand } from './benchmark-io.command';
import { benchmarkDataloaderCommand } from './benchmark-dataloader.command';
import { benchmarkTrainingCommand } from './benchmark-training.command';
import { benchmarkCompareCommand } from './benchmark-compare.command';

/** Subcommands of `maou utility`, one import per command module (append under a lock). */
export const utilityCommands: UtilityCommand[] = [
  generateSampleDataCommand,
  benchmarkIoCommand,
  benchmarkDataloaderCommand,
  benchmarkTrainingCommand,
  benchmarkCompareCommand,];
