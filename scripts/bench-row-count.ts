/**
 * Bytes read when counting the rows of a multi-gigabyte LZ4 Stage 3 dataset, through the same inspection local
 * listing and cached cloud objects use (`inspectStageFile`: footer and record-batch headers only).
 *
 *   pnpm bench:row-count [-- --files 20 --batches 64 --rows 25000 --dir /tmp/maou-rowcount]
 *
 * Runs on the built packages (ts-node cannot extend apache-arrow's native classes). Data: one real LZ4 record batch
 * of `rows` Stage 3 rows written by our arrow-js writer (about 150 bytes a row, as maou's preprocessing files compress), repeated `batches` times per IPC File, `files` files. The files are sparse:
 * every message header and footer is written where it belongs, the bodies are left as holes, which a counter that
 * never reads bodies cannot tell from real ones (decoding them would fail, counting must not notice). Defaults give
 * 20 × 64 × 25,000 = 32,000,000 rows, about 5 GB.
 */
import { mkdirSync, openSync, closeSync, writeSync, ftruncateSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import type * as Arrow from 'apache-arrow';
import type * as ArrowEnum from 'apache-arrow/enum';
import type * as ArrowFileMetadata from 'apache-arrow/ipc/metadata/file';
import {
  buildBatches,
  encodeArrowIpc,
  inspectStageFile,
  readIpcLayout,
  seededRandom,
  stageColumnData,
  withFileByteSource,
} from '@maou/bench-infra';

// apache-arrow is a dependency of the infra package, not of the repository root.
const infraRequire = createRequire(join(__dirname, '../packages/infra/package.json'));
const { Schema } = infraRequire('apache-arrow') as typeof Arrow;
const { FileBlock, Footer } = infraRequire('apache-arrow/ipc/metadata/file') as typeof ArrowFileMetadata;
const { MetadataVersion } = infraRequire('apache-arrow/enum') as typeof ArrowEnum;

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const files = arg('files', 20);
const batches = arg('batches', 64);
const rows = arg('rows', 25_000);
const dirArg = process.argv.indexOf('--dir');
const dir = dirArg > 0 ? String(process.argv[dirArg + 1]) : '/tmp/maou-rowcount';

/** One real LZ4 IPC File of `rows` Stage 3 rows: a sparse policy label and maou's value range. */
const template = (): Uint8Array => {
  const random = seededRandom(11);
  const moveLabel = new Float32Array(rows * 1496);
  for (let r = 0; r < rows; r++) moveLabel[r * 1496 + Math.floor(random() * 1496)] = 1;
  const columns = {
    stage: 3 as const,
    rows,
    moveLabel,
    resultValue: Float32Array.from({ length: rows }, (_, i) => (i % 3) / 2),
    boardIdPositions: Uint8Array.from({ length: rows * 81 }, () => Math.floor(random() * 29)),
    piecesInHand: Uint8Array.from({ length: rows * 14 }, () => Math.floor(random() * 3)),
  };
  const ids = BigUint64Array.from({ length: rows }, (_, i) => BigInt(i));
  return encodeArrowIpc(
    buildBatches(rows, rows, (s, n) => stageColumnData(columns, ids, s, n)),
    { compression: 'lz4' },
  );
};

const main = async (): Promise<void> => {
  const src = template();
  const view = new DataView(src.buffer, src.byteOffset, src.length);
  const footerLength = view.getInt32(src.length - 10, true);
  const parsed = Footer.decode(src.subarray(src.length - 10 - footerLength, src.length - 10));
  const block = parsed.getRecordBatch(0);
  if (!block) throw new Error('template without a record batch');
  const blockAt = Number(block.offset);
  const metaLength = block.metaDataLength;
  const bodyLength = Number(block.bodyLength);
  const header = src.subarray(blockAt, blockAt + metaLength);
  const prefix = src.subarray(0, blockAt); // magic, padding and the schema message, if the writer put one there
  const schema = new Schema(parsed.schema.fields);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  let total = 0;
  for (let f = 0; f < files; f++) {
    const path = join(dir, `transformed_chunk${String(f).padStart(4, '0')}.feather`);
    const fd = openSync(path, 'w');
    let at = 0;
    const write = (bytes: Uint8Array): void => {
      writeSync(fd, bytes, 0, bytes.length, at);
      at += bytes.length;
    };
    write(prefix.length >= 8 ? prefix : Buffer.from('ARROW1\0\0'));
    const blocks: InstanceType<typeof FileBlock>[] = [];
    for (let b = 0; b < batches; b++) {
      blocks.push(new FileBlock(metaLength, BigInt(bodyLength), BigInt(at)));
      write(header);
      at += bodyLength; // the body: a hole
    }
    write(Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]));
    const footer = Footer.encode(new Footer(schema, MetadataVersion.V5, blocks, []));
    write(footer);
    const tail = Buffer.alloc(10);
    tail.writeInt32LE(footer.length, 0);
    tail.write('ARROW1', 4, 'latin1');
    write(tail);
    ftruncateSync(fd, at);
    closeSync(fd);
    total += statSync(path).size;
  }
  const started = process.hrtime.bigint();
  let counted = 0;
  let read = 0;
  for (let f = 0; f < files; f++) {
    const path = join(dir, `transformed_chunk${String(f).padStart(4, '0')}.feather`);
    const summary = await inspectStageFile(path, 3);
    counted += summary.rows;
    read += await withFileByteSource(path, async (s) => {
      await readIpcLayout(s);
      return s.bytesRead;
    });
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(
    `dataset: ${files} IPC File(s) × ${batches} LZ4 record batch(es) × ${rows} rows = ${counted.toLocaleString('en')} rows (expected ${(files * batches * rows).toLocaleString('en')}), ${(total / 1e9).toFixed(2)} GB (${total} bytes; batch body ${bodyLength} B, header ${metaLength} B)`,
  );
  console.log(
    `bytes read to count: ${read} (${(read / 1e6).toFixed(2)} MB, ${((read / total) * 100).toFixed(4)} % of the dataset); ${ms.toFixed(0)} ms for both passes (inspect + measured layout read)`,
  );
  rmSync(dir, { recursive: true, force: true });
};

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
