import { readFile } from 'node:fs/promises';
import { type Stage, type StageColumns, validateStageColumns } from '@maou/bench-domain';
import { DataFileError } from '../arrow/data-file-error';
import { decodeNpyRecords } from './npy-record-decoder';
import { hasNpyMagic, npyBodyMismatch, parseNpyHeader } from './npy-header';
import { layoutForHeader, NPY_LAYOUTS, type NpyLayout } from './npy-layouts';

const pickLayout = (path: string, bytes: Uint8Array, stage: Stage): { layout: NpyLayout; offset: number } => {
  if (hasNpyMagic(bytes)) {
    const header = parseNpyHeader(bytes);
    if (typeof header === 'string') throw new DataFileError({ path, byteOffset: 8 }, header);
    const layout = layoutForHeader(header.fields);
    if (typeof layout === 'string') throw new DataFileError({ path, byteOffset: 10 }, layout);
    const mismatch = npyBodyMismatch(header, bytes.length);
    if (mismatch) throw new DataFileError({ path, byteOffset: header.dataOffset }, mismatch);
    return { layout, offset: header.dataOffset };
  }
  // Headerless raw dump (ndarray.tofile): the record size must divide the file size.
  const fits = NPY_LAYOUTS.filter((l) => l.stage === stage && bytes.length > 0 && bytes.length % l.itemsize === 0);
  if (fits.length !== 1) {
    const sizes = NPY_LAYOUTS.filter((l) => l.stage === stage).map((l) => `${l.name} ${l.itemsize} B`).join(', ');
    throw new DataFileError({ path, byteOffset: bytes.length }, `${bytes.length} bytes is ${fits.length ? 'ambiguous between' : 'not a whole number of'} Stage ${stage} records (${sizes})`);
  }
  return { layout: fits[0] as NpyLayout, offset: 0 };
};

/** Where the records of a `.npy` shard are and how they are laid out, every size checked against the file. */
const locateRecords = (path: string, bytes: Uint8Array, stage: Stage): { layout: NpyLayout; offset: number; rows: number } => {
  const { layout, offset } = pickLayout(path, bytes, stage);
  if (layout.stage !== stage) throw new DataFileError({ path }, `holds ${layout.name} records (Stage ${layout.stage}), not Stage ${stage}`);
  const body = bytes.length - offset;
  if (body % layout.itemsize !== 0) throw new DataFileError({ path, byteOffset: offset + body - (body % layout.itemsize) }, `truncated record: ${body} bytes is not a multiple of ${layout.itemsize}`);
  return { layout, offset, rows: body / layout.itemsize };
};

/**
 * Rows of a `.npy` shard (whole file in `bytes`), from its header checked against the file's size, or from the size
 * of a headerless dump. @throws DataFileError naming the file when neither adds up.
 * @public
 */
export const countNpyRows = (path: string, bytes: Uint8Array, stage: Stage): number => locateRecords(path, bytes, stage).rows;

/** Reads a legacy `.npy` shard (raw or with header; standard, bit-packed or PRIMARY layout) as stage columns. @public */
export const readNpyStageFile = async (path: string, stage: Stage): Promise<StageColumns> => {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (e) {
    throw new DataFileError({ path }, `cannot read file: ${e instanceof Error ? e.message : String(e)}`);
  }
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.length);
  const { layout, offset } = locateRecords(path, bytes, stage);
  const columns = decodeNpyRecords(path, bytes.subarray(offset), layout, offset);
  const valid = validateStageColumns(columns);
  if (!valid.ok) throw new DataFileError({ path, column: valid.error.column, row: valid.error.row, byteOffset: offset + valid.error.row * layout.itemsize }, valid.error.message);
  return columns;
};
