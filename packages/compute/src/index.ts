export * from './backend-plugin';
export * from './backend-registry';
export * from './register-backends';
export * from './tfjs-compute-backend.adapter';
export * from './wasm/register-wasm-kernels';
export * from './backends/wasm/wasm-backend.plugin';
export * from './backends/cpu/cpu-backend.plugin';
export * from './backends/tensorflow/tensorflow-backend.plugin';
export * from './backends/cuda/index';
export * from './data-parallel/data-parallel-trainer';
export * from './data-parallel/data-parallel-factory';
// WebGPU: the backend, the planned step and its roofline (also the `./webgpu` entry).
export * from './webgpu/index';
// The bench scripts' measuring points: kernel choice.
export * from './native/native-kernels';
