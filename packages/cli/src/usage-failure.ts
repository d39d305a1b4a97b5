import { closestName } from '@maou/bench-app/commands';
import { UsageError } from '@maou/bench-app';

/** What yargs' `fail` callback is handed as its third argument (its usage, despite the typings); read defensively. */
interface YargsUsage {
  getDescriptions?: () => Record<string, unknown>;
  getCommands?: () => readonly (readonly unknown[])[];
}

const names = (usage: YargsUsage) => ({
  flags: Object.keys(usage.getDescriptions?.() ?? {}),
  commands: (usage.getCommands?.() ?? []).map((c) => String(c[0]).split(' ')[0]),
});

const unknownText = (typed: string, known: { flags: string[]; commands: string[] }, dashed: boolean): string => {
  const near = closestName(typed, dashed ? known.flags : known.commands);
  const shown = dashed ? `--${typed}` : typed;
  return `unknown ${dashed ? 'option' : 'argument'} ${shown}${near ? `; did you mean ${dashed ? `--${near}` : near}?` : ''}`;
};

/**
 * Turns a yargs parse failure into a `UsageError` with one line per problem: a value flag with no value names the
 * flag, an unknown flag or command gets the closest known name. `argv` is the command line, for the typed words and
 * the command path the pointer to `--help` names.
 */
export const usageFailure = (msg: string, usageArg: unknown, argv: readonly string[]): UsageError => {
  const usage = (usageArg ?? {}) as YargsUsage;
  const known = names(usage);
  const firstFlag = argv.findIndex((a) => a.startsWith('-'));
  const words = firstFlag < 0 ? argv : argv.slice(0, firstFlag);
  const commandPath = (bad: readonly string[]) => words.filter((w) => !bad.includes(w)).join(' ');
  const missing = /^Not enough arguments following: (.+)$/.exec(msg);
  if (missing) return new UsageError(`--${missing[1]} needs a value`, [], commandPath([]));
  const unknown = /^Unknown arguments?: (.+)$/.exec(msg);
  if (unknown) {
    const typed = unknown[1].split(', ');
    const dashed = (t: string) => argv.some((a) => a === `--${t}` || a.startsWith(`--${t}=`) || a === `-${t}`);
    // yargs lists a mistyped --batch-sise twice (batch-sise, batchSise); keep the spelling that was typed
    const shown = typed.filter((t) => dashed(t) || argv.includes(t));
    return new UsageError(shown.map((t) => unknownText(t, known, dashed(t))).join('\n'), [], commandPath(shown));
  }
  const recommended = /^Did you mean (.+)\?$/.exec(msg);
  if (recommended) {
    const typed = words.find((w) => !known.commands.includes(w) && closestName(w, [recommended[1]]));
    return new UsageError(
      `unknown command ${typed ?? ''}; did you mean ${recommended[1]}?`,
      [],
      commandPath(typed ? [typed] : []),
    );
  }
  return new UsageError(msg, [], commandPath([]));
};
