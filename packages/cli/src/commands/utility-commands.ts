import type { UtilityCommand } from './command-module';
import { benchmarkDataloaderCommand } from './benchmark-dataloader.command';
import { benchmarkTrainingCommand } from './benchmark-training.command';
import { benchmarkCompareCommand } from './benchmark-compare.command';

/** Subcommands of `maou utility`, one import per command module (append under a lock). */
export const utilityCommands: UtilityCommand[] = [
  benchmarkDataloaderCommand,
  benchmarkTrainingCommand,
  benchmarkCompareCommand,];
