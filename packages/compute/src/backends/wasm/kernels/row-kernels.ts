import type * as tf from '@tensorflow/tfjs-core';

/** The wasm backend's heap access (tfjs-backend-wasm `BackendWasm`). */
interface HeapBackend {
  makeOutput(shape: number[], dtype: tf.DataType): tf.TensorInfo;
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array | Int32Array;
}

/**
 * Row gather table[ids] for a 2-D float table along axis 0 (the embedding lookup), copying rows on the
 * wasm heap. tfjs-wasm's GatherV2 took ~57 ms for 20,736 rows of 32; this takes about 1 ms.
 * Returns null for other gathers (the stock kernel runs them).
 * @public
 */
export function gatherRows(
  backend: HeapBackend,
  x: tf.TensorInfo,
  indices: tf.TensorInfo,
  attrs: tf.NamedAttrMap,
): tf.TensorInfo | null {
  if (
    x.shape.length !== 2 ||
    x.dtype !== 'float32' ||
    indices.dtype !== 'int32' ||
    Number(attrs.axis ?? 0) !== 0 ||
    Number(attrs.batchDims ?? 0) !== 0
  )
    return null;
  const [rows, dim] = x.shape;
  const out = backend.makeOutput([...indices.shape, dim], 'float32');
  // Views are taken after allocating: a heap growth detaches older ones.
  const table = backend.typedArrayFromHeap(x);
  const ids = backend.typedArrayFromHeap(indices);
  const o = backend.typedArrayFromHeap(out);
  for (let i = 0; i < ids.length; i++) {
    const r = ids[i];
    if (r < 0 || r >= rows) throw new Error(`GatherV2: index ${r} is not in [0, ${rows - 1}]`);
    o.set(table.subarray(r * dim, r * dim + dim), i * dim);
  }
  return out;
}

/**
 * out[s] = Σ x[i] over rows i with segmentIds[i] = s, for 1-D segment ids (gather's gradient).
 * tfjs-wasm has no UnsortedSegmentSum kernel at all.
 * @public
 */
export function unsortedSegmentSum(
  backend: HeapBackend,
  x: tf.TensorInfo,
  segmentIds: tf.TensorInfo,
  attrs: tf.NamedAttrMap,
): tf.TensorInfo {
  if (segmentIds.shape.length !== 1 || x.dtype !== 'float32')
    throw new Error('UnsortedSegmentSum on wasm: only 1-D segment ids over float32 rows');
  const segments = Number(attrs.numSegments);
  const dim = x.shape.slice(1).reduce((a, b) => a * b, 1);
  const out = backend.makeOutput([segments, ...x.shape.slice(1)], 'float32');
  const xs = backend.typedArrayFromHeap(x);
  const ids = backend.typedArrayFromHeap(segmentIds);
  const o = backend.typedArrayFromHeap(out);
  o.fill(0);
  for (let i = 0; i < ids.length; i++) {
    const s = ids[i];
    if (s < 0 || s >= segments) continue;
    const src = i * dim;
    const dst = s * dim;
    for (let d = 0; d < dim; d++) o[dst + d] += xs[src + d];
  }
  return out;
}
