import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import type { LogLevel } from '@maou/bench-infra';

/** The global flags as yargs types them before camel-casing (`--log-level`, declared in cli.ts). */
export interface GlobalArgv {
  'log-level': LogLevel;
}

/**
 * A utility command whose handler's argument type yargs infers from the builder's option table: the table is the
 * one list of flags, so handler and table cannot drift apart (no cast joins them).
 */
export const utilityCommand = <A>(m: {
  readonly command: string;
  readonly describe: string;
  readonly builder: (y: Argv<GlobalArgv>) => Argv<A>;
  readonly handler: (args: ArgumentsCamelCase<A>) => Promise<void>;
}): CommandModule<GlobalArgv, A> => m;
