import * as tf from '@tensorflow/tfjs-core';
import { err, ok } from '@maou/bench-domain';
import { selectedByName, type BackendPlugin } from '../../backend-plugin';
// require, not import(): a native import() fails where code runs in a vm without ESM support (a consumer's jest).
import { requireModule } from '../optional-module';

type NativeSpec = Pick<BackendPlugin, 'usage' | 'help' | 'placement' | 'selects' | 'priority'> & {
  readonly name: 'tensorflow' | 'tensorflow-gpu';
  readonly packageName: string;
  readonly hint: string;
};

/**
 * tfjs-node / tfjs-node-gpu (libtensorflow): optional, loaded with a dynamic import, because their
 * install script downloads libtensorflow. Absent → a start error with the install hint. For the GPU
 * build `--gpu tensorflow-gpu:N` becomes CUDA_VISIBLE_DEVICES=N before libtensorflow loads.
 * @public
 */
export function createNativeBackendPlugin(spec: NativeSpec): BackendPlugin {
  return {
    name: spec.name,
    usage: spec.usage,
    help: spec.help,
    placement: spec.placement,
    selects: spec.selects,
    priority: spec.priority,
    dataParallel: false,
    async start(config) {
      if (spec.name === 'tensorflow-gpu' && process.env.CUDA_VISIBLE_DEVICES === undefined) {
        process.env.CUDA_VISIBLE_DEVICES = String(config.deviceIndex);
      }
      const pkg: string = spec.packageName;
      try {
        await requireModule(pkg);
      } catch (e) {
        return err({
          backend: spec.name,
          message: `${spec.packageName} is not installed or failed to load: ${(e as Error).message.split('\n')[0]}`,
          hint: spec.hint,
        });
      }
      if (!(await tf.setBackend('tensorflow')))
        return err({ backend: spec.name, message: 'the tensorflow backend did not initialise', hint: spec.hint });
      const device = spec.name === 'tensorflow-gpu' ? `cuda:${config.deviceIndex}` : 'cpu (libtensorflow)';
      return ok({
        name: spec.name,
        version: tf.version_core,
        threads: 0,
        device,
        notes: ['native libtensorflow kernels; threads managed by TensorFlow'],
      });
    },
  };
}

/** @public */
export const tensorflowGpuBackendPlugin = createNativeBackendPlugin({
  name: 'tensorflow-gpu',
  usage: 'tensorflow-gpu[:N]',
  help: 'tfjs-node-gpu: CUDA 11.2, cuDNN 8.1',
  placement: 'device',
  // `cuda[:N]`, as maou's --gpu takes it, is the cuda backend's (NVIDIA's current libraries)
  selects: (value) => {
    const gpu = /^tensorflow-gpu(?::(\d+))?$/.exec(value);
    return gpu ? Number(gpu[1] ?? 0) : null;
  },
  packageName: '@tensorflow/tfjs-node-gpu',
  priority: 40,
  hint: 'pnpm add @tensorflow/tfjs-node-gpu@4.22.0 on Linux x86-64 with an NVIDIA driver, CUDA 11.2 and cuDNN 8.1 (libtensorflow 2.9.1; CUDA-12-only systems cannot load it) and network access for its install script',
});

/** @public */
export const tensorflowBackendPlugin = createNativeBackendPlugin({
  name: 'tensorflow',
  usage: 'tensorflow',
  help: 'tfjs-node',
  placement: 'host',
  selects: selectedByName('tensorflow'),
  packageName: '@tensorflow/tfjs-node',
  priority: 20,
  hint: 'pnpm add @tensorflow/tfjs-node@4.22.0 (its install script downloads libtensorflow 2.9.1 from storage.googleapis.com)',
});
