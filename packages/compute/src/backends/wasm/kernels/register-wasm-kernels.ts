import * as tf from '@tensorflow/tfjs-core';
import {
  ADAMW_KERNEL,
  BATCH_NORM_GRAD_KERNEL,
  BATCH_NORM_TRAIN_KERNEL,
  CLIP_BY_GLOBAL_NORM_KERNEL,
  DROPOUT_MASK_KERNEL,
  GELU_GRAD_KERNEL,
  GELU_KERNEL,
  LAYER_NORM_GRAD_KERNEL,
  LAYER_NORM_KERNEL,
} from '@maou/bench-engine';
import { conv2dBackpropFilter, conv2dBackpropInput } from './conv-gradient-kernels';
import { type KernelScratch, withScratch } from './kernel-scratch';
import { gatherRows, unsortedSegmentSum } from './row-kernels';
import { sharedIdentity } from './shared-identity';
import {
  simdBatchMatMul,
  simdConv2d,
  simdConv2dBackpropFilter,
  simdConv2dBackpropInput,
} from './simd/simd-conv-kernels';
import {
  simdAdamW,
  simdBatchNormGrad,
  simdBatchNormTrain,
  simdClipByGlobalNorm,
  simdDropoutMask,
  simdGelu,
  simdGeluGrad,
  simdLayerNorm,
  simdLayerNormGrad,
} from './simd/simd-fused-kernels';
import { simdConcat, simdSplitV } from './simd/simd-layout-kernels';

const BACKEND = 'wasm';
const USED = [
  'Identity',
  'SplitV',
  'GatherV2',
  'BatchMatMul',
  'Transpose',
  'PadV2',
  'Slice',
  'StridedSlice',
  'Concat',
  'Conv2D',
  'DepthwiseConv2dNative',
  'Reverse',
  'Conv2DBackpropInput',
];

/** Which wasm kernel overrides to install. @public */
export type WasmKernelSet = 'fast' | 'shim-only';

type KernelArgs = Parameters<tf.KernelFunc>[0];

/**
 * Registers this project's gradient kernels for the tfjs wasm backend and returns a function that
 * restores the stock registrations. `shim-only` adds just the two kernels stock tfjs-wasm lacks and any
 * training of this network needs: Conv2DBackpropFilter (a plain im2col + transposed matmul; tfjs#8474)
 * and UnsortedSegmentSum (the embedding gather's gradient);
 * `fast` runs Conv2D and both convolution gradients on this project's WebAssembly SIMD kernels
 * (simd/conv-kernels.c; 2-3× XNNPACK plus the composed gradients on this network's shapes) where they cover
 * the shape, else builds the input gradient as an XNNPACK convolution (stock is a scalar loop) and the
 * filter gradient on the untransposed matmul; it also replaces transposed BatchMatMul (about 10× slower
 * than untransposed; large 2-D products run on the SIMD kernels) and gathers embedding rows on the heap.
 * `fast` also adds the app's fused kernels (batch-norm forward with ReLU and running statistics, its backward,
 * AdamW, global-norm gradient clipping, exact GELU and layer norm with their gradients; simd/fused-kernels.c),
 * which the engine uses only where they are registered, shares buffers on clone (Identity) instead of
 * copying them, and concatenates and splits float32 tensors on the heap.
 * @public
 */
