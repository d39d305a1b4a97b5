import type { CommandModule } from 'yargs';

/** Each `*.command.ts` exports one of these; `utility-commands.ts` lists them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type UtilityCommand = CommandModule<any, any>;
