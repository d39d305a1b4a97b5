/**
 * Normalises Stage 3 move labels on the host: t = label / Σ label per row (rows summing to 0 stay 0),
 * and returns Σ t·log t over the batch (0·log 0 = 0), the constant part of the KL divergence.
 * @public
 */
export function normalizePolicyTargets(
  labels: Float32Array,
  rows: number,
  classes: number,
): { target: Float32Array; negEntropySum: number } {
  const target = new Float32Array(rows * classes);
  let negEntropySum = 0;
  for (let r = 0; r < rows; r++) {
    const off = r * classes;
    let sum = 0;
    for (let k = 0; k < classes; k++) sum += labels[off + k];
    if (sum <= 0) continue;
    for (let k = 0; k < classes; k++) {
      const v = labels[off + k] / sum;
      target[off + k] = v;
      if (v > 0) negEntropySum += v * Math.log(v);
    }
  }
  return { target, negEntropySum };
}
