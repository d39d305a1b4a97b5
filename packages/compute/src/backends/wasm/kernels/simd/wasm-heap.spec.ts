import type * as tf from '@tensorflow/tfjs-core';
import { heapOutput, type WasmBackendHeap } from './wasm-heap';

// tfjs-wasm's makeOutput takes whatever its malloc returns; on an exhausted heap that is 0. Real exhaustion needs
// 4 GiB, so this backend stands in for tfjs at that one point: it answers like tfjs does when malloc fails.
const backendGiving = (offset: number) => {
  const disposed: tf.DataId[] = [];
  const backend: WasmBackendHeap = {
    wasm: {},
    makeOutput: (shape) => ({ dataId: { shape }, shape, dtype: 'float32' }),
    getMemoryOffset: () => offset,
    disposeData: (id) => (disposed.push(id), true),
  };
  return { backend, disposed };
};

describe('heapOutput', () => {
  it('given an exhausted heap (a null block), then it frees the output and says what to change', () => {
    const { backend, disposed } = backendGiving(0);
    expect(() => heapOutput(backend, [1024, 9, 9, 96])).toThrow(
      /wasm heap \(at most 4 GiB per replica\) has no room for a 30 MiB tensor \[1024, 9, 9, 96\]: lower --batch-size or raise --threads/,
    );
    expect(disposed).toHaveLength(1);
  });

  it('given room, then the output is returned as made', () => {
    const { backend, disposed } = backendGiving(4096);
    expect(heapOutput(backend, [2, 3]).shape).toEqual([2, 3]);
    expect(disposed).toHaveLength(0);
  });
});
