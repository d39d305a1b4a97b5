import { type StepDescription } from '../../webgpu/planned/step-description';
import { kernelKind } from '../../webgpu/planned/roofline';
import { type Dispatch } from '../../webgpu/planned/wgsl';
import { type ConvLayer } from '../route/conv-layers';

/** cuDNN's fused batch-norm variants (its `*Ex` calls' ops): what follows the norm in the block. @public */
export type NormOps = 'bn' | 'bn+relu' | 'bn+add+relu';

/** One library call of the cuda step, in order; captured once into a CUDA Graph and replayed. @public */
export type CudaCall =
  | {
      readonly library: 'cudnn';
      readonly op: 'convolution forward' | 'convolution backward data' | 'convolution backward filter';
      readonly layer: string;
      readonly conv: ConvLayer;
      /** backward data adds into its output (beta 1): the skip connection's gradient is already there */
      readonly accumulate: boolean;
    }
  | {
      readonly library: 'cudnn';
      readonly op: 'batch norm forward training' | 'batch norm backward';
      readonly layer: string;
      readonly channels: number;
      readonly ops: NormOps;
    }
  | {
      readonly library: 'cublasLt';
      readonly op: 'matmul';
      readonly layer: string;
      /** the dense layer's pass */
      readonly pass: 'forward' | 'weight grad' | 'input grad';
      readonly m: number;
      readonly n: number;
      readonly k: number;
      /** forward: add the bias in the epilogue; input grad: add `addend` (beta 1) */
      readonly epilogue: 'bias' | 'accumulate' | 'none';
    }
  | { readonly library: 'nvrtc'; readonly kernel: string; readonly layer: string };

const uniforms = (d: Dispatch): Record<string, number> => Object.fromEntries(d.uniforms.map((u) => [u.name, u.value]));
const binds = (d: Dispatch, name: string): boolean => d.bindings.some((b) => b.name === name);
/** `layer1.0.3 conv` → `layer1.0.3`; `policy_head forward` → `policy_head`; `stem` → `stem`. */
const layerOf = (label: string): string => label.split(' ')[0]!.replace(/\.bn$/, '');

/** What follows a block's norm: the expand conv's norm adds the residual and applies ReLU, a shortcut's neither. */
const normOps = (layer: string): NormOps =>
  layer.endsWith('.shortcut') ? 'bn' : layer.endsWith('.3') ? 'bn+add+relu' : 'bn+relu';

const conv = (d: Dispatch): ConvLayer => {
  const u = uniforms(d);
  return { batch: u.NB!, h: u.H!, cin: u.CI!, cout: u.CO!, k: u.KS!, stride: u.S!, pad: u.PAD!, oh: u.OH! };
};

const nvrtc =
  (kernel: string) =>
  (d: Dispatch): CudaCall[] => [{ library: 'nvrtc', kernel, layer: layerOf(d.label) }];
const none = (): CudaCall[] => [];

/** Each dispatch kind of the planned step (`kernelKind`) and the calls it becomes. */
const BY_KIND: Readonly<Record<string, (d: Dispatch) => CudaCall[]>> = {
  stem: nvrtc('stem_forward'),
  'conv forward': (d) => [
    { library: 'cudnn', op: 'convolution forward', layer: layerOf(d.label), conv: conv(d), accumulate: false },
  ],
  // cuDNN's training batch norm computes the statistics and applies them (with the residual and ReLU where the block
  // has them), where the WGSL step reduces in the convolution's epilogue and normalises as the next layer loads
  'bn statistics': (d) => {
    const layer = layerOf(d.label);
    return [
      { library: 'cudnn', op: 'batch norm forward training', layer, channels: uniforms(d).C!, ops: normOps(layer) },
    ];
  },
  'global average pool': nvrtc('pool_forward'),
  'dense forward': (d) => {
    const u = uniforms(d);
    const layer = layerOf(d.label);
    const matmul: CudaCall = {
      library: 'cublasLt',
      op: 'matmul',
      layer,
      pass: 'forward',
      m: u.M!,
      n: u.N!,
      k: u.K!,
      epilogue: 'bias',
    };
    return binds(d, 'pre') ? [matmul, { library: 'nvrtc', kernel: 'gelu_forward', layer }] : [matmul];
  },
  'stage 3 loss': nvrtc('stage3_loss'),
  'multi-label loss': nvrtc('multi_label_loss'),
  'loss total': nvrtc('loss_total'),
  'loss scale': nvrtc('scale_loss_gradients'),
  'dense weight grad': (d) => {
    const u = uniforms(d);
    const layer = layerOf(d.label);
    // the WGSL kernel's M row IN is the bias: cuBLASLt takes the weight, a column sum the bias
    return [
      { library: 'cublasLt', op: 'matmul', layer, pass: 'weight grad', m: u.IN!, n: u.N!, k: u.K!, epilogue: 'none' },
      { library: 'nvrtc', kernel: 'bias_grad', layer },
    ];
  },
  'dense input grad': (d) => {
    const u = uniforms(d);
    const layer = layerOf(d.label);
    const epilogue = binds(d, 'addend') ? 'accumulate' : 'none';
    const matmul: CudaCall = {
      library: 'cublasLt',
      op: 'matmul',
      layer,
      pass: 'input grad',
      m: u.M!,
      n: u.N!,
      k: u.K!,
      epilogue,
    };
    return binds(d, 'pre') ? [matmul, { library: 'nvrtc', kernel: 'gelu_backward', layer }] : [matmul];
  },
  'global average pool grad': nvrtc('pool_backward'),
  'bn grad sums': (d) => {
    const layer = layerOf(d.label);
    return [{ library: 'cudnn', op: 'batch norm backward', layer, channels: uniforms(d).C!, ops: normOps(layer) }];
  },
  // cuDNN's batch-norm backward gives the input gradient (and the residual's) with the parameter gradients
  'bn grad sums split sum': none,
  'bn input grad': none,
  'conv filter grad': (d) => [
    { library: 'cudnn', op: 'convolution backward filter', layer: layerOf(d.label), conv: conv(d), accumulate: false },
  ],
  'conv filter grad split sum': none,
  'conv input grad': (d) => [
    {
      library: 'cudnn',
      op: 'convolution backward data',
      layer: layerOf(d.label),
      conv: conv(d),
      accumulate: binds(d, 'addend'),
    },
  ],
  'embedding grad': nvrtc('embedding_grad'),
  'embedding grad split sum': none,
  'hand projection output grad': nvrtc('hand_grad'),
  'gradient norm': nvrtc('gradient_norm_parts'),
  'adamw update': nvrtc('adamw_update'),
  'sgd update': nvrtc('sgd_update'),
  'loss scale update': nvrtc('loss_scale_update'),
};

/**
 * The planned step (the description the webgpu backend runs) as the cuda backend's calls, in order: convolutions and
 * batch norm to cuDNN, dense layers to cuBLASLt, the rest to its NVRTC kernels; the WGSL step's split sums and its
 * separate norm-gradient passes fold into cuDNN's calls. A dispatch of a kind with no mapping is refused by name.
 * @public
 */
export function planCudaCalls(step: Pick<StepDescription, 'dispatches'>): CudaCall[] {
  return step.dispatches.flatMap((d) => {
    const kind = kernelKind(d.label);
    const map = BY_KIND[kind];
    if (!map) throw new Error(`cuda step: no call for the dispatch '${d.label}' (kind '${kind}')`);
    return map(d);
  });
}
