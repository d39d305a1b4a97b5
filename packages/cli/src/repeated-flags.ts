import type { Arguments } from 'yargs';

/** What of yargs' declared options the check reads: every flag's name, and those that take a list. */
export interface DeclaredOptions {
  readonly key: Readonly<Record<string, unknown>>;
  readonly array: readonly string[];
}

/**
 * A flag that takes one value, given more than once (`--max-batches 6 --max-batches 400`): yargs would pass on both
 * values as a list ("got 6,400"); this names the flag and the values instead. Flags that take lists may repeat.
 * Returns true, or the message (yargs' `check` contract: it then fails, exit 2, through the CLI's `fail`).
 */
export const refuseRepeatedFlags = (argv: Arguments, options: DeclaredOptions): true | string => {
  for (const name of Object.keys(options.key)) {
    const value = argv[name];
    if (!options.array.includes(name) && Array.isArray(value))
      return `--${name} was given ${value.length} times (${value.join(', ')}); give it once`;
  }
  return true;
};
