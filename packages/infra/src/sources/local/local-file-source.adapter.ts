import { readdir, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import type { DataSourcePort, ShardRef, SourceIoStats } from '@maou/bench-app';
import type { Stage, StageColumns } from '@maou/bench-domain';
import { DataFileError } from '../../arrow/data-file-error';
import { readStageFile, STAGE_FILE_SUFFIXES } from './read-stage-file';
import { inspectStageFile } from './inspect-stage-file';

const listFiles = async (path: string): Promise<string[]> => {
  let info;
  try {
    info = await stat(path);
  } catch {
    throw new DataFileError({ path }, 'no such file or directory');
  }
  if (info.isFile()) {
    if (!STAGE_FILE_SUFFIXES.includes(extname(path).toLowerCase()))
      throw new DataFileError(
        { path },
        `unsupported file suffix "${extname(path)}" (expected one of ${STAGE_FILE_SUFFIXES.join(', ')})`,
      );
    return [path];
  }
  const entries = await readdir(path, { recursive: true, withFileTypes: true });
  // Sorted, so shard order (and every split built on it) does not depend on the filesystem.
  return entries
    .filter((e) => e.isFile() && STAGE_FILE_SUFFIXES.includes(extname(e.name).toLowerCase()))
    .map((e) => join(e.parentPath ?? path, e.name))
    .sort();
};

/** Local `.feather` / `.npy` files (or directories of them) as a DataSourcePort; one shard per file. @public */
export class LocalFileSourceAdapter implements DataSourcePort {
  private cached: ShardRef[] | null = null;
  private bytesRead = 0;
  private objectsRead = 0;

  constructor(
    readonly stage: Stage,
    private readonly paths: readonly string[],
  ) {}

  describe(): string {
    return `local files (${this.paths.join(', ')})`;
  }

  async shards(): Promise<readonly ShardRef[]> {
    if (this.cached) return this.cached;
    const files = (await Promise.all(this.paths.map((p) => listFiles(resolve(p))))).flat();
    if (files.length === 0)
      throw new DataFileError({ path: this.paths.join(', ') }, `no ${STAGE_FILE_SUFFIXES.join('/')} files found`);
    const shards: ShardRef[] = [];
    for (const path of files) shards.push({ id: path, path, ...(await inspectStageFile(path, this.stage)) });
    this.cached = shards;
    return shards;
  }

  async read(shard: ShardRef): Promise<StageColumns> {
    const columns = await readStageFile(shard.path, this.stage);
    this.bytesRead += shard.bytes;
    this.objectsRead++;
    return columns;
  }

  ioStats(): SourceIoStats | null {
    return {
      source: 'local',
      objects: this.objectsRead,
      bytes: this.bytesRead,
      timeToFirstByteMs: null,
      megabytesPerSecond: null,
      retries: 0,
      cacheHits: 0,
    };
  }
}
