import { describeStep, flatParameters, type PlanSettings } from '../../webgpu/planned/step-description';
import { CUDA_KERNEL_MODULES } from '../kernels/cuda-kernels';
import { planCudaCalls } from './step-calls';

const settings = (
  preset: 'lite' | 'resnet',
  stage: 1 | 2 | 3,
  o: { optimizer?: 'adamw' | 'sgd'; hidden?: number; f16?: boolean } = {},
): PlanSettings => ({
  preset,
  stage,
  stage2HiddenDim: o.hidden ?? 0,
  policyLossRatio: 1,
  valueLossRatio: 0.7,
  stage1PosWeight: 2,
  stage2: { posWeight: 1, gammaPos: 1, gammaNeg: 2, clip: 0.05 },
  update: {
    optimizer: o.optimizer ?? 'adamw',
    beta1: 0.9,
    beta2: 0.999,
    eps: 1e-8,
    weightDecay: 0.01,
    momentum: 0.9,
    clip: 1,
  },
  activations: o.f16 ? 'f16' : 'f32',
});

const kernels = new Set(CUDA_KERNEL_MODULES.flatMap((m) => m.kernels));

describe('the cuda step as calls, mapped from the planned step description (no GPU needed)', () => {
  const cases = (['lite', 'resnet'] as const).flatMap((preset) =>
    ([1, 2, 3] as const).flatMap((stage) =>
      [{}, { optimizer: 'sgd' as const }, { hidden: 16 }, { f16: true }].map((o) => [preset, stage, o] as const),
    ),
  );

  it.each(cases)('%s Stage %d %j: every dispatch maps, and every NVRTC kernel it names exists', (preset, stage, o) => {
    const calls = planCudaCalls(describeStep(settings(preset, stage, o), 256));
    const missing = calls.flatMap((c) => (c.library === 'nvrtc' && !kernels.has(c.kernel) ? [c.kernel] : []));
    expect(missing).toEqual([]);
  });

  it('lite Stage 3: three cuDNN convolutions and two batch-norm calls per conv layer, seven matmuls, fused ops by role', () => {
    const calls = planCudaCalls(describeStep(settings('lite', 3), 1024));
    const convLayers = flatParameters('lite', 3, 0)
      .filter((p) => p.name.endsWith('.conv.weight'))
      .map((p) => p.name.replace(/\.conv\.weight$/, ''));
    const count = (op: string) => calls.filter((c) => 'op' in c && c.op === op).length;
    expect(
      [
        'convolution forward',
        'convolution backward data',
        'convolution backward filter',
        'batch norm forward training',
        'batch norm backward',
      ].map(count),
    ).toEqual(Array(5).fill(convLayers.length));
    // policy and value heads: forward, weight grad, input grad; the hand projection: its weight grad
    expect(calls.filter((c) => c.library === 'cublasLt').map((c) => `${c.layer} ${'pass' in c ? c.pass : ''}`)).toEqual(
      [
        'policy_head forward',
        'value_head forward',
        'policy_head weight grad',
        'value_head weight grad',
        'value_head input grad',
        'policy_head input grad',
        'hand_projection weight grad',
      ],
    );
    const ops = (layer: string) =>
      calls.flatMap((c) =>
        c.library === 'cudnn' && c.op === 'batch norm forward training' && c.layer === layer ? [c.ops] : [],
      );
    expect(['layer1.0.1', 'layer1.0.2', 'layer1.0.3', 'layer1.0.shortcut'].map(ops)).toEqual([
      ['bn+relu'],
      ['bn+relu'],
      ['bn+add+relu'],
      ['bn'],
    ]);
    // a block's first convolution adds its data gradient onto the skip connection's; the others write theirs;
    const accumulating = calls
      .filter((c) => c.library === 'cudnn' && 'accumulate' in c && c.accumulate)
      .map((c) => c.layer);
    expect(accumulating.every((l) => l.endsWith('.1'))).toBe(true);
    // every block's input also feeds its skip: the shortcut's data gradient or the identity's
    expect(accumulating.length).toBe(convLayers.filter((l) => l.endsWith('.1')).length);
  });

  it('refuses a dispatch of a kind it has no call for, naming it', () => {
    const odd = { label: 'layer9.0.1 mystery', code: '', bindings: [], uniforms: [], workgroups: [1, 1, 1] as const };
    expect(() => planCudaCalls({ dispatches: [odd] })).toThrow(
      "cuda step: no call for the dispatch 'layer9.0.1 mystery' (kind 'conv mystery')",
    );
  });
});
