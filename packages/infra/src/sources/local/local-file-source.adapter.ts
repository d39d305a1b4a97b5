import { readdir, realpath, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import type { DataSourcePort, ShardRef, SourceIoStats } from '@maou/bench-use-cases';
import type { Stage, StageColumns } from '@maou/bench-domain';
import { DataFileError } from '../../arrow/data-file-error';
import { specialFileKind } from '../../files/atomic-file';
import { fileCause, shortPath } from '../../files/file-error';
import { readStageFile, STAGE_FILE_SUFFIXES } from './read-stage-file';
import { inspectStageFile } from './inspect-stage-file';

const listFiles = async (path: string): Promise<string[]> => {
  let info;
  try {
    info = await stat(path);
  } catch (e) {
    // a symlink loop or a path too long is said as such, not as a missing file
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ELOOP' || code === 'ENAMETOOLONG' ? fileCause(e) : 'no such file or directory';
    throw new DataFileError({ path: shortPath(path) }, why);
  }
  const special = specialFileKind(info);
  // A FIFO or a device would block or never end; only regular files and directories are data.
  if (special) throw new DataFileError({ path }, `is a ${special}, not a data file or a directory of them`);
  if (info.isFile()) {
    if (!STAGE_FILE_SUFFIXES.includes(extname(path).toLowerCase()))
      throw new DataFileError(
        { path },
        `unsupported file suffix "${extname(path)}" (expected one of ${STAGE_FILE_SUFFIXES.join(', ')})`,
      );
    return [path];
  }
  const entries = await readdir(path, { recursive: true, withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    const why = e.code === 'EACCES' ? 'permission denied' : (e.code ?? e.message);
    throw new DataFileError({ path: e.path ?? path }, `cannot list the directory (${why})`);
  });
  // Sorted, so shard order (and every split built on it) does not depend on the filesystem.
  return entries
    .filter((e) => e.isFile() && STAGE_FILE_SUFFIXES.includes(extname(e.name).toLowerCase()))
    .map((e) => join(e.parentPath ?? path, e.name))
    .sort();
};

/** Local `.feather` / `.npy` files (or directories of them) as a DataSourcePort; one shard per file. @public */
export class LocalFileSourceAdapter implements DataSourcePort {
  private cached: ShardRef[] | null = null;
  private dropped: string[] = [];
  private bytesRead = 0;
  private objectsRead = 0;

  constructor(
    readonly stage: Stage,
    private readonly paths: readonly string[],
  ) {}

  describe(): string {
    const note = this.dropped.length ? `; dropped as given twice: ${this.dropped.join(', ')}` : '';
    return `local files (${this.paths.join(', ')}${note})`;
  }

  async shards(): Promise<readonly ShardRef[]> {
    if (this.cached) return this.cached;
    const files = await this.distinct((await Promise.all(this.paths.map((p) => listFiles(resolve(p))))).flat());
    if (files.length === 0)
      throw new DataFileError({ path: this.paths.join(', ') }, `no ${STAGE_FILE_SUFFIXES.join('/')} files found`);
    const shards: ShardRef[] = [];
    for (const path of files) shards.push({ id: path, path, ...(await inspectStageFile(path, this.stage)) });
    this.cached = shards;
    return shards;
  }

  /**
   * Each file once, by its real path (a path given twice, through `..`, a symlink, or inside a directory also given):
   * a file counted twice would inflate the epoch, and could sit in training and validation both.
   */
  private async distinct(files: readonly string[]): Promise<string[]> {
    const seen = new Set<string>();
    const kept: string[] = [];
    for (const file of files) {
      const real = await realpath(file).catch(() => file);
      if (seen.has(real)) this.dropped.push(file);
      else kept.push(file);
      seen.add(real);
    }
    return kept;
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
