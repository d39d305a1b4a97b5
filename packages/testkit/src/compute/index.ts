export * from './engine-fixtures';
export * from './engine-gradients';
export * from './fast-wasm-backend';
export * from './lavapipe-env';
export * from './relative-error';
export * from './dropout-masks';
export * from './nvrtc-env';
export * from './loss-cases';
