import * as tf from '@tensorflow/tfjs-core';
import {
  ADAMW_KERNEL,
  CLIP_BY_GLOBAL_NORM_KERNEL,
  DROPOUT_MASK_KERNEL,
  GELU_GRAD_KERNEL,
  GELU_KERNEL,
  LAYER_NORM_GRAD_KERNEL,
  LAYER_NORM_KERNEL,
} from '@maou/bench-engine';
import {
  adamWInputs,
  clipInputs,
  dropoutMaskInputs,
  floatInputs,
  geluGradInputs,
  layerNormGradInputs,
  layerNormInputs,
  sizeOf,
} from '../../fused-kernel-inputs';
import type { ProgramRunner, WebgpuUtil } from './filter-im2col.program';
import {
  AdamWProgram,
  ClipScaleProgram,
  ColumnSumProgram,
  DropoutMaskProgram,
  GeluGradProgram,
  GeluProgram,
  LayerNormAffineProgram,
  LayerNormDxProgram,
  LayerNormRowProgram,
  rowUniforms,
  SquaresTotalProgram,
} from './fused-kernels.program';

type KernelArgs = Parameters<tf.KernelFunc>[0];

const runnerOf = (a: KernelArgs) => a.backend as unknown as ProgramRunner;

/**
 * The engine's fused kernels (nn/fused-kernels.ts) for tfjs-backend-webgpu: exact GELU, layer norm, AdamW,
 * global-norm clipping and dropout masks (drawn on the device instead of in JS and uploaded). The token backbones'
 * GELU and layer norm, and every parameter's update, run as a few dispatches instead of the engine's composed ops
 * (per layer norm about nine forward and a dozen plus two column sums backward, per GELU five and seven, per
 * parameter's AdamW update about thirteen). A WebGPUProgram has one output, so each output is one dispatch: GELU 2
 * forward (y, Φ) and 1 backward; layer norm 3 forward (rstd, xhat, y) and 3 backward (dx, dγ, dβ); AdamW 3 (param, m,
 * v); clipping 2 per gradient (a running sum of squares, the scale); a dropout mask 1.
 * @public
 */
export function fusedKernels(util: WebgpuUtil): Array<[string, tf.KernelFunc]> {
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
      DROPOUT_MASK_KERNEL,
      (a: KernelArgs) => {
        const { shape, key, threshold, scale } = dropoutMaskInputs(a);
        return runnerOf(a).runWebGPUProgram(new DropoutMaskProgram([...shape], util), [], 'float32', [
          { type: 'uint32', data: [key] },
          { type: 'uint32', data: [threshold] },
          { type: 'float32', data: [scale] },
        ]);
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
    [
      ADAMW_KERNEL,
      (a: KernelArgs) => {
        const { param, grad, m, v, settings: s } = adamWInputs(a);
        const decay = s.weightDecay > 0 ? 1 - s.lr * s.weightDecay : 1;
        const bc2 = Math.sqrt(1 - s.beta2 ** s.step);
        const stepSize = s.lr / (1 - s.beta1 ** s.step);
        // in AdamWProgram's order; f32, as tfjs rounds the composed ops' scalar operands
        const uniforms = [s.beta1, 1 - s.beta1, s.beta2, 1 - s.beta2, decay, bc2, s.eps, stepSize].map((x) => ({
          type: 'float32',
          data: [x],
        }));
        const run = runnerOf(a);
        const inputs = { param, grad, m, v };
        return (['param', 'm', 'v'] as const).map((output) => {
          const program = new AdamWProgram(param.shape, util, output);
          return run.runWebGPUProgram(
            program,
            program.variableNames.map((n) => inputs[n as keyof typeof inputs]),
            'float32',
            uniforms,
          );
        });
      },
    ],
    [
      CLIP_BY_GLOBAL_NORM_KERNEL,
      (a: KernelArgs) => {
        const { grads, maxNorm } = clipInputs(a);
        const run = runnerOf(a);
        let total: tf.TensorInfo | null = null;
        for (const g of grads) {
          const previous: tf.TensorInfo | null = total;
          const count = [{ type: 'int32', data: [sizeOf(g)] }];
          const program = new SquaresTotalProgram(util, previous !== null);
          total = run.runWebGPUProgram(program, previous ? [g, previous] : [g], 'float32', count);
          if (previous) (a.backend as tf.KernelBackend).disposeData(previous.dataId);
        }
        const scaled = grads.map((g) =>
          run.runWebGPUProgram(new ClipScaleProgram(g.shape, util), [g, total!], 'float32', [
            { type: 'float32', data: [maxNorm] },
          ]),
        );
        if (total) (a.backend as tf.KernelBackend).disposeData(total.dataId);
        return scaled;
      },
    ],
  ];
}

/**
 * Registers {@link fusedKernels} for `backendName`; the engine then takes them (its one check, `hasKernel`,
 * as on the fast wasm set). Returns the undo, after which the engine composes them from stock ops.
 * @public
 */
export function registerFusedKernels(backendName: string, util: WebgpuUtil): () => void {
  const kernels = fusedKernels(util);
  for (const [kernelName, kernelFunc] of kernels) tf.registerKernel({ kernelName, backendName, kernelFunc });
  return () => {
    for (const [kernelName] of kernels) tf.unregisterKernel(kernelName, backendName);
  };
}
