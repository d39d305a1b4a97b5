// `@maou/bench-testkit/gradients`: the engine's reference gradients and the error measures alone (tfjs-core and the
// engine), for the GPU bench, whose packer carries only what it imports; the specs take them from `./compute`.
export * from '../compute/engine-gradients';
export * from '../compute/relative-error';
