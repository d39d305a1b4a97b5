import * as tf from '@tensorflow/tfjs-core';
import { GELU_GRAD_KERNEL, GELU_KERNEL, LAYER_NORM_GRAD_KERNEL, LAYER_NORM_KERNEL } from '@maou/bench-engine';
import { floatInputs, geluGradInputs, layerNormGradInputs, layerNormInputs } from '../fused-kernel-inputs';
import type { ProgramRunner, WebgpuUtil } from './filter-im2col.program';
import {
  ColumnSumProgram,
  GeluGradProgram,
  GeluProgram,
  LayerNormAffineProgram,
  LayerNormDxProgram,
  LayerNormRowProgram,
  rowUniforms,
} from './gelu-layer-norm.program';

type KernelArgs = Parameters<tf.KernelFunc>[0];

const runnerOf = (a: KernelArgs) => a.backend as unknown as ProgramRunner;

/**
 * The engine's fused GELU and layer-norm kernels (nn/fused-kernels.ts) for tfjs-backend-webgpu, so the token
 * backbones' GELU and layer norm run as a few dispatches each way instead of the engine's composed ops (about nine
 * forward and a dozen plus two column sums backward per layer norm, five and seven per GELU). A WebGPUProgram has
 * one output, so each output is one dispatch: GELU 2 forward (y, Φ) and 1 backward; layer norm 3 forward (rstd,
 * xhat, y) and 3 backward (dx, dγ, dβ).
 * @public
 */
export function geluLayerNormKernels(util: WebgpuUtil): Array<[string, tf.KernelFunc]> {
  return [
    [
      GELU_KERNEL,
      (a: KernelArgs) => {
        const [x] = floatInputs(GELU_KERNEL, a, ['x']);
        const run = runnerOf(a);
        return (['y', 'cdf'] as const).map((output) =>
          run.runWebGPUProgram(new GeluProgram(x.shape, util, output), [x], 'float32', []),
        );
      },
    ],
    [
      GELU_GRAD_KERNEL,
      (a: KernelArgs) => {
        const { dy, x, cdf } = geluGradInputs(a);
        return runnerOf(a).runWebGPUProgram(new GeluGradProgram(x.shape, util), [dy, x, cdf], 'float32', []);
      },
    ],
    [
      LAYER_NORM_KERNEL,
      (a: KernelArgs) => {
        const { x, gamma, beta, eps } = layerNormInputs(a);
        const run = runnerOf(a);
        const uniforms = [...rowUniforms(x.shape), { type: 'float32', data: [eps] }];
        const rstd = run.runWebGPUProgram(new LayerNormRowProgram(x.shape, util, 'rstd'), [x], 'float32', uniforms);
        const xhat = run.runWebGPUProgram(new LayerNormRowProgram(x.shape, util, 'xhat'), [x], 'float32', uniforms);
        const channels = rowUniforms(x.shape).slice(1);
        const y = run.runWebGPUProgram(
          new LayerNormAffineProgram(x.shape, util),
          [xhat, gamma, beta],
          'float32',
          channels,
        );
        return [y, xhat, rstd];
      },
    ],
    [
      LAYER_NORM_GRAD_KERNEL,
      (a: KernelArgs) => {
        const { dy, xhat, rstd, gamma } = layerNormGradInputs(a);
        const run = runnerOf(a);
        const uniforms = rowUniforms(dy.shape);
        const dx = run.runWebGPUProgram(
          new LayerNormDxProgram(dy.shape, util),
          [dy, xhat, rstd, gamma],
          'float32',
          uniforms,
        );
        const sum = (timesXhat: boolean) =>
          run.runWebGPUProgram(
            new ColumnSumProgram(dy.shape, [...gamma.shape], util, timesXhat),
            timesXhat ? [dy, xhat] : [dy],
            'float32',
            uniforms,
          );
        return [dx, sum(true), sum(false)];
      },
    ],
  ];
}

/**
 * Registers {@link geluLayerNormKernels} for `backendName`; the engine then takes them (its one check, `hasKernel`,
 * as on the fast wasm set). Returns the undo, after which the engine composes GELU and layer norm from stock ops.
 * @public
 */
export function registerGeluLayerNorm(backendName: string, util: WebgpuUtil): () => void {
  const kernels = geluLayerNormKernels(util);
  for (const [kernelName, kernelFunc] of kernels) tf.registerKernel({ kernelName, backendName, kernelFunc });
  return () => {
    for (const [kernelName] of kernels) tf.unregisterKernel(kernelName, backendName);
  };
}
