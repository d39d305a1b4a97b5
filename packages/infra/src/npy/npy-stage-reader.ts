import { readFile } from 'node:fs/promises';
import {
  recordKindOfColumns,
  type Stage,
  type StageColumns,
  validateStageColumns,
  wrongRecordKindMessage,
} from '@maou/bench-domain';
import { DataFileError } from '../arrow/data-file-error';
import { decodeNpyRecords } from './npy-record-decoder';
import { hasNpyMagic, npyBodyMismatch, parseNpyHeader } from './npy-header';
import { layoutForHeader, NPY_LAYOUTS, type NpyLayout } from './npy-layouts';

/** maou's HCPE numpy record (627 bytes) and cshogi's HuffmanCodedPosAndEval (38 bytes): raw game records. */
const HCPE_ITEMSIZES = [627, 38];

/** What a `.npy` shard holds for `stage`: its layout, where records start and how many there are. @internal */
export interface NpyShard {
  readonly layout: NpyLayout;
  readonly offset: number;
  readonly rows: number;
}

const pickLayout = (path: string, bytes: Uint8Array, stage: Stage): { layout: NpyLayout; offset: number } => {
  if (hasNpyMagic(bytes)) {
    const header = parseNpyHeader(bytes);
    if (typeof header === 'string') throw new DataFileError({ path, byteOffset: 8 }, header);
    if (recordKindOfColumns(header.fields.map((f) => f.name)) === 'hcpe')
      throw new DataFileError({ path }, `.npy ${wrongRecordKindMessage('hcpe', stage)}`);
    const layout = layoutForHeader(header.fields);
    if (typeof layout === 'string')
      throw new DataFileError({ path, byteOffset: 10 }, `${layout}; expected Stage ${stage} records`);
    const mismatch = npyBodyMismatch(header, bytes.length);
    if (mismatch) throw new DataFileError({ path, byteOffset: header.dataOffset }, mismatch);
    return { layout, offset: header.dataOffset };
  }
  // Headerless raw dump (ndarray.tofile): the record size must divide the file size.
  const fits = NPY_LAYOUTS.filter((l) => l.stage === stage && bytes.length > 0 && bytes.length % l.itemsize === 0);
  if (fits.length === 0 && HCPE_ITEMSIZES.some((n) => bytes.length > 0 && bytes.length % n === 0)) {
    const n = HCPE_ITEMSIZES.find((k) => bytes.length % k === 0) ?? 0;
    throw new DataFileError(
      { path },
      `headerless .npy of ${bytes.length / n} ${n}-byte records ${wrongRecordKindMessage('hcpe', stage)}`,
    );
  }
  if (fits.length !== 1) {
    const sizes = NPY_LAYOUTS.filter((l) => l.stage === stage)
      .map((l) => `${l.name} ${l.itemsize} B`)
      .join(', ');
    throw new DataFileError(
      { path, byteOffset: bytes.length },
      `${bytes.length} bytes is ${fits.length ? 'ambiguous between' : 'not a whole number of'} Stage ${stage} records (${sizes})`,
    );
  }
  return { layout: fits[0] as NpyLayout, offset: 0 };
};

/**
 * Picks the layout of a `.npy` shard (whole file in `bytes`) and checks it holds whole `stage` records, every size
 * checked against the file; HCPE shards are refused by name. @internal
 */
export const npyShardOf = (path: string, bytes: Uint8Array, stage: Stage): NpyShard => {
  const { layout, offset } = pickLayout(path, bytes, stage);
  if (layout.stage !== stage)
    throw new DataFileError({ path }, `.npy ${wrongRecordKindMessage(`stage${layout.stage}`, stage)}`);
  const body = bytes.length - offset;
  if (body % layout.itemsize !== 0)
    throw new DataFileError(
      { path, byteOffset: offset + body - (body % layout.itemsize) },
      `truncated record: ${body} bytes is not a multiple of ${layout.itemsize}`,
    );
  return { layout, offset, rows: body / layout.itemsize };
};

/** Reads a legacy `.npy` shard (raw or with header; standard, bit-packed or PRIMARY layout) as stage columns. @public */
export const readNpyStageFile = async (path: string, stage: Stage): Promise<StageColumns> => {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    throw new DataFileError({ path }, `cannot read file: ${e instanceof Error ? e.message : String(e)}`);
  }
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
  const { layout, offset } = npyShardOf(path, bytes, stage);
  const columns = decodeNpyRecords(path, bytes.subarray(offset), layout, offset);
  const valid = validateStageColumns(columns);
  if (!valid.ok)
    throw new DataFileError(
      {
        path,
        column: valid.error.column,
        row: valid.error.row,
        byteOffset: offset + valid.error.row * layout.itemsize,
      },
      valid.error.message,
    );
  return columns;
};
