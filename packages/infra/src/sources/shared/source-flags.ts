import type { SourceFlag } from '@maou/bench-use-cases';
import type { ValidationIssue } from '@maou/bench-domain';
import { DEFAULT_REQUEST_TIMEOUT_S } from './deadline';

/** The heading of the flags cloud sources share (their `--help` names the kinds that read each). @internal */
export const CLOUD = 'Cloud input (Stage 3):';

/** Flags more than one cloud plug-in reads; each plug-in lists the ones it reads, the registry shows each once. @internal */
export const CLOUD_FLAGS = {
  'input-request-timeout': {
    type: 'number',
    describe:
      'seconds one cloud request may wait for an answer, all its tries together (a server that accepts and never answers fails after this)',
    bounds: { min: 1, max: 86_400 },
    default: DEFAULT_REQUEST_TIMEOUT_S,
    group: CLOUD,
  },
  'input-local-cache-dir': { type: 'string', describe: 'local cache for downloaded objects or pages', group: CLOUD },
  'input-endpoint': {
    type: 'string',
    describe: 'custom endpoint (e.g. a local server)',
    group: CLOUD,
  },
} as const satisfies Record<string, SourceFlag>;

/** A plug-in flag's value as yargs (camelCase) hands it over. @internal */
export const flagValue = (flags: Readonly<Record<string, unknown>>, name: string): unknown =>
  flags[name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())];

/** A number flag's value, or the default its declaration holds (the one `--help` shows). @internal */
export const numberFlag = <F extends Readonly<Record<string, SourceFlag>>>(
  flags: Readonly<Record<string, unknown>>,
  declared: F,
  name: { [K in keyof F]: F[K] extends { readonly default: number } ? K : never }[keyof F] & string,
): number => (flagValue(flags, name) as number | undefined) ?? (declared[name]!.default as number);

/** A required string flag that is missing or empty, as an issue naming it. @internal */
export const requireFlags = (
  flags: Readonly<Record<string, unknown>>,
  names: readonly string[],
  why: string,
): ValidationIssue[] =>
  names.flatMap((n) => (flagValue(flags, n) ? [] : [{ field: `--${n}`, message: `required ${why}` }]));
