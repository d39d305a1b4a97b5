import * as tf from '@tensorflow/tfjs-core';
import { ok } from '@maou/bench-domain';
import { selectedByName, type BackendPlugin } from '../../backend-plugin';
// require, not import(): a native import() fails where code runs in a vm without ESM support (a consumer's jest).
import { requireModule } from '../optional-module';

/** Pure-JS tfjs backend: a correctness reference, 160–1,500× slower than wasm for training (its help). @public */
export const cpuBackendPlugin: BackendPlugin = {
  name: 'cpu',
  usage: 'cpu',
  help: 'pure JavaScript, 160–1,500× slower: a warning says so',
  placement: 'host',
  dataParallel: false,
  selects: selectedByName('cpu'),
  priority: 0,
  async start() {
    await requireModule('@tensorflow/tfjs-backend-cpu');
    await tf.setBackend('cpu');
    await tf.ready();
    return ok({
      name: 'cpu',
      version: tf.version_core,
      threads: 1,
      device: 'cpu (JavaScript)',
      notes: ['correctness fallback, not for speed'],
    });
  },
};
