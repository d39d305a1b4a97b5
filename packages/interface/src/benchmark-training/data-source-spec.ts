import type { SourceChoice, SourceFlag, SourceRun } from '@maou/bench-use-cases';
import {
  checkBoundedNumbers,
  formatBound,
  type DataSourceSpec,
  type Stage,
  type ValidationIssue,
} from '@maou/bench-domain';
import type { OptionTable } from '../options/option-table';

/** The registered datasource plug-ins and the machine's cache directory, supplied by the composition root. */
export interface SourceDefaults {
  readonly sources: readonly SourceChoice[];
  readonly cache: SourceRun['cache'];
}

type Picked =
  | { readonly spec: DataSourceSpec; readonly warnings: readonly string[] }
  | { readonly issues: readonly ValidationIssue[] };

const camel = (flag: string): string => flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const given = (raw: Readonly<Record<string, unknown>>, flag: string): boolean => {
  const v = raw[camel(flag)];
  return Array.isArray(v) ? v.length > 0 : v !== undefined && v !== false && v !== '';
};

/** Every flag of the registered plug-ins once, for a command of `stage` (all stages when absent). */
const sourceFlags = (sources: readonly SourceChoice[], stage?: Stage): [string, SourceFlag, SourceChoice][] => {
  const seen = new Map<string, [string, SourceFlag, SourceChoice]>();
  for (const s of sources)
    for (const [name, flag] of Object.entries(s.flags))
      if (!seen.has(name) && (stage === undefined || !flag.stages || flag.stages.includes(stage)))
        seen.set(name, [name, flag, s]);
  return [...seen.values()];
};

/** A flag's help: its own words, the kinds that read it when several do, and its default. */
const flagHelp = (name: string, flag: SourceFlag, sources: readonly SourceChoice[]): string => {
  const readers = sources.filter((s) => name in s.flags).map((s) => s.kind);
  const shared = readers.length > 1 ? `, for ${readers.join(', ')}` : '';
  return `${flag.describe}${shared}${flag.default === undefined ? '' : ` (default ${formatBound(flag.default)})`}`;
};

/**
 * The flags of the registered datasource plug-ins as option-table entries: each under its heading, or under the
 * plug-in's own (`Datasource s3: Amazon S3 ...`), so a source's help reaches `--help`; a flag several plug-ins read
 * names them, so a new one shows up there without a word changed.
 * @public
 */
export const sourceOptions = (sources: readonly SourceChoice[], stage?: Stage): OptionTable =>
  Object.fromEntries(
    sourceFlags(sources, stage).map(([name, flag, s]) => [
      name,
      {
        type: flag.type,
        describe: flagHelp(name, flag, sources),
        group: flag.group ?? `Datasource ${s.kind}: ${s.help}`,
        ...(flag.array ? { array: true } : {}),
        ...(flag.type === 'boolean' ? {} : { requiresArg: true }),
      },
    ]),
  );

/**
 * A note for each flag given that belongs to other plug-ins only (`--input-max-cached-bytes` on S3): maou accepts
 * such a flag whatever the source, so it is accepted here too, saying it has no effect.
 */
const foreignFlags = (
  raw: Readonly<Record<string, unknown>>,
  choice: SourceChoice,
  spec: DataSourceSpec,
  defaults: SourceDefaults,
): string[] =>
  sourceFlags(defaults.sources)
    .filter(([name]) => given(raw, name) && !(name in choice.flags))
    .map(([name]) => {
      const owners = defaults.sources.filter((s) => name in s.flags).map((s) => s.help);
      return `--${name} has no effect on ${spec.label}: it applies to ${owners.join(' or ')} only`;
    });

/**
 * Picks the one datasource of the run: the plug-in whose selecting flags are given (two are an error), else the one
 * that needs none (the embedded sample data). Every plug-in flag's bounds are checked; the plug-in parses the rest.
 */
export const pickDataSource = (
  raw: Readonly<Record<string, unknown>>,
  run: Omit<SourceRun, 'cache'>,
  defaults: SourceDefaults,
): Picked => {
  const bounded = checkBoundedNumbers(
    sourceFlags(defaults.sources).flatMap(([name, flag]) =>
      flag.bounds ? [[`--${name}`, raw[camel(name)], flag.bounds] as const] : [],
    ),
  );
  if (bounded.length) return { issues: bounded };
  const selecting = (s: SourceChoice) => s.selectedBy.filter((f) => given(raw, f));
  const chosen = defaults.sources.filter((s) => selecting(s).length);
  if (chosen.length > 1) {
    const [first, second] = [selecting(chosen[0]!)[0]!, selecting(chosen[1]!)[0]!];
    return {
      issues: [
        {
          field: `--${second}`,
          message: `cannot be combined with --${first} (${chosen[0]!.help}); choose one datasource`,
        },
      ],
    };
  }
  const choice = chosen[0] ?? defaults.sources.find((s) => s.selectedBy.length === 0);
  if (!choice)
    return {
      issues: [{ field: 'datasource', message: 'no datasource flag given, and no registered datasource needs none' }],
    };
  if (choice.stages && !choice.stages.includes(run.stage))
    return {
      issues: [
        {
          field: `--${selecting(choice)[0]}`,
          message: `${choice.help} holds Stage ${choice.stages.join('/')} data; use --stage ${choice.stages[0]}`,
        },
      ],
    };
  const parsed = choice.parse(raw, { ...run, cache: defaults.cache });
  if ('issues' in parsed) return parsed;
  const unsampled =
    run.sampleRatio !== undefined && !parsed.spec.sampled
      ? [`--sample-ratio only samples cloud sources, so it has no effect on ${parsed.spec.label} (read whole)`]
      : [];
  return {
    spec: parsed.spec,
    warnings: [...parsed.warnings, ...unsampled, ...foreignFlags(raw, choice, parsed.spec, defaults)],
  };
};
