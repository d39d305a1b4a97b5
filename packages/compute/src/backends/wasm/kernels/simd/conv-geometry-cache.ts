import type * as tf from '@tensorflow/tfjs-core';
import { type HeapAllocator } from './wasm-heap';

/**
 * The index tables of one convolution geometry, in one malloc'd block on the heap (byte offsets):
 * `ind` [outPixels·taps] is the input pixel each output pixel reads at each tap (-1 in the padding);
 * `pairs` lists, per tap, the (input pixel, output pixel) pairs that tap connects, tap t spanning pairs
 * `start[t] .. start[t+1]` (the filter gradient walks them instead of skipping padding taps).
 * @public
 */
export interface ConvGeometry {
  readonly taps: number;
  readonly outPixels: number;
  readonly inPixels: number;
  readonly ind: number;
  readonly start: number;
  readonly pairs: number;
  /** 1×1, stride 1, no padding: pair q is (q, q), so the filter gradient needs no pair list. */
  readonly dense: boolean;
}

/**
 * Tables are per (batch, board, filter, stride, padding) and the same every step, so they are built once
 * and kept; the least recently used is freed beyond `capacity` (batch sizes change at the last batch,
 * in validation and across data-parallel shards).
 * @public
 */
export class ConvGeometryCache {
  private readonly entries = new Map<string, ConvGeometry & { block: number }>();

  constructor(
    private readonly heap: HeapAllocator,
    private readonly capacity = 32,
  ) {}

  get(c: tf.backend_util.Conv2DInfo): ConvGeometry {
    const key = [
      c.batchSize,
      c.inHeight,
      c.inWidth,
      c.outHeight,
      c.outWidth,
      c.filterHeight,
      c.filterWidth,
      c.strideHeight,
      c.strideWidth,
      c.padInfo.top,
      c.padInfo.left,
    ].join(',');
    let g = this.entries.get(key);
    if (g) {
      this.entries.delete(key); // re-inserted below: Map order is the recency order
    } else {
      g = this.build(c);
      if (this.entries.size >= this.capacity) {
        const [oldKey, old] = this.entries.entries().next().value as [string, { block: number }];
        this.heap.free(old.block);
        this.entries.delete(oldKey);
      }
    }
    this.entries.set(key, g);
    return g;
  }

  /** Frees every table (the heap itself stays). */
  clear(): void {
    for (const g of this.entries.values()) this.heap.free(g.block);
    this.entries.clear();
  }

  private build(c: tf.backend_util.Conv2DInfo): ConvGeometry & { block: number } {
    const {
      batchSize: b,
      inHeight: h,
      inWidth: w,
      outHeight: ho,
      outWidth: wo,
      filterHeight: kh,
      filterWidth: kw,
      strideHeight: sh,
      strideWidth: sw,
    } = c;
    const { top, left } = c.padInfo;
    const taps = kh * kw;
    const outPixels = b * ho * wo;
    const ind = new Int32Array(outPixels * taps);
    const perTap = new Int32Array(taps);
    for (let n = 0, m = 0; n < b; n++) {
      for (let oy = 0; oy < ho; oy++) {
        for (let ox = 0; ox < wo; ox++, m++) {
          for (let i = 0; i < kh; i++) {
            const iy = oy * sh + i - top;
            for (let j = 0; j < kw; j++) {
              const ix = ox * sw + j - left;
              const inside = iy >= 0 && iy < h && ix >= 0 && ix < w;
              ind[m * taps + i * kw + j] = inside ? (n * h + iy) * w + ix : -1;
              if (inside) perTap[i * kw + j]++;
            }
          }
        }
      }
    }
    const pairCount = perTap.reduce((s, v) => s + v, 0);
    const words = ind.length + taps + 1 + 2 * pairCount;
    const block = this.heap.malloc(words * 4);
    // Views after the malloc: a heap growth replaces the buffer.
    const heap = new Int32Array(this.heap.memory.buffer, block, words);
    heap.set(ind, 0);
    const startAt = ind.length;
    const pairsAt = startAt + taps + 1;
    const next = new Int32Array(taps);
    for (let t = 0, q = 0; t <= taps; t++) {
      heap[startAt + t] = q;
      if (t < taps) {
        next[t] = q;
        q += perTap[t];
      }
    }
    for (let m = 0; m < outPixels; m++) {
      for (let t = 0; t < taps; t++) {
        const r = ind[m * taps + t];
        if (r < 0) continue;
        const q = next[t]++;
        heap[pairsAt + 2 * q] = r;
        heap[pairsAt + 2 * q + 1] = m;
      }
    }
    const dense = taps === 1 && sh === 1 && sw === 1 && top === 0 && left === 0 && ho === h && wo === w;
    return {
      taps,
      outPixels,
      inPixels: b * h * w,
      ind: block,
      start: block + startAt * 4,
      pairs: block + pairsAt * 4,
      dense,
      block,
    };
  }
}
