/** What a `.npy` header says: where records start and the structured dtype's field names. @internal */
export interface NpyHeader {
  readonly dataOffset: number;
  readonly fieldNames: readonly string[];
  readonly rows: number | null;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

/** True when the bytes start with the `.npy` magic (maou's legacy shards are headerless raw dumps). @internal */
export const hasNpyMagic = (bytes: Uint8Array): boolean => MAGIC.every((b, i) => bytes[i] === b);

/** Parses a `.npy` v1–v3 header; returns an error message on malformed input. @internal */
export const parseNpyHeader = (bytes: Uint8Array): NpyHeader | string => {
  const major = bytes[6] ?? 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (major < 1 || major > 3 || bytes.length < 12) return `unsupported .npy version ${major}`;
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  if (start + headerLen > bytes.length) return `header of ${headerLen} bytes runs past the end of the file`;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, headerLen).toString(major === 3 ? 'utf8' : 'latin1');
  if (/'fortran_order':\s*True/.test(text)) return 'fortran_order arrays are not supported';
  const descr = /'descr':\s*\[(.*)\]\s*,\s*'fortran_order'/s.exec(text);
  if (!descr) return `not a structured dtype: ${text.trim().slice(0, 120)}`;
  const fieldNames = [...(descr[1] ?? '').matchAll(/\(\s*'([^']+)'/g)].map((m) => m[1] ?? '');
  const shape = /'shape':\s*\((\d*)/.exec(text);
  return { dataOffset: start + headerLen, fieldNames, rows: shape && shape[1] ? Number(shape[1]) : null };
};
