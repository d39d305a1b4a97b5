import { statSync } from 'node:fs';
import type { SourceFlag } from '@maou/bench-use-cases';
import type { DataSourceSpec, Stage } from '@maou/bench-domain';
import type { SourceDefinition } from '../source-definition';
import { LocalFileSourceAdapter } from './local-file-source.adapter';

/** Local files' spec: the paths of the run's stage. @public */
export interface LocalSpec extends DataSourceSpec {
  readonly kind: 'local';
  readonly paths: readonly string[];
}

const STAGES = [1, 2, 3] as const;
const flagOf = (stage: Stage): string => `stage${stage}-data-path`;
const pathsOf = (flags: Readonly<Record<string, unknown>>, stage: Stage): readonly string[] =>
  (flags[`stage${stage}DataPath`] as readonly string[] | undefined) ?? [];
const FLAGS: Record<string, SourceFlag> = Object.fromEntries(
  STAGES.map((stage) => [
    flagOf(stage),
    {
      type: 'string',
      array: true,
      describe: `Stage ${stage} .feather/.npy files or directories`,
      stages: [stage],
    },
  ]),
);

// A path that is not there is a usage error naming its flag, before any work (the adapter still says so at run time
// for one that goes away later, and for the other errors of a path).
const absent = (path: string): boolean => {
  try {
    statSync(path);
    return false;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR';
  }
};

/** maou's `.feather` and legacy `.npy` files (or directories of them) on this machine. @public */
export const localSource: SourceDefinition<LocalSpec> = {
  kind: 'local',
  help: 'local .feather/.npy files or directories',
  flags: FLAGS,
  selectedBy: STAGES.map(flagOf),
  parse(flags, { stage }) {
    // Paths of another stage are an error: otherwise the run would benchmark other data than the files named.
    const stray = STAGES.filter((n) => n !== stage && pathsOf(flags, n).length);
    if (stray.length)
      return {
        issues: stray.map((n) => ({
          field: `--${flagOf(n)}`,
          message: `given, but --stage is ${stage}: pass --stage ${n} to benchmark these files (otherwise Stage ${stage} would run on other data)`,
        })),
      };
    const paths = pathsOf(flags, stage);
    const missing = paths.filter(absent);
    if (missing.length)
      return {
        issues: missing.map((path) => ({ field: `--${flagOf(stage)}`, message: `${path}: no such file or directory` })),
      };
    return {
      warnings: [],
      spec: { kind: 'local', label: 'local files', sampled: false, streamable: true, reads: paths, paths },
    };
  },
  open: async (spec, stage) => new LocalFileSourceAdapter(stage, spec.paths),
};
