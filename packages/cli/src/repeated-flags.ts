import type { Arguments } from 'yargs';

/** What of yargs' declared options the check reads: every flag's name, those that take a list, the switches. */
export interface DeclaredOptions {
  readonly key: Readonly<Record<string, unknown>>;
  readonly array: readonly string[];
  readonly boolean: readonly string[];
  readonly alias: Readonly<Record<string, readonly string[]>>;
}

const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * A switch given more than once (`--run-validation --no-run-validation`): yargs keeps the last silently, so the
 * command line is read as typed (up to `--`). Aliases and camelCase spellings count as the same switch.
 */
const repeatedSwitch = (argv: readonly string[], options: DeclaredOptions): string | undefined => {
  const owner = new Map<string, string>();
  for (const name of options.boolean) {
    const canonical = kebab(name);
    for (const spelling of [name, ...(options.alias[name] ?? [])]) owner.set(kebab(spelling), canonical);
  }
  const seen = new Map<string, string[]>();
  for (const token of argv) {
    if (token === '--') break;
    if (!token.startsWith('--')) continue;
    const bare = kebab(token.slice(2).split('=')[0]!);
    const switchName = owner.get(bare) ?? (bare.startsWith('no-') ? owner.get(bare.slice(3)) : undefined);
    if (switchName !== undefined) seen.set(switchName, [...(seen.get(switchName) ?? []), token]);
  }
  for (const [name, tokens] of seen)
    if (tokens.length > 1) return `--${name} was given ${tokens.length} times (${tokens.join(', ')}); give it once`;
  return undefined;
};

/**
 * A flag that takes one value, given more than once (`--max-batches 6 --max-batches 400`): yargs would pass on both
 * values as a list ("got 6,400"), or keep the last of a switch's; this names the flag and what was given instead.
 * Flags that take lists may repeat. Returns true, or the message (yargs' `check` contract: it then fails, exit 2,
 * through the CLI's `fail`).
 */
export const refuseRepeatedFlags = (
  parsed: Arguments,
  options: DeclaredOptions,
  argv: readonly string[],
): true | string => {
  for (const name of Object.keys(options.key)) {
    const value = parsed[name];
    if (!options.array.includes(name) && Array.isArray(value))
      return `--${name} was given ${value.length} times (${value.join(', ')}); give it once`;
  }
  return repeatedSwitch(argv, options) ?? true;
};
