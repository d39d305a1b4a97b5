import type * as tf from '@tensorflow/tfjs-core';

/** The reference counting of tfjs-backend-wasm's `BackendWasm` (its Reshape shares buffers the same way). */
interface SharingBackend {
  incRef(dataId: tf.DataId): void;
}

/**
 * Identity (`tf.clone`) as a second reference to the input's heap buffer, as tfjs-cpu does it, instead of
 * tfjs-wasm's copy. Every custom gradient saves its tensors through a clone (batch norm saves x̂, the size
 * of its activation: 50 copies and ~8 ms per step at batch 128). Sound because tensors are immutable: no
 * kernel of tfjs-wasm or of this project writes into an input; each buffer is freed with its last tensor.
 * Returns null for strings (the stock kernel copies those).
 * @public
 */
export function sharedIdentity(a: Parameters<tf.KernelFunc>[0]): tf.TensorInfo | null {
  const x = a.inputs.x;
  if (!x || x.dtype === 'string') return null;
  (a.backend as unknown as SharingBackend).incRef(x.dataId);
  return { dataId: x.dataId, shape: x.shape, dtype: x.dtype };
}
