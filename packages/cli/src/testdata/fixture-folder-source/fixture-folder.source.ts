import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSourcePort, ShardRef } from '@maou/bench-use-cases';
import type { DataSourceSpec, Stage } from '@maou/bench-domain';
import { readStageFile, type SourceDefinition } from '@maou/bench-infra';

/** This source's spec: a folder whose `.feather` files are the dataset. */
export interface FixtureFolderSpec extends DataSourceSpec {
  readonly kind: 'fixture-folder';
  readonly dir: string;
  readonly maxFiles: number;
}

/** Every `.feather` file in one folder, one shard each, read with the project's stage-file reader. */
class FixtureFolderSource implements DataSourcePort {
  constructor(
    readonly stage: Stage,
    private readonly dir: string,
    private readonly maxFiles: number,
  ) {}

  describe(): string {
    return `fixture folder ${this.dir}`;
  }

  async shards(): Promise<readonly ShardRef[]> {
    const names = (await readdir(this.dir))
      .filter((n) => n.endsWith('.feather'))
      .sort()
      .slice(0, this.maxFiles);
    return Promise.all(
      names.map(async (name) => {
        const path = join(this.dir, name);
        const rows = (await readStageFile(path, this.stage)).rows;
        return { id: name, path, rows, bytes: (await stat(path)).size };
      }),
    );
  }

  read(shard: ShardRef) {
    return readStageFile(shard.path, this.stage);
  }

  ioStats() {
    return null;
  }
}

/**
 * A datasource plug-in as a new one would be written: a kind, a help line, its flags (one selects it, one is bounded),
 * a parser that states its capabilities on the spec, and how to open it.
 */
export const fixtureFolderSource: SourceDefinition<FixtureFolderSpec> = {
  kind: 'fixture-folder',
  help: 'the .feather files of one folder (test plug-in)',
  flags: {
    'fixture-folder': { type: 'string', describe: 'read every .feather file of this folder' },
    'fixture-max-files': {
      type: 'number',
      describe: 'read at most this many of its files (default all)',
      bounds: { min: 1, max: 100, integer: true },
    },
  },
  selectedBy: ['fixture-folder'],
  parse: (flags) => {
    const dir = flags.fixtureFolder as string;
    return {
      warnings: [],
      spec: {
        kind: 'fixture-folder',
        label: 'the fixture folder',
        sampled: false,
        streamable: true,
        reads: [dir],
        dir,
        maxFiles: (flags.fixtureMaxFiles as number | undefined) ?? 100,
      },
    };
  },
  open: async (spec, stage) => new FixtureFolderSource(stage, spec.dir, spec.maxFiles),
};
