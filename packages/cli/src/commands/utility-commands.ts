import type { UtilityCommand } from './command-module';

/** Subcommands of `maou utility`, one import per command module (append under a lock). */
export const utilityCommands: UtilityCommand[] = [];