export function installWasmKernels(set: WasmKernelSet): () => void {
  const stock = new Map<string, tf.KernelFunc>();
  for (const name of USED) {
    const k = tf.getKernel(name, BACKEND);
    if (k) stock.set(name, k.kernelFunc);
  }
  const fast = set === 'fast';
  const overrides: Array<[string, tf.KernelFunc]> = [
    [
      'Conv2DBackpropFilter',
      (a: KernelArgs) =>
        (fast && simdConv2dBackpropFilter(a)) ||
        withScratch(a, stock, (s) => conv2dBackpropFilter(s, a.inputs.x!, a.inputs.dy!, a.attrs ?? {}, fast)),
    ],
    [
      'UnsortedSegmentSum',
      (a: KernelArgs) => unsortedSegmentSum(heap(a), a.inputs.x!, a.inputs.segmentIds!, a.attrs ?? {}),
    ],
  ];
  if (fast) {
    overrides.push(['Conv2D', (a: KernelArgs) => simdConv2d(a) ?? (stock.get('Conv2D')!(a) as tf.TensorInfo)]);
    overrides.push([
      'Conv2DBackpropInput',
      (a: KernelArgs) =>
        simdConv2dBackpropInput(a) ??
        withScratch(
          a,
          stock,
          (s) =>
            conv2dBackpropInput(s, a.inputs.dy!, a.inputs.filter!, a.attrs ?? {}) ??
            stockCall(s, 'Conv2DBackpropInput', a),
        ),
    ]);
    overrides.push([
      'BatchMatMul',
      (a: KernelArgs) => simdBatchMatMul(a) ?? withScratch(a, stock, (s) => batchMatMul(s, a)),
    ]);
    overrides.push(['Identity', (a: KernelArgs) => sharedIdentity(a) ?? (stock.get('Identity')!(a) as tf.TensorInfo)]);
    overrides.push(['Concat', (a: KernelArgs) => simdConcat(a) ?? (stock.get('Concat')!(a) as tf.TensorInfo)]);
    overrides.push(['SplitV', (a: KernelArgs) => simdSplitV(a) ?? (stock.get('SplitV')!(a) as tf.TensorInfo[])]);
    overrides.push(
      [BATCH_NORM_TRAIN_KERNEL, simdBatchNormTrain],
      [BATCH_NORM_GRAD_KERNEL, simdBatchNormGrad],
      [ADAMW_KERNEL, simdAdamW],
      [CLIP_BY_GLOBAL_NORM_KERNEL, simdClipByGlobalNorm],
      [DROPOUT_MASK_KERNEL, simdDropoutMask],
      [GELU_KERNEL, simdGelu],
      [GELU_GRAD_KERNEL, simdGeluGrad],
      [LAYER_NORM_KERNEL, simdLayerNorm],
      [LAYER_NORM_GRAD_KERNEL, simdLayerNormGrad],
    );
    overrides.push([
      'GatherV2',
      (a: KernelArgs) =>
        withScratch(
          a,
          stock,
          (s) => gatherRows(heap(a), a.inputs.x!, a.inputs.indices!, a.attrs ?? {}) ?? stockCall(s, 'GatherV2', a),
        ),
    ]);
  }
  const previous = overrides.map(([name]) => tf.getKernel(name, BACKEND));
  overrides.forEach(([name, kernelFunc], i) => {
    if (previous[i]) tf.unregisterKernel(name, BACKEND);
    // The stock kernels bind their wasm exports in setupFunc at backend init: keep it.
    tf.registerKernel({ kernelName: name, backendName: BACKEND, kernelFunc, setupFunc: previous[i]?.setupFunc });
  });
  return () => {
    overrides.forEach(([name], i) => {
      tf.unregisterKernel(name, BACKEND);
      const p = previous[i];
      if (p) tf.registerKernel(p);
    });
  };
}

const heap = (a: KernelArgs) => a.backend as unknown as Parameters<typeof gatherRows>[0];

function stockCall(s: KernelScratch, name: string, a: KernelArgs): tf.TensorInfo {
  return s.run(name, a.inputs, a.attrs ?? {});
}

/** Transposed operands are transposed explicitly, then multiplied untransposed. */
function batchMatMul(s: KernelScratch, a: KernelArgs): tf.TensorInfo {
  const { transposeA, transposeB } = (a.attrs ?? {}) as { transposeA?: boolean; transposeB?: boolean };
  let x = a.inputs.a!;
  let y = a.inputs.b!;
  if (!transposeA && !transposeB) return stockCall(s, 'BatchMatMul', a);
  const swapLast = (t: tf.TensorInfo) => {
    const r = t.shape.length;
    return s.transpose(t, [...Array.from({ length: r - 2 }, (_, i) => i), r - 1, r - 2]);
  };
  if (transposeA) x = swapLast(x);
  if (transposeB) y = swapLast(y);
  return s.run('BatchMatMul', { a: x, b: y }, { transposeA: false, transposeB: false });
}
