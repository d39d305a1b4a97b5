import { err } from '@maou/bench-domain';
import { type BackendPlugin } from '../../backend-plugin';
import { openCudaDevice } from './cuda-driver';
import { type CudaSearchInputs, defaultCudaSearch } from './search-places';
import { discoverCuda } from './discover-cuda';

const NAME = 'cuda';

/**
 * `--gpu cuda[:N]`: NVIDIA's own libraries (the driver API, cuDNN, cuBLAS, NVRTC), found where a PyTorch user has
 * them and opened at run time; nothing of NVIDIA's is shipped. Until its step executor lands it starts nothing: it
 * finds and checks the libraries and the GPU, then refuses, so a run never trains on something else in its place.
 * @public
 */
export function createCudaBackendPlugin(search: () => CudaSearchInputs = defaultCudaSearch): BackendPlugin {
  return {
    name: NAME,
    usage: 'cuda[:N]',
    help: "NVIDIA's cuDNN, cuBLAS and NVRTC where PyTorch's wheels or CUDA_HOME have them; checks them, does not train yet (docs/cuda.md)",
    placement: 'device',
    selects: (value) => {
      const cuda = /^cuda(?::(\d+))?$/.exec(value);
      return cuda ? Number(cuda[1] ?? 0) : null;
    },
    priority: 50,
    dataParallel: false,
    async start(config) {
      const libraries = discoverCuda(search());
      if (!libraries.ok) return err({ backend: NAME, ...libraries.error });
      let gpu: string;
      try {
        const d = openCudaDevice(libraries.value.driver.path, config.deviceIndex);
        gpu = `cuda:${d.index} ${d.name} (compute capability ${d.computeCapability}, ${(d.memoryBytes / 2 ** 30).toFixed(0)} GiB)`;
      } catch (e) {
        return err({ backend: NAME, message: (e as Error).message });
      }
      const found = Object.values(libraries.value)
        .map((l) => `${l.title} ${l.version}`)
        .join(', ');
      return err({
        backend: NAME,
        message: `found ${found} and ${gpu}, but the cuda backend's training step is not built yet`,
        hint: '--gpu webgpu trains on this GPU through Vulkan',
      });
    },
  };
}

/** @public */
export const cudaBackendPlugin = createCudaBackendPlugin();
