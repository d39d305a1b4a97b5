import { BackendRegistry } from './backend-registry';
import { cpuBackendPlugin } from './plugins/cpu-backend.plugin';
import { tensorflowBackendPlugin, tensorflowGpuBackendPlugin } from './plugins/native-backend.plugin';
import { createWasmBackendPlugin } from './plugins/wasm-backend.plugin';
import { webgpuBackendPlugin } from './webgpu/webgpu-backend.plugin';

/**
 * The registry with every backend this package ships. Other plug-ins (e.g. `webgpu/`) add themselves
 * by `registry.register(plugin)` on the returned registry, or by a line here.
 * @public
 */
export function createBackendRegistry(): BackendRegistry {
  return new BackendRegistry()
    .register(tensorflowGpuBackendPlugin)
    .register(webgpuBackendPlugin)
    .register(tensorflowBackendPlugin)
    .register(createWasmBackendPlugin('fast'))
    .register(cpuBackendPlugin);
}
