import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';
import { fastWasmBackend } from '@maou/bench-testkit/compute';
import { simdConcat, simdSplitV } from './simd-layout-kernels';

// Concat takes its inputs as a map from position to tensor, as tfjs passes them.
const named = (ts: tf.Tensor[]): tf.NamedTensorInfoMap => Object.fromEntries(ts.map((t, i) => [String(i), t]));

// Concat and SplitV on the heap against the cpu backend, along every axis, and their fallbacks.
const values = (shape: number[], seed: number) =>
  tf.randomUniform(shape, -1, 1, 'float32', seed).dataSync() as Float32Array;

async function onBoth(f: () => tf.Tensor | tf.Tensor[]): Promise<[Float32Array[], Float32Array[]]> {
  const run = async (backend: string) => {
    await tf.setBackend(backend);
    return tf.tidy(() => [f()].flat().map((t) => t.dataSync() as Float32Array));
  };
  return [await run('cpu'), await run('wasm')];
}

describe('SIMD concat and split (wasm)', () => {
  const wasm = fastWasmBackend();
  beforeAll(wasm.setUp);
  afterAll(wasm.tearDown);

  const shapes = [
    [3, 5, 5, 8],
    [3, 5, 5, 6],
    [3, 5, 5, 1],
  ];
  it.each([0, 1, 2, 3, -1])('concat along axis %i of two and three inputs matches cpu', async (axis) => {
    const ax = axis < 0 ? 4 + axis : axis;
    const parts = shapes.map((s, i) => ({
      v: values(
        s.map((d, j) => (j === ax ? d : [3, 5, 5, 8][j])),
        i,
      ),
      s: s.map((d, j) => (j === ax ? d : [3, 5, 5, 8][j])),
    }));
    for (const n of [2, 3]) {
      const [ref, got] = await onBoth(() =>
        tf.concat(
          parts.slice(0, n).map((p) => tf.tensor(p.v, p.s)),
          axis,
        ),
      );
      expect(got).toEqual(ref);
    }
  });

  it.each([
    [0, [1, 2]],
    [1, [2, -1]],
    [2, [1, 1, 3]],
    [3, [3, 5]],
    [-1, 2],
    [3, [7, 1]],
  ] as Array<[number, number | number[]]>)('split along axis %i into %j matches cpu', async (axis, sizes) => {
    const x = values([3, 5, 5, 8], 7);
    const [ref, got] = await onBoth(() => tf.split(tf.tensor(x, [3, 5, 5, 8]), sizes, axis));
    expect(got).toEqual(ref);
  });

  it('covers what it can, falls back (and stays right) for the rest, and leaves nothing behind', async () => {
    await tf.setBackend('wasm');
    const backend = tf.backend();
    const ints = [tf.tensor([1, 2], [1, 2], 'int32'), tf.tensor([3], [1, 1], 'int32')];
    const empty = [tf.zeros([2, 0]), tf.ones([2, 3])];
    const floats = [tf.ones([2, 2]), tf.zeros([2, 3])];
    const dataIds = backend.numDataIds();
    expect(simdConcat({ inputs: named(ints), attrs: { axis: 1 }, backend })).toBeNull();
    expect(simdConcat({ inputs: named(empty), attrs: { axis: 1 }, backend })).toBeNull();
    expect(simdSplitV({ inputs: { x: floats[1] }, attrs: { numOrSizeSplits: [3, 0], axis: 1 }, backend })).toBeNull();
    expect(backend.numDataIds()).toBe(dataIds);
    // Covered: taken directly, not through the fallback.
    const joined = tf
      .engine()
      .makeTensorFromTensorInfo(simdConcat({ inputs: named(floats), attrs: { axis: 1 }, backend })!);
    const halves = simdSplitV({ inputs: { x: joined }, attrs: { numOrSizeSplits: [2, -1], axis: 1 }, backend })!.map(
      (t) => tf.engine().makeTensorFromTensorInfo(t),
    );
    expect(halves.map((t) => t.arraySync())).toEqual([
      [
        [1, 1],
        [1, 1],
      ],
      [
        [0, 0, 0],
        [0, 0, 0],
      ],
    ]);
    tf.dispose([joined, ...halves]);
    expect(backend.numDataIds()).toBe(dataIds);
    const tensors = tf.memory().numTensors;
    tf.tidy(() => {
      expect(Array.from(tf.concat(ints, 1).dataSync())).toEqual([1, 2, 3]);
      expect(tf.concat(empty, 1).shape).toEqual([2, 3]);
      expect(tf.concat(floats, 1).arraySync()).toEqual([
        [1, 1, 0, 0, 0],
        [1, 1, 0, 0, 0],
      ]);
      expect(tf.split(tf.concat(floats, 1), [2, 3], 1).map((t) => t.arraySync())).toEqual([
        [
          [1, 1],
          [1, 1],
        ],
        [
          [0, 0, 0],
          [0, 0, 0],
        ],
      ]);
    });
    expect(tf.memory().numTensors).toBe(tensors);
    expect(backend.numDataIds()).toBe(dataIds);
    tf.dispose([...ints, ...empty, ...floats]);
  });
});
