/** max |ref − got| over max |ref|: the error of a kernel against a reference, relative to the output's scale. */
export function relErr(ref: Float32Array, got: Float32Array): number {
  if (got.length !== ref.length) throw new Error(`length ${got.length} against a reference of ${ref.length}`);
  let diff = 0;
  let scale = 0;
  for (let i = 0; i < ref.length; i++) {
    diff = Math.max(diff, Math.abs(ref[i]! - got[i]!));
    scale = Math.max(scale, Math.abs(ref[i]!));
  }
  return diff / scale;
}
