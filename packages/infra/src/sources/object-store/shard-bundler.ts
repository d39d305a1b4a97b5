import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { RecordBatchFileWriter, type Schema } from 'apache-arrow';
import type { ShardRef } from '@maou/bench-use-cases';
import { ensureArrowCodecs } from '../../arrow/arrow-codecs';
import { readArrowFile } from '../../arrow/feather-reader';
import { readIpcFileLayout } from '../../arrow/ipc-layout';
import { cachedCopy, writeCachedFile } from '../../files/cache-file';
import { Sha256 } from '../../files/sha256';
import { partPathFor } from './stale-parts';

const GIB = 2 ** 30;

/** Consecutive shards grouped so each group's input bytes stay within the limit (an oversized shard stands alone). @internal */
export const groupBySize = <T extends Pick<ShardRef, 'bytes'>>(shards: readonly T[], limitBytes: number): T[][] => {
  const groups: T[][] = [];
  let current: T[] = [];
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

/**
 * Appends every record batch of the members to one uncompressed IPC File, through the write rule (a file at `dest`
 * this product did not write is refused), with the SHA-256 of its bytes recorded beside it.
 */
const writeBundle = (members: readonly ShardRef[], dest: string): Promise<void> =>
  writeCachedFile(
    dest,
    async (tmp) => {
      ensureArrowCodecs();
      const writer = new RecordBatchFileWriter();
      const digest = new Sha256();
      const hashed = async function* (chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
        for await (const chunk of chunks) {
          digest.add(chunk);
          yield chunk;
        }
      };
      const done = pipeline(writer.toNodeStream(), hashed, createWriteStream(tmp, { flags: 'wx' }));
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
      } catch (error) {
        writer.abort();
        await done.catch(() => undefined);
        throw error;
      }
      return digest.hex();
    },
    (target) => partPathFor(target, randomBytes(6).toString('hex')),
  );

/** Where the bundles of `dataName` are kept (beside its downloads, which a sweep of those does not reach). @internal */
export const bundleDirFor = (cacheDir: string, dataName: string): string =>
  join(cacheDir, `${dataName.replace(/\/+/g, '_')}.bundles`);

/**
 * The bundles `shards` make, from their ids and sizes alone (so known before any download): each group, and its
 * bundle when it has more than one member.
 * @internal
 */
export const bundlePlan = <T extends Pick<ShardRef, 'id' | 'bytes'>>(
  shards: readonly T[],
  bundleSizeGb: number,
  cacheDir: string,
  dataName: string,
): { readonly members: T[]; readonly bundle: { readonly id: string; readonly path: string } | null }[] =>
  groupBySize(shards, bundleSizeGb * GIB).map((members, i) => {
    if (members.length === 1) return { members, bundle: null };
    const hash = createHash('sha256')
      .update(members.map((m) => `${m.id}:${m.bytes}`).join('\n'))
      .digest('hex')
      .slice(0, 12);
    const path = join(bundleDirFor(cacheDir, dataName), `bundle${i}_${members.length}files_${hash}.feather`);
    return { members, bundle: { id: `bundle${i}_${hash}`, path } };
  });

/**
 * Bundles downloaded shards into larger Arrow files of about `bundleSizeGb` of input each, under
 * `{cacheDir}/{dataName}.bundles/`. A bundle's name hashes its members, so a second run with the same objects
 * reuses it (`onCacheHit`) when its bytes match its record and its row count the members'. Bundles are written
 * uncompressed: arrow-js cannot write compressed IPC.
 * @internal
 */
export const bundleShards = async (
  shards: readonly ShardRef[],
  bundleSizeGb: number,
  cacheDir: string,
  dataName: string,
  onCacheHit: () => void,
): Promise<ShardRef[]> => {
  await mkdir(bundleDirFor(cacheDir, dataName), { recursive: true });
  const out: ShardRef[] = [];
  for (const { members, bundle } of bundlePlan(shards, bundleSizeGb, cacheDir, dataName)) {
    if (bundle === null) {
      out.push(members[0]);
      continue;
    }
    const { id, path } = bundle;
    const rows = members.reduce((n, m) => n + m.rows, 0);
    const reusable =
      (await cachedCopy(path)) === 'intact' &&
      (await readIpcFileLayout(path).then(
        (l) => l.rows,
        () => null,
      )) === rows;
    if (reusable) onCacheHit();
    else await writeBundle(members, path);
    const { size } = await stat(path);
    out.push({ id, path, rows, bytes: size });
  }
  return out;
};
