import type { OptionTable } from '@maou/bench-interface';

/** Flags every command takes; `maou` declares them global, `benchmarkTraining()` takes them beside its own. @public */
export const GLOBAL_OPTIONS = {
  'log-level': {
    type: 'string',
    choices: ['debug', 'info', 'warn', 'error', 'silent'],
    default: 'warn',
    requiresArg: true,
    describe: 'JSON log level on stderr',
  },
} as const satisfies OptionTable;
