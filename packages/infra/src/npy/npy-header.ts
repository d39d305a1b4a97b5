/** One field of a structured dtype as the header declares it. @internal */
export interface NpyField {
  readonly name: string;
  /** Normalised numpy type code and size, such as `u8`, `u1`, `f2`. */
  readonly type: string;
  readonly count: number;
  readonly offset: number;
}

/** What a `.npy` header says (check it against the file with `npyBodyMismatch`). @internal */
export interface NpyHeader {
  readonly dataOffset: number;
  readonly fields: readonly NpyField[];
  readonly itemsize: number;
  readonly rows: number;
}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY
// numpy's own limit on a header is far below this; anything larger is a lying length field.
const MAX_HEADER_BYTES = 1 << 20;
const FIELD = /\(\s*'([^']+)'\s*,\s*'([<>|=]?)([a-zA-Z])(\d+)'\s*(?:,\s*\(([\d,\s]*)\))?\s*\)/g;

/** True when the bytes start with the `.npy` magic (maou's legacy shards are headerless raw dumps). @internal */
export const hasNpyMagic = (bytes: Uint8Array): boolean => MAGIC.every((b, i) => bytes[i] === b);

const product = (dims: string): number =>
  dims
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean)
    .reduce((n, d) => n * Number(d), 1);

const parseFields = (descr: string): NpyField[] | string => {
  const fields: NpyField[] = [];
  let offset = 0;
  for (const m of descr.matchAll(FIELD)) {
    const [, name = '', order = '', kind = '', size = '', dims] = m;
    if (order === '>' && Number(size) > 1)
      return `field ${name} is big-endian (${order}${kind}${size}); maou writes little-endian records`;
    const count = dims === undefined ? 1 : product(dims);
    fields.push({ name, type: `${kind}${size}`, count, offset });
    offset += Number(size) * count;
  }
  return fields.length ? fields : `no fields could be read from the dtype ${descr.trim().slice(0, 120)}`;
};

const parseRows = (text: string): number | string => {
  const shape = /'shape':\s*\(([^)]*)\)/.exec(text);
  if (!shape) return 'the header has no shape';
  const dims = (shape[1] ?? '')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
  if (dims.length !== 1 || !/^\d+$/.test(dims[0] ?? '')) return `shape (${shape[1]}) is not a 1-D array of records`;
  return Number(dims[0]);
};

/**
 * Parses a `.npy` v1–v3 header of a structured array from the start of the file; a header length that runs past
 * the file is refused before anything is decoded. Returns an error message on malformed input.
 * @internal
 */
export const parseNpyHeader = (bytes: Uint8Array): NpyHeader | string => {
  const major = bytes[6] ?? 0;
  if (major < 1 || major > 3 || bytes.length < 12) return `unsupported .npy version ${major}`;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  if (headerLen > MAX_HEADER_BYTES || start + headerLen > bytes.length)
    return `header of ${headerLen} bytes runs past the end of the ${bytes.length}-byte file`;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + start, headerLen).toString(major === 3 ? 'utf8' : 'latin1');
  if (/'fortran_order':\s*True/.test(text)) return 'fortran_order arrays are not supported';
  const descr = /'descr':\s*\[(.*)\]\s*,\s*'fortran_order'/s.exec(text);
  if (!descr) return `not a structured dtype: ${text.trim().slice(0, 120)}`;
  const fields = parseFields(descr[1] ?? '');
  if (typeof fields === 'string') return fields;
  const rows = parseRows(text);
  if (typeof rows === 'string') return rows;
  const last = fields[fields.length - 1]!;
  return {
    dataOffset: start + headerLen,
    fields,
    itemsize: last.offset + Number(last.type.slice(1)) * last.count,
    rows,
  };
};

/**
 * Checks a header against the file's real size: rows × record size must be exactly the bytes after the header, so
 * neither a header-only file nor a header claiming more (or fewer) rows than the file holds is trusted.
 * Returns an error message, or null.
 * @internal
 */
export const npyBodyMismatch = (header: NpyHeader, fileBytes: number): string | null => {
  const body = fileBytes - header.dataOffset;
  const { rows, itemsize } = header;
  if (rows * itemsize === body) return null;
  const whole = Math.floor(body / itemsize);
  const rest = body % itemsize ? ` and ${body % itemsize} bytes more` : '';
  return `the header says ${rows} rows of ${itemsize} bytes (${rows * itemsize} bytes) but the file holds ${body} bytes after the header (${whole} whole record${whole === 1 ? '' : 's'}${rest})`;
};
