import * as tf from '@tensorflow/tfjs-core';
import type { GradientExchange } from '@maou/bench-engine';

/** tfjs-backend-wasm's view of a tensor's bytes on its heap. */
interface HeapView {
  typedArrayFromHeap(t: tf.TensorInfo): Float32Array;
}

/**
 * All-reduce over one SharedArrayBuffer holding a slot per replica (gradients, then batch-norm buffers). A replica
 * writes its slot, waits at the barrier until every slot is written, then sums all slots itself, in replica order,
 * so every replica computes the same floats. Slots are rewritten only at the next step, which the main thread starts
 * after every replica has finished reading.
 * @internal
 */
export class SharedBufferExchange implements GradientExchange {
  private slots = new Float32Array(0);
  private stride = 0;

  constructor(
    readonly replicas: number,
    private readonly replica: number,
    private readonly barrier: () => Promise<void>,
  ) {}

  /** The shared slots, `replicas` × (gradient + buffer floats), handed out by the main thread. */
  attach(buffer: SharedArrayBuffer): void {
    this.slots = new Float32Array(buffer);
    this.stride = this.slots.length / this.replicas;
  }

  async allReduce(grads: readonly tf.Tensor[], buffers: readonly tf.Variable[], rows: number): Promise<tf.Tensor[]> {
    if (this.stride === 0) throw new Error('gradient exchange used before its shared buffer was attached');
    const mine = this.slots.subarray(this.replica * this.stride, (this.replica + 1) * this.stride);
    let at = 0;
    const heap = tf.backend() as Partial<HeapView>;
    for (const t of [...grads, ...buffers]) {
      // On wasm, copy straight from the heap: `data()` would allocate a fresh array per tensor (megabytes per step).
      const values = heap.typedArrayFromHeap ? heap.typedArrayFromHeap(t) : ((await t.data()) as Float32Array);
      mine.set(values, at);
      at += values.length;
    }
    // The slot's last float: the rows behind this replica's batch-norm statistics.
    mine[this.stride - 1] = rows;
    await this.barrier();
    at = 0;
    // Summed on the backend (tfjs-wasm's AddN is SIMD), always in replica order; this replica's own part is taken
    // from its tensor (the same floats as its slot), which saves one upload.
    const slot = (r: number, base: number, n: number, shape: number[]): tf.Tensor =>
      tf.tensor(this.slots.subarray(r * this.stride + base, r * this.stride + base + n), shape, 'float32');
    const sumNext = (own: tf.Tensor, n: number): tf.Tensor => {
      const base = at;
      at += n;
      if (this.replicas === 1) return tf.clone(own);
      return tf.tidy(() =>
        tf.addN(
          Array.from({ length: this.replicas }, (_, r) => (r === this.replica ? own : slot(r, base, n, own.shape))),
        ),
      );
    };
    const summed = grads.map((g) => sumNext(g, g.size));
    // Batch-norm buffers: the mean over replicas weighted by the rows each trained on (empty shards count for nothing).
    const weights = Array.from({ length: this.replicas }, (_, r) => this.slots[r * this.stride + this.stride - 1]!);
    const total = weights.reduce((a, b) => a + b, 0);
    for (const b of buffers) {
      const base = at;
      at += b.size;
      if (total === 0) continue;
      const mean = tf.tidy(() =>
        tf.addN(
          weights.flatMap((w, r) =>
            w > 0 ? [tf.mul(r === this.replica ? b : slot(r, base, b.size, b.shape), w / total)] : [],
          ),
        ),
      );
      b.assign(mean);
      mean.dispose();
    }
    return summed;
  }
}
