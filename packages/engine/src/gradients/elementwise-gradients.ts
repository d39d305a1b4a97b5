import * as tf from '@tensorflow/tfjs-core';
import { reduceToShape } from './reduce-to-shape';

type Grad = tf.GradConfig;
const binary = (
  kernelName: string,
  f: (dy: tf.Tensor, a: tf.Tensor, b: tf.Tensor) => [tf.Tensor, tf.Tensor],
): Grad => ({
  kernelName,
  inputsToSave: ['a', 'b'],
  gradFunc: (dy, saved) => {
    const [a, b] = saved;
    const d = dy as tf.Tensor;
    return {
      a: () => reduceToShape(f(d, a, b)[0], a.shape),
      b: () => reduceToShape(f(d, a, b)[1], b.shape),
    };
  },
});
const unary = (kernelName: string, f: (dy: tf.Tensor, x: tf.Tensor) => tf.Tensor): Grad => ({
  kernelName,
  inputsToSave: ['x'],
  gradFunc: (dy, saved) => ({ x: () => f(dy as tf.Tensor, saved[0]) }),
});
const ofOutput = (kernelName: string, f: (dy: tf.Tensor, y: tf.Tensor) => tf.Tensor): Grad => ({
  kernelName,
  outputsToSave: [true],
  gradFunc: (dy, saved) => ({ x: () => f(dy as tf.Tensor, saved[0]) }),
});

/** Gradients of the elementwise kernels the networks and losses use. @public */
export const ELEMENTWISE_GRADIENTS: readonly Grad[] = [
  binary('Add', (dy) => [dy, dy]),
  binary('Sub', (dy) => [dy, tf.neg(dy)]),
  binary('Multiply', (dy, a, b) => [tf.mul(dy, b), tf.mul(dy, a)]),
  binary('RealDiv', (dy, a, b) => [tf.div(dy, b), tf.neg(tf.div(tf.mul(dy, a), tf.square(b)))]),
  binary('Minimum', (dy, a, b) => [
    tf.mul(dy, tf.cast(tf.lessEqual(a, b), 'float32')),
    tf.mul(dy, tf.cast(tf.greater(a, b), 'float32')),
  ]),
  binary('Maximum', (dy, a, b) => [
    tf.mul(dy, tf.cast(tf.greaterEqual(a, b), 'float32')),
    tf.mul(dy, tf.cast(tf.less(a, b), 'float32')),
  ]),
  binary('Pow', (dy, a, b) => {
    const y = tf.pow(a, b);
    const logA = tf.log(tf.where(tf.greater(a, 0), a, tf.onesLike(a)));
    return [tf.mul(dy, tf.mul(b, tf.pow(a, tf.sub(b, 1)))), tf.mul(dy, tf.mul(y, logA))];
  }),
  unary('Neg', (dy) => tf.neg(dy)),
  unary('Relu', (dy, x) => tf.mul(dy, tf.step(x))),
  unary('Softplus', (dy, x) => tf.mul(dy, tf.sigmoid(x))),
  unary('Log', (dy, x) => tf.div(dy, x)),
  unary('Square', (dy, x) => tf.mul(dy, tf.mul(x, 2))),
  unary('Erf', (dy, x) => tf.mul(dy, tf.mul(tf.exp(tf.neg(tf.square(x))), 2 / Math.sqrt(Math.PI)))),
  unary('Identity', (dy) => dy),
  unary('Cast', (dy) => dy),
  ofOutput('Sigmoid', (dy, y) => tf.mul(dy, tf.mul(y, tf.sub(1, y)))),
  ofOutput('Exp', (dy, y) => tf.mul(dy, y)),
  ofOutput('Sqrt', (dy, y) => tf.div(dy, tf.mul(y, 2))),
];
