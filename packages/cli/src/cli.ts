// tsyringe's decorators need the metadata polyfill before any use case module loads.
import 'reflect-metadata';
import yargs, { type Argv } from 'yargs';
import { withUtilityCommands } from './commands/utility-commands';
import { withVersionAndCompletion } from './completion';

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
    .fail((msg, error, y) => {
      if (error) throw error;
      y.showHelp();
      process.stderr.write(`\nmaou: ${msg}\n`);
      process.exit(2);
    })
    .help();
