// `@maou/bench-compute/cuda`: the cuda backend's library discovery, driver and NVRTC bindings, and nothing of the
// other backends, for code that runs only these (the route check, packed with what it imports); the package entry
// has them too.
export * from './cuda-backend.plugin';
export * from './cuda-driver';
export * from './cuda-libraries';
export * from './discover-cuda';
export * from './find-libraries';
export * from './library-versions';
export * from './search-places';
export * from './nvrtc';
export * from './kernels/cuda-kernels';
export * from './route/conv-layers';
export * from './route/cudnn-timer';
export * from './route/route-table';
export * from './step/step-calls';
