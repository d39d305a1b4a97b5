import { BackendRegistry } from './backend-registry';
import { cpuBackendPlugin } from './backends/cpu/cpu-backend.plugin';
import { cudaBackendPlugin } from './backends/cuda/cuda-backend.plugin';
import { tensorflowBackendPlugin, tensorflowGpuBackendPlugin } from './backends/tensorflow/tensorflow-backend.plugin';
import { createWasmBackendPlugin } from './backends/wasm/wasm-backend.plugin';
import { webgpuBackendPlugin } from './backends/webgpu/webgpu-backend.plugin';

/**
 * The registry with every backend this package ships, one line each. A backend is one folder under `backends/`
 * (its kernels, trainer and helpers with it) exporting a `BackendPlugin`, and a line here; `--gpu`'s choices and help
 * follow from it.
 * @public
 */
export function createBackendRegistry(): BackendRegistry {
  return new BackendRegistry()
    .register(cudaBackendPlugin)
    .register(tensorflowGpuBackendPlugin)
    .register(webgpuBackendPlugin)
    .register(tensorflowBackendPlugin)
    .register(createWasmBackendPlugin('fast'))
    .register(cpuBackendPlugin);
}
