import * as tf from '@tensorflow/tfjs-core';
import { ok } from '@maou/bench-domain';
import { selectedByName, type BackendPlugin } from '../../backend-plugin';
// require, not import(): a native import() fails where code runs in a vm without ESM support (a consumer's jest).
import { requireModule } from '../optional-module';

/**
 * tfjs's cpu backend prints a banner on stderr at its first tensor in Node ("install our node backend"); a run says
 * what it ran on in its report, and prints nothing unless asked. The backend instance's own flag, not tfjs's global
 * PROD flag, so nothing else of the host's tfjs changes.
 */
const quietFirstUse = (backend: object): void => {
  if ('firstUse' in backend) (backend as { firstUse: boolean }).firstUse = false;
};

/** Pure-JS tfjs backend: a correctness reference, 160–1,500× slower than wasm for training (its help). @public */
export const cpuBackendPlugin: BackendPlugin = {
  name: 'cpu',
  usage: 'cpu',
  help: 'pure JavaScript, 160–1,500× slower: a warning says so',
  placement: 'host',
  fallback: true,
  // maou's `--gpu cpu` means PyTorch on the CPU, which is what no `--gpu` gives here. Figures: docs/maou.md, "Where
  // the defaults differ from maou" (commands and raw numbers).
  note: "--gpu cpu selects tfjs's pure-JavaScript cpu backend, a correctness fallback: it trained about 160× slower than the default at batch 8 (Stage 3 lite on a 2-core VM: 0.31 and 0.25 samples/s against 42.6 and 49.0 with no --gpu) and about 1,500× slower at the default batch 256 (0.69 against 1,029 samples/s); for maou's CPU device leave --gpu out",
  dataParallel: false,
  selects: selectedByName('cpu'),
  priority: 0,
  async start() {
    await requireModule('@tensorflow/tfjs-backend-cpu');
    await tf.setBackend('cpu');
    await tf.ready();
    quietFirstUse(tf.backend());
    return ok({
      name: 'cpu',
      version: tf.version_core,
      threads: 1,
      device: 'cpu (JavaScript)',
      notes: ['correctness fallback, not for speed'],
    });
  },
};
