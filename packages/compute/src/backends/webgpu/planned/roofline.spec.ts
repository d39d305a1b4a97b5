import { TRAINING } from '@maou/bench-testkit/compute';
import { planSettings } from './planned-trainer';
import { dispatchCost, gpuPeak, kernelKind } from './roofline';
import { describeStep } from './step-description';

const plan = (preset: 'lite' | 'resnet', stage: 1 | 2 | 3, batch: number, mixedPrecision = false) =>
  describeStep(
    planSettings({
      stage,
      training: { ...TRAINING, preset, mixedPrecision, stage2HiddenDim: 512 },
      totalSteps: 1,
      seed: 1,
    }),
    batch,
  );

/** Total executed FLOPs of the dispatches of one kind. */
const flopsOf = (step: ReturnType<typeof plan>, kind: string) =>
  step.dispatches.filter((d) => kernelKind(d.label) === kind).reduce((s, d) => s + dispatchCost(d, step).flops, 0);

describe('roofline model of the planned step (no GPU needed)', () => {
  // shared/DESIGN.md: multiply-adds of one forward pass per sample at Stage 3, as PyTorch's hooks count them
  it.each([
    ['resnet', 103_152_064],
    ['lite', 11_519_872],
  ] as const)(
    '%s Stage 3: the forward GEMMs plus the hand projection are %i multiply-adds a sample',
    (preset, macs) => {
      for (const batch of [4, 256, 1024]) {
        const step = plan(preset, 3, batch);
        const forward = step.dispatches.slice(0, step.phaseStarts.loss);
        const gemmMacs = forward
          .filter((d) => d.uniforms.some((u) => u.name === 'K'))
          .reduce((s, d) => s + dispatchCost(d, step).flops / 2, 0);
        // the stem's hand projection: 14 → 32 once per board (the kernel recomputes it on each of the 81 squares)
        expect(gemmMacs / batch + 14 * 32).toBe(macs);
      }
    },
  );

  it.each(['lite', 'resnet'] as const)(
    '%s: the filter gradients execute as many FLOPs as the convolutions; strided input gradients more',
    (preset) => {
      const step = plan(preset, 3, 256);
      expect(flopsOf(step, 'conv filter grad')).toBe(flopsOf(step, 'conv forward'));
      // the input gradient's GEMM runs over every input pixel and tap, also the taps a stride skips
      expect(flopsOf(step, 'conv input grad')).toBeGreaterThan(flopsOf(step, 'conv forward'));
    },
  );

  it('bytes: f16 activations halve the activation traffic of a convolution, not its filter', () => {
    const f32 = plan('resnet', 3, 256);
    const f16 = plan('resnet', 3, 256, true);
    const conv = (s: typeof f32) => s.dispatches.find((d) => d.label === 'layer2.0.2 conv')!;
    const a = dispatchCost(conv(f32), f32);
    const b = dispatchCost(conv(f16), f16);
    // layer2.0.2: 3×3, 128 → 128, stride 2, 9×9 → 5×5; f32 input 256·81·128 and output 256·25·128 floats
    const filter = 4 * 9 * 128 * 128;
    const stats = 4 * 2 * 128 * Math.ceil((256 * 25) / 64);
    const norm = 4 * 4 * 128;
    expect(a.bytes).toBe(4 * 256 * 81 * 128 + 4 * 256 * 25 * 128 + filter + stats + norm);
    expect(b.bytes).toBe(2 * 256 * 81 * 128 + 2 * 256 * 25 * 128 + filter + stats + norm);
    expect(a.flops).toBe(2 * 256 * 25 * 128 * 9 * 128);
  });

  it('every dispatch of both presets, all stages and both precisions has a cost', () => {
    for (const preset of ['lite', 'resnet'] as const)
      for (const stage of [1, 2, 3] as const)
        for (const mixed of [false, true]) {
          const step = plan(preset, stage, 256, mixed);
          for (const d of step.dispatches) {
            const c = dispatchCost(d, step);
            expect([d.label, c.flops > 0 && c.bytes > 0]).toEqual([d.label, true]);
          }
        }
  });

  it('peaks are looked up by the adapter name Dawn reports and by the name CUDA reports', () => {
    expect(gpuPeak('nvidia-h100-80gb-hbm3')?.name).toBe('H100 SXM5');
    expect(gpuPeak('NVIDIA H100 80GB HBM3')?.fp32Tflops).toBe(66.9);
    expect(gpuPeak('NVIDIA H100 PCIe')?.name).toBe('H100 PCIe');
    expect(gpuPeak('NVIDIA H200')?.memoryTBps).toBe(4.8);
    expect(gpuPeak('llvmpipe (LLVM 19.1.7, 256 bits)')).toBeNull();
  });
});
