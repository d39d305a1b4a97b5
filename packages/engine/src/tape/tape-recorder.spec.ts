import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { TapeRecorder } from './tape-recorder';

// The tape's own gradients on the stock cpu kernels (the backends' kernels are checked against these in compute).
describe('TapeRecorder', () => {
  beforeAll(async () => {
    await tf.setBackend('cpu');
  });

  it('given a concat along a negative axis, then each input gets its own slice of the gradient', () => {
    const a = tf.variable(tf.randomUniform([2, 3, 2], -1, 1, 'float32', 1));
    const b = tf.variable(tf.randomUniform([2, 3, 4], -1, 1, 'float32', 2));
    const weights = tf.randomUniform([2, 3, 6], -1, 1, 'float32', 3);
    const tape = new TapeRecorder();
    tape.begin();
    const loss = tf.tidy(() => tf.sum(tf.mul(tf.concat([a, b], -1), weights))) as tf.Scalar;
    const [da, db] = tape.backward(loss, [a, b]);
    const [wa, wb] = tf.split(weights, [2, 4], -1);
    expect(Array.from(da!.dataSync())).toEqual(Array.from(wa!.dataSync()));
    expect(Array.from(db!.dataSync())).toEqual(Array.from(wb!.dataSync()));
    tf.dispose([a, b, weights, loss, da!, db!, wa!, wb!]);
  });
});
