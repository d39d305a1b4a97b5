// `@maou/bench-compute/webgpu`: the WebGPU backend with its planned step and roofline, and nothing of the other
// backends, for code that runs only these (the GPU bench, packed with what it imports); the package entry has them too.
export * from './webgpu-backend.plugin';
export * from './vulkan-diagnosis';
export * from './planned/planned-step-factory';
export * from './planned/planned-trainer';
export * from './planned/step-description';
export * from './planned/roofline';
