import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { RecordBatchFileWriter, type Schema } from 'apache-arrow';
import type { ShardRef } from '@maou/bench-use-cases';
import { ensureArrowCodecs } from '../../arrow/arrow-codecs';
import { readArrowFile } from '../../arrow/feather-reader';
import { readIpcFileLayout } from '../../arrow/ipc-layout';
import { partPathFor } from './stale-parts';

const GIB = 2 ** 30;

/** Consecutive shards grouped so each group's input bytes stay within the limit (an oversized shard stands alone). @internal */
export const groupBySize = (shards: readonly ShardRef[], limitBytes: number): ShardRef[][] => {
  const groups: ShardRef[][] = [];
  let current: ShardRef[] = [];
  let bytes = 0;
  for (const s of shards) {
    if (current.length > 0 && bytes + s.bytes > limitBytes) {
      groups.push(current);
      current = [];
      bytes = 0;
    }
    current.push(s);
    bytes += s.bytes;
  }
  if (current.length > 0) groups.push(current);
  return groups;
};

const schemaText = (s: Schema): string => s.fields.map((f) => `${f.name}:${String(f.type)}`).join(',');

/** Appends every record batch of the members to one uncompressed IPC File, via a temporary name. */
const writeBundle = async (members: readonly ShardRef[], dest: string): Promise<void> => {
  ensureArrowCodecs();
  const tmp = partPathFor(dest, randomBytes(6).toString('hex'));
  const writer = new RecordBatchFileWriter();
  const done = pipeline(writer.toNodeStream(), createWriteStream(tmp, { flags: 'wx' }));
  try {
    let schema: string | null = null;
    for (const m of members) {
      // The one reader: its layout checks, typed errors and decompression budget apply to bundled shards too.
      const read = await readArrowFile(m.path);
      if (!read.ok) throw read.error;
      const table = read.value;
      const s = schemaText(table.schema);
      if (schema !== null && s !== schema)
        throw new Error(`${m.path}: schema differs from the other files of its bundle, cannot bundle`);
      schema = s;
      for (const batch of table.batches) writer.write(batch);
    }
    writer.finish();
    await done;
    await rename(tmp, dest);
  } catch (error) {
    writer.abort();
    await done.catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw error;
  }
};

/** Where the bundles of `dataName` are kept (beside its downloads, which a sweep of those does not reach). @internal */
export const bundleDirFor = (cacheDir: string, dataName: string): string =>
  join(cacheDir, `${dataName.replace(/\/+/g, '_')}.bundles`);

/**
 * Bundles downloaded shards into larger Arrow files of about `bundleSizeGb` of input each, under
 * `{cacheDir}/{dataName}.bundles/`. A bundle's name hashes its members, so a second run with the same objects
 * reuses it (`onCacheHit`). Bundles are written uncompressed: arrow-js cannot write compressed IPC.
 * @internal
 */
export const bundleShards = async (
  shards: readonly ShardRef[],
  bundleSizeGb: number,
  cacheDir: string,
  dataName: string,
  onCacheHit: () => void,
): Promise<ShardRef[]> => {
  const dir = bundleDirFor(cacheDir, dataName);
  await mkdir(dir, { recursive: true });
  const out: ShardRef[] = [];
  for (const [i, members] of groupBySize(shards, bundleSizeGb * GIB).entries()) {
    if (members.length === 1) {
      out.push(members[0]);
      continue;
    }
    const hash = createHash('sha256')
      .update(members.map((m) => `${m.id}:${m.bytes}`).join('\n'))
      .digest('hex')
      .slice(0, 12);
    const path = join(dir, `bundle${i}_${members.length}files_${hash}.feather`);
    const rows = members.reduce((n, m) => n + m.rows, 0);
    // Bundles are renamed into place only when complete, so an existing one with the right row count is whole.
    const existing = await readIpcFileLayout(path).then(
      (l) => l.rows,
      () => null,
    );
    if (existing === rows) onCacheHit();
    else await writeBundle(members, path);
    const { size } = await stat(path);
    out.push({ id: `bundle${i}_${hash}`, path, rows, bytes: size });
  }
  return out;
};
