export * from './backend-plugin';
export * from './backend-registry';
export * from './register-backends';
export * from './tfjs-compute-backend.adapter';
export * from './wasm/register-wasm-kernels';
export * from './backends/wasm/wasm-backend.plugin';
export * from './backends/cpu/cpu-backend.plugin';
export * from './backends/tensorflow/tensorflow-backend.plugin';
export * from './webgpu/webgpu-backend.plugin';
export * from './data-parallel/data-parallel-trainer';
export * from './data-parallel/data-parallel-factory';
export * from './webgpu/planned/planned-step-factory';
export * from './webgpu/vulkan-diagnosis';
// The bench scripts' measuring points: kernel choice, the planned WebGPU step and its roofline.
export * from './native/native-kernels';
export * from './webgpu/planned/planned-trainer';
export * from './webgpu/planned/step-description';
export * from './webgpu/planned/roofline';
