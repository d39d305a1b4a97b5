import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataSourcePort, ShardRef } from '@maou/bench-app';
import type { Stage } from '@maou/bench-domain';
import { readStageFile, type SourceDefinition } from '@maou/bench-infra';

/** This source's spec: a folder whose `.feather` files are the dataset. */
export interface FixtureFolderSpec {
  readonly kind: 'fixture-folder';
  readonly dir: string;
}

/** Every `.feather` file in one folder, one shard each, read with the project's stage-file reader. */
class FixtureFolderSource implements DataSourcePort {
  constructor(
    readonly stage: Stage,
    private readonly dir: string,
  ) {}

  describe(): string {
    return `fixture folder ${this.dir}`;
  }

  async shards(): Promise<readonly ShardRef[]> {
    const names = (await readdir(this.dir)).filter((n) => n.endsWith('.feather')).sort();
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

/** A datasource plug-in as a new one would be written: a kind, a help line, and how to open it. */
export const fixtureFolderSource: SourceDefinition<FixtureFolderSpec> = {
  kind: 'fixture-folder',
  help: 'the .feather files of one folder (test plug-in)',
  open: async (spec, stage) => new FixtureFolderSource(stage, spec.dir),
};
