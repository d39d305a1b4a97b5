// tsyringe's decorators need the metadata polyfill before any use case module loads.
import 'reflect-metadata';
import yargs, { type Argv } from 'yargs';
import { withUtilityCommands } from './commands/utility-commands';
import { withVersionAndCompletion } from './completion';
import { refuseRepeatedFlags, type DeclaredOptions } from './repeated-flags';

/** The `maou` command tree. */
export const buildCli = (argv: readonly string[]): Argv =>
  withVersionAndCompletion(yargs([...argv]).scriptName('maou'))
    .option('log-level', {
      choices: ['debug', 'info', 'warn', 'error', 'silent'] as const,
      default: 'warn' as const,
      describe: 'JSON log level on stderr',
      global: true,
    })
    .command('utility', 'benchmarks and data tools', (y) =>
      withUtilityCommands(y).demandCommand(1, 'name a utility command'),
    )
    .demandCommand(1, 'name a command')
    .strict()
    // yargs passes its declared options here (its typings say aliases).
    .check((parsed, options) => refuseRepeatedFlags(parsed, options as unknown as DeclaredOptions))
    .fail((msg, error, y) => {
      // A check's message arrives as `error` too, as a string: only a real exception is rethrown.
      if (error instanceof Error) throw error;
      y.showHelp();
      process.stderr.write(`\nmaou: ${msg}\n`);
      process.exit(2);
    })
    .help();
