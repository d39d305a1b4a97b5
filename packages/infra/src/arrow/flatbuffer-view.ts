/** A bounds-checked reader of FlatBuffers tables inside one metadata slice; throws FlatbufferRangeError. @internal */
export class FlatbufferRangeError extends Error {}

export class FlatbufferView {
  private readonly view: DataView;
  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private check(pos: number, size: number): void {
    if (pos < 0 || pos + size > this.bytes.length)
      throw new FlatbufferRangeError(`metadata read of ${size} bytes at ${pos} outside ${this.bytes.length}`);
  }
  u8(pos: number): number {
    this.check(pos, 1);
    return this.view.getUint8(pos);
  }
  u16(pos: number): number {
    this.check(pos, 2);
    return this.view.getUint16(pos, true);
  }
  i32(pos: number): number {
    this.check(pos, 4);
    return this.view.getInt32(pos, true);
  }
  u32(pos: number): number {
    this.check(pos, 4);
    return this.view.getUint32(pos, true);
  }
  i64(pos: number): number {
    this.check(pos, 8);
    return Number(this.view.getBigInt64(pos, true));
  }

  /** Position of the root table. */
  root(): number {
    return this.u32(0);
  }

  /** Absolute position of field `index` of the table at `table`, or null when absent. */
  field(table: number, index: number): number | null {
    const vtable = table - this.i32(table);
    // FlatBuffers readers (apache-arrow's included) read vtable sizes and field offsets as signed int16: a value with
    // the high bit set means "no fields" to them, so it must not mean anything else here.
    const vsize = this.u16(vtable);
    if (vsize < 4 || vsize >= 0x8000 || vsize % 2 !== 0)
      throw new FlatbufferRangeError(`vtable at ${vtable} of ${vsize} bytes`);
    this.check(vtable, vsize);
    const at = 4 + 2 * index;
    if (at >= vsize) return null;
    const off = this.u16(vtable + at);
    if (off >= 0x8000) throw new FlatbufferRangeError(`field offset ${off} in vtable at ${vtable}`);
    return off === 0 ? null : table + off;
  }

  /** Follows the offset stored in field `index` (a sub-table or vector). */
  ref(table: number, index: number): number | null {
    const f = this.field(table, index);
    return f === null ? null : f + this.u32(f);
  }

  /** Checks that the string in field `index`, when present, fits the metadata. */
  string(table: number, index: number): void {
    this.vector(table, index, 1);
  }

  /** Length and first-element position of the vector in field `index`, checked to fit `elementSize` bytes each. */
  vector(table: number, index: number, elementSize: number): { length: number; start: number } {
    const v = this.ref(table, index);
    if (v === null) return { length: 0, start: 0 };
    const length = this.u32(v);
    this.check(v + 4, length * elementSize);
    return { length, start: v + 4 };
  }
}
