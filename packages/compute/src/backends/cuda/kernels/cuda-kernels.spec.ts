import { useNvrtc } from '@maou/bench-testkit/compute';
import { compileToPtx } from '../nvrtc';
import { CUDA_KERNEL_MODULES } from './cuda-kernels';

describe('the cuda backend kernels, compiled by the real NVRTC (no GPU needed)', () => {
  const nvrtc = useNvrtc();
  const maybe = nvrtc.available ? it : it.skip;
  if (!nvrtc.available) it('is skipped', () => console.warn(`NVRTC specs skipped: ${nvrtc.reason}`));

  it('holds every kernel the planned step needs beyond cuDNN and cuBLAS', () => {
    expect(Object.fromEntries(CUDA_KERNEL_MODULES.map((m) => [m.name, m.kernels]))).toEqual({
      'elementwise.cu': [
        'relu_forward',
        'relu_backward',
        'bias_add',
        'bias_grad',
        'dropout_mask',
        'cast_f32_f16',
        'cast_f16_f32',
        'cast_f32_bf16',
        'cast_bf16_f32',
      ],
      'loss.cu': ['stage3_loss', 'multi_label_loss', 'loss_total', 'scale_loss_gradients'],
      'optimizer.cu': ['gradient_norm_parts', 'adamw_update', 'sgd_update', 'loss_scale_update'],
      'network-ends.cu': [
        'stem_forward',
        'pool_forward',
        'pool_backward',
        'embedding_grad',
        'hand_grad',
        'gelu_forward',
        'gelu_backward',
      ],
    });
  });

  // Ampere (A100) and Hopper (H100, H200): the GPUs PyTorch users train on.
  describe.each(['compute_80', 'compute_90'])('for %s', (architecture) => {
    maybe.each(CUDA_KERNEL_MODULES.map((m) => [m.name, m] as const))(
      '%s compiles to PTX with an entry for each kernel and no warning',
      (_name, m) => {
        const { ptx, log } = compileToPtx(nvrtc.library, m.name, m.source, architecture);
        expect(log).toBe('');
        expect(ptx).toContain(`.target sm_${architecture.slice(-2)}`);
        const entries = [...ptx.matchAll(/\.visible \.entry (\w+)\(/g)].map((e) => e[1]);
        expect(entries.sort()).toEqual([...m.kernels].sort());
      },
    );
  });

  maybe('given CUDA C with an error, then the error names the program, the line and what is wrong', () => {
    const broken = `${CUDA_KERNEL_MODULES[0]!.source}\nextern "C" __global__ void broken(float *x) { x[0] = undefined_name; }`;
    expect(() => compileToPtx(nvrtc.library, 'broken.cu', broken, 'compute_90')).toThrow(
      /NVRTC could not compile broken\.cu for compute_90 \(NVRTC_ERROR_COMPILATION\):\nbroken\.cu\(\d+\): error: identifier "undefined_name" is undefined/,
    );
  });
});
