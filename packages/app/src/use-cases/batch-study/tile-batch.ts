import { allocateBatch, type HostBatch } from '@maou/bench-domain';

const columns = (b: HostBatch): (Int32Array | Float32Array)[] => {
  const t = b.targets;
  return [
    b.boardIds,
    b.hands,
    ...(t.stage === 3 ? [t.moveLabel, t.resultValue] : t.stage === 1 ? [t.reachableSquares] : [t.legalMoves]),
  ];
};

/**
 * A batch of `rows` rows made by repeating the rows of `sample`: probes of memory use need a batch of a given
 * shape, and a step's memory does not depend on which rows fill it.
 * @internal
 */
export const tileBatch = (sample: HostBatch, rows: number): HostBatch => {
  if (sample.size === 0) throw new Error('cannot tile an empty batch');
  const out = allocateBatch(sample.stage, rows);
  const to = columns(out);
  columns(sample).forEach((src, k) => {
    const width = src.length / sample.size;
    for (let at = 0; at < rows; at += sample.size)
      to[k]!.set(src.subarray(0, Math.min(sample.size, rows - at) * width), at * width);
  });
  return out;
};
