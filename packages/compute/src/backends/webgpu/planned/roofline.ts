import type { StepDescription } from './step-description';
import type { Dispatch } from './wgsl';

// Roofline inputs of the planned step: for each dispatch the floating-point operations its kernel executes and the
// bytes it must move to or from memory at least (each bound tensor once), so that a dispatch's GPU time gives its
// achieved FLOP/s and bytes/s, and which of the two peaks bounds it. Shapes come from the dispatch's own uniforms.

/** What one dispatch computes and moves. @public */
export interface KernelCost {
  /** operations as the kernel executes them: 2·M·N·K for a GEMM, an estimate per element for the rest */
  readonly flops: number;
  /** whether `flops` is exact (GEMMs and the stem) or an estimate per element (memory-bound kernels) */
  readonly exact: boolean;
  /** bytes read and written, each bound tensor once (f16 activations 2 bytes an element) */
  readonly bytes: number;
}

/**
 * Kind of a dispatch: its label without the layer's name ("layer2.0.2 filter grad" → "conv filter grad",
 * "layer2.0.2.bn input grad" → "bn input grad", "policy_head forward" → "dense forward").
 * @public
 */
export function kernelKind(label: string): string {
  const layer = /^layer\d+\.\d+\.(\d|shortcut)(\.bn)? (.*)$/.exec(label);
  if (layer) return layer[2] ? `bn ${layer[3]}` : layer[3] === 'conv' ? 'conv forward' : `conv ${layer[3]}`;
  return label.replace(
    /^(policy_head|value_head|legal_head(\.hidden|\.out)?|reachable_head|hand_projection) /,
    'dense ',
  );
}

/** Buffers shared by the whole step, of which a kernel touches only its layer's slice. */
const SLICED = new Set(['P', 'G', 'M', 'V', 'D', 'S', 'R']);

/** Operations per element of the non-GEMM kernels, by kind (read off their WGSL; order of magnitude only). */
const PER_ELEMENT: Readonly<Record<string, (u: Uniforms) => number>> = {
  'bn statistics': (u) => 8 * u.ROWS! * u.C!,
  'bn grad sums': (u) => 8 * u.ROWS! * u.C!,
  'bn grad sums split sum': (u) => 2 * u.ROWS! * u.C!,
  'bn input grad': (u) => (u.GOFFb === undefined ? 12 : 20) * u.TOTAL!,
  'conv filter grad split sum': (u) => u.SPLITS! * u.TOTAL!,
  'global average pool': (u) => 6 * u.TOTAL!,
  'global average pool grad': (u) => u.TOTAL!,
  'stage 3 loss': (u) => 12 * u.NB! * u.L!,
  'multi-label loss': (u) => 16 * u.COUNT!,
  'loss total': (u) => u.NB!,
  'loss scale': (u) => u.TOTAL!,
  'embedding grad': (u) => u.POS! * 32,
  'embedding grad split sum': (u) => u.SPLITS! * u.TOTAL!,
  'hand projection output grad': (u) => 81 * u.TOTAL!,
  'gradient norm': (u) => 2 * u.NP!,
  'adamw update': (u) => 16 * u.NP!,
  'sgd update': (u) => 8 * u.NP!,
  'loss scale update': () => 16,
};

type Uniforms = Readonly<Record<string, number | undefined>>;

/** Floats of the slice of a shared buffer (P, G, ...) that one dispatch reads or writes. */
function sliceFloats(kind: string, u: Uniforms, buffer: string): number {
  if (u.NP !== undefined) return u.NP; // optimiser and gradient norm: the whole flat buffer
  if (buffer === 'S' || buffer === 'R') return 4 * (u.C ?? u.XCH ?? 0); // a norm's statistics: a few floats a channel
  if (u.KS !== undefined) return u.KS * u.KS * u.CI! * u.CO!; // a convolution's filter
  if (u.IN !== undefined) return (u.IN + 1) * u.OUT!; // a dense layer's weight and bias
  if (u.C !== undefined) return 2 * u.C; // a norm's γ and β
  if (kind === 'stem') return u.HB! + 32; // embedding table, hand weight and bias (they are contiguous)
  if (u.EOFF !== undefined || u.SPLITS !== undefined) return u.TOTAL!; // embedding table; a split sum's filter or table
  throw new Error(`roofline: no slice rule for ${buffer} in kind "${kind}"`);
}

/** Operations and bytes of one dispatch of a step (see `KernelCost`). @public */
export function dispatchCost(d: Dispatch, step: Pick<StepDescription, 'buffers' | 'halfBuffers'>): KernelCost {
  const u: Uniforms = Object.fromEntries(d.uniforms.map((x) => [x.name, x.value]));
  const kind = kernelKind(d.label);
  let bytes = 0;
  for (const b of d.bindings) {
    if (SLICED.has(b.buffer)) bytes += 4 * sliceFloats(kind, u, b.buffer);
    else bytes += (step.halfBuffers.has(b.buffer) ? 2 : 4) * (step.buffers.get(b.buffer) ?? 0);
  }
  if (u.M !== undefined && u.N !== undefined && u.K !== undefined) {
    return { flops: 2 * u.M * u.N * u.K, exact: true, bytes };
  }
  // the hand projection, recomputed for each of the 81 squares of a board
  if (kind === 'stem') return { flops: 2 * (u.TOTAL! / 2) * 14, exact: true, bytes };
  const estimate = PER_ELEMENT[kind];
  if (!estimate) throw new Error(`roofline: no operation count for kind "${kind}" (${d.label})`);
  return { flops: estimate(u), exact: false, bytes };
}

/** Peak rates of a GPU, dense (no sparsity), from the vendor's data sheet. @public */
export interface GpuPeak {
  readonly name: string;
  /** FP32 on the CUDA cores (WebGPU has no tensor cores, so this bounds the planned step) */
  readonly fp32Tflops: number;
  /** FP16 on the tensor cores, dense (what PyTorch's AMP can reach) */
  readonly fp16TensorTflops: number;
  /** memory bandwidth, TB/s */
  readonly memoryTBps: number;
}

/** Data-sheet peaks, matched in order against the adapter's (or CUDA's) device name. */
const PEAKS: readonly (GpuPeak & { readonly match: RegExp })[] = [
  { match: /h100.*pcie/, name: 'H100 PCIe', fp32Tflops: 51.2, fp16TensorTflops: 756, memoryTBps: 2.0 },
  { match: /h100.*nvl/, name: 'H100 NVL', fp32Tflops: 60, fp16TensorTflops: 835, memoryTBps: 3.9 },
  { match: /h100/, name: 'H100 SXM5', fp32Tflops: 66.9, fp16TensorTflops: 989.4, memoryTBps: 3.35 },
  { match: /h200/, name: 'H200 SXM', fp32Tflops: 66.9, fp16TensorTflops: 989.4, memoryTBps: 4.8 },
  { match: /a100.*80/, name: 'A100 80GB SXM', fp32Tflops: 19.5, fp16TensorTflops: 312, memoryTBps: 2.04 },
  { match: /a100/, name: 'A100 40GB SXM', fp32Tflops: 19.5, fp16TensorTflops: 312, memoryTBps: 1.56 },
];

/** The data-sheet peaks of the GPU named `device` (Dawn's "nvidia-h100-80gb-hbm3", CUDA's "NVIDIA H100 80GB HBM3"), or null. @public */
export function gpuPeak(device: string): GpuPeak | null {
  const key = device.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  const found = PEAKS.find((p) => p.match.test(key));
  if (!found) return null;
  const { match: _match, ...peak } = found;
  return peak;
}
