export * from './backend-plugin';
export * from './backend-registry';
export * from './register-backends';
export * from './tfjs-compute-backend.adapter';
export * from './backends/wasm/kernels/register-wasm-kernels';
export * from './backends/wasm/wasm-backend.plugin';
export * from './backends/cpu/cpu-backend.plugin';
export * from './backends/tensorflow/tensorflow-backend.plugin';
export * from './backends/cuda/index';
export * from './backends/wasm/data-parallel/data-parallel-trainer';
export * from './backends/wasm/data-parallel/data-parallel-factory';
// WebGPU: the backend, the planned step's factory and its roofline. The planned trainer's class is only in the
// `./webgpu` entry: its declaration names the engine's TfjsTrainer, which would bring tfjs-core's declarations (with
// the DOM lib and @webgpu/types) into every consumer's type-check (issue 42).
export * from './backends/webgpu/webgpu-backend.plugin';
export * from './backends/webgpu/vulkan-diagnosis';
export * from './backends/webgpu/planned/planned-step-factory';
export * from './backends/webgpu/planned/step-description';
export * from './backends/webgpu/planned/roofline';
// The bench scripts' measuring points: kernel choice.
export * from './backends/wasm/native/native-kernels';
