import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { fastWasmBackend } from '@maou/bench-testkit/compute';

// tf.clone on the fast wasm set shares the heap buffer; each tensor still owns a reference of its own.
describe('Identity sharing the buffer (fast wasm set)', () => {
  const wasm = fastWasmBackend();
  beforeAll(wasm.setUp);
  afterAll(wasm.tearDown);

  it('a clone reads the same values without a new buffer, and outlives its source', () => {
    const dataIds = tf.engine().backend.numDataIds();
    const x = tf.tensor([1, 2, 3, 4], [2, 2]);
    const y = tf.clone(x);
    expect(tf.engine().backend.numDataIds()).toBe(dataIds + 1);
    x.dispose();
    expect(Array.from(y.dataSync())).toEqual([1, 2, 3, 4]);
    const z = tf.add(y, 1);
    expect(Array.from(z.dataSync())).toEqual([2, 3, 4, 5]);
    z.dispose();
    y.dispose();
    expect(tf.engine().backend.numDataIds()).toBe(dataIds);
  });

  it('custom gradients save through it and free everything after the backward pass', () => {
    const square = tf.customGrad((x, save) => {
      (save as tf.GradSaveFunc)([x as tf.Tensor]);
      return {
        value: tf.square(x as tf.Tensor),
        gradFunc: (dy: tf.Tensor, [s]: tf.Tensor[]) => tf.mul(dy, tf.mul(s, 2)),
      };
    });
    const x = tf.tensor([1, -2, 3]);
    const before = tf.memory().numTensors;
    const dataIds = tf.engine().backend.numDataIds();
    const g = tf.grad((v: tf.Tensor) => square(v))(x);
    expect(Array.from(g.dataSync())).toEqual([2, -4, 6]);
    g.dispose();
    expect(tf.memory().numTensors).toBe(before);
    expect(tf.engine().backend.numDataIds()).toBe(dataIds);
    x.dispose();
  });

  it('strings are still copied by the stock kernel', () => {
    const s = tf.tensor(['a', 'b']);
    const c = tf.clone(s);
    s.dispose();
    expect(c.dataSync()).toEqual(['a', 'b']);
    c.dispose();
  });
});
