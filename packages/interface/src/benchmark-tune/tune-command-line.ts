import type { TuneChange } from '@maou/bench-domain';
import type { OptionTable } from '../options/option-table';

const camelCase = (flag: string): string => flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
/** A value as a shell reads it back: bare when it is plain, else in single quotes. */
const shellWord = (v: string): string => (/^[\w@%+=:,./-]+$/.test(v) ? v : `'${v.replace(/'/g, `'\\''`)}'`);

/** Flags that say where the answer goes, not what runs. */
const OUTPUT_FLAGS = new Set(['output-json', 'json', 'report-html']);

/**
 * `maou utility benchmark-training …` that runs the configuration the flags gave with `changes` applied: every flag of
 * `table` whose value differs from the table's default (a switch on as `--flag`, a switch whose default is on as
 * `--no-flag`), a changed flag at its new value, the tune's own flags and the output flags left out.
 * @public
 */
export const tuneCommandLine = (
  table: OptionTable,
  args: Readonly<Record<string, unknown>>,
  changes: readonly TuneChange[],
  leaveOut: readonly string[] = [],
): string => {
  const changed = new Map(changes.map((c) => [c.flag.replace(/^--/, ''), c.value]));
  const words = ['maou', 'utility', 'benchmark-training'];
  for (const [flag, spec] of Object.entries(table)) {
    if (OUTPUT_FLAGS.has(flag) || leaveOut.includes(flag)) continue;
    const given = changed.has(flag) ? changed.get(flag) : args[camelCase(flag)];
    const value =
      spec.type === 'boolean' && typeof given === 'string'
        ? given === 'true'
        : spec.type === 'number' && typeof given === 'string'
          ? Number(given)
          : given;
    if (value === undefined || (value === spec.default && !changed.has(flag))) continue;
    if (spec.type === 'boolean') {
      if (value === true && spec.default !== true) words.push(`--${flag}`);
      else if (value === false && spec.default === true) words.push(`--no-${flag}`);
      continue;
    }
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    if (values.length) words.push(`--${flag}`, ...values.map(shellWord));
  }
  return words.join(' ');
};
