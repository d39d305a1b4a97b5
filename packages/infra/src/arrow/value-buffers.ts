import { DataType, type Data } from 'apache-arrow';

const VIEW = 16; // bytes per Utf8View/BinaryView entry
const INLINE = 12; // values up to this length sit inside the view

/**
 * Checks the offsets or views of a variable-width column (Binary, Utf8, their Large and View forms) against its value
 * buffers, before apache-arrow's lazy getters read them: they throw untyped errors (or hand out wrong slices) for an
 * int64 offset past 2^53, a view naming a missing data buffer, or a view buffer shorter than its rows.
 * Returns the first bad row and what is wrong with it, or null. @internal
 */
export const checkValueBuffers = (data: Data): { row: number; message: string } | null => {
  const { type, offset, length } = data;
  if (DataType.isUtf8View(type) || DataType.isBinaryView(type)) {
    const views = data.values as Uint8Array | undefined;
    if (!views || views.length < (offset + length) * VIEW)
      return {
        row: 0,
        message: `view buffer of ${views?.length ?? 0} bytes, ${length} rows need ${(offset + length) * VIEW}`,
      };
    const dv = new DataView(views.buffer, views.byteOffset, views.length);
    const buffers = data.variadicBuffers;
    for (let row = 0; row < length; row++) {
      const at = (offset + row) * VIEW;
      const size = dv.getInt32(at, true);
      if (size < 0) return { row, message: `view length ${size}` };
      if (size <= INLINE) continue;
      const index = dv.getInt32(at + 8, true);
      const start = dv.getInt32(at + 12, true);
      const buffer = buffers[index];
      if (!buffer) return { row, message: `view names data buffer ${index}, the batch has ${buffers.length}` };
      if (start < 0 || start + size > buffer.length)
        return { row, message: `view [${start}, +${size}) outside data buffer ${index} of ${buffer.length} bytes` };
    }
    return null;
  }
  if (!(DataType.isUtf8(type) || DataType.isBinary(type) || DataType.isLargeUtf8(type) || DataType.isLargeBinary(type)))
    return null;
  const offsets = data.valueOffsets as Int32Array | BigInt64Array | undefined;
  const values = data.values as Uint8Array | undefined;
  if (!offsets || offsets.length < offset + length + 1)
    return {
      row: 0,
      message: `offsets buffer holds ${offsets?.length ?? 0} entries, ${length} rows need ${offset + length + 1}`,
    };
  let previous = Number(offsets[offset]!);
  if (previous < 0 || previous > (values?.length ?? 0))
    return { row: 0, message: `value offset ${previous} outside the ${values?.length ?? 0}-byte data buffer` };
  for (let row = 0; row < length; row++) {
    const end = Number(offsets[offset + row + 1]!);
    if (end < previous || end > (values?.length ?? 0))
      return { row, message: `value [${previous}, ${end}) outside the ${values?.length ?? 0}-byte data buffer` };
    previous = end;
  }
  return null;
};
