import * as tf from '@tensorflow/tfjs-core';
import { ELEMENTWISE_GRADIENTS } from './elementwise-gradients';
import { STRUCTURAL_GRADIENTS } from './structural-gradients';

/**
 * `@tensorflow/tfjs-core`'s CommonJS build registers no gradients (the full `@tensorflow/tfjs` bundle does),
 * so the engine registers its own for the kernels its networks and losses use. Registered only where
 * none exists yet, so a process that also loads `@tensorflow/tfjs` keeps tfjs's own. Idempotent.
 * @public
 */
export function registerEngineGradients(): void {
  for (const g of [...ELEMENTWISE_GRADIENTS, ...STRUCTURAL_GRADIENTS]) {
    if (!tf.getGradient(g.kernelName)) tf.registerGradient(g);
  }
}
