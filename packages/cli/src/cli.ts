import yargs, { type Argv } from 'yargs';
import { withUtilityCommands } from './commands/utility-commands';
import { withVersionAndCompletion } from './completion';
import { GLOBAL_OPTIONS } from '@maou/bench-app/commands';
import { refuseRepeatedFlags, type DeclaredOptions } from './repeated-flags';
import { usageFailure } from './usage-failure';
import type { PlugIns } from '@maou/bench-app/commands';

/** The `maou` command tree, its flags and choices from `plugIns`. */
export const buildCli = (argv: readonly string[], plugIns: PlugIns): Argv =>
  withVersionAndCompletion(yargs([...argv]).scriptName('maou'))
    .option('log-level', { ...GLOBAL_OPTIONS['log-level'], global: true })
    .command('utility', 'benchmarks and data tools', (y) =>
      withUtilityCommands(y, plugIns).demandCommand(1, 'name a utility command'),
    )
    .demandCommand(1, 'name a command')
    .strict()
    .recommendCommands()
    // `run()` reports the exit code; the host process is never exited from here.
    .exitProcess(false)
    // yargs passes its declared options here (its typings say aliases).
    .check((parsed, options) => refuseRepeatedFlags(parsed, options as unknown as DeclaredOptions, argv))
    .fail((msg, error, usage) => {
      // yargs' own parse errors (a flag missing its value) come as a YError, a check's message as a plain string;
      // any other Error is a real failure
      if (error instanceof Error && error.name !== 'YError') throw error;
      const text = msg ?? (error instanceof Error ? error.message : undefined);
      throw usageFailure(text ?? 'invalid command line', usage, argv);
    })
    .help();
