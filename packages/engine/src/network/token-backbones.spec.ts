import '@tensorflow/tfjs-backend-cpu';
import * as tf from '@tensorflow/tfjs-core';
import { freezableGroupCount, type ModelPreset, type Stage, type VitSettings } from '@maou/bench-domain';
import { SeededRandom } from '../nn/seeded-random';
import { type MixerShape } from './network-presets';
import { ShogiNetwork } from './shogi-network';

// Parameter counts of maou's networks (HEAD b40d091), counted by real maou's constructors (`Network`,
// `HeadlessNetwork` + `ReachableSquaresHead` / `LegalMovesHead(hidden_dim=128)`, torch 2.13 CPU) and by hand:
//   stem: Embedding(256,32) 8,192 + Linear(14,32) 480 = 8,672.
//   mlp-mixer (E 256, token 128, channel 1024, depth 16): input_norm 128 + Linear(64,256) 16,640 + norm 512
//     + 16 blocks × (2 LayerNorm 1,024 + token MLP 81·128+128+128·81+81 = 20,945 + channel MLP
//     256·1024+1024+1024·256+256 = 525,568) = 8,777,872.
//   vit (D 512, 6 layers, 8 heads, ratio 4): token_projection 33,280 + positional 81·512 = 41,472 + norm 1,024
//     + 6 blocks × (2 LayerNorm 2,048 + qkv 787,968 + proj 262,656 + MLP 1,050,624 + 1,049,088) = 18,990,080.
//   heads on D features: Stage 3 policy D·1496+1496 and value D+1; Stage 1 D·81+81;
//   Stage 2 D·128+128 + 128·1496+1496.
// Freezing (maou's benchmark: freeze_except_last_n(n), then the hand projection) leaves the heads, and with n > 0
// the last n blocks and the output norm: vit n=1: 767,961 + 3,152,384 + 1,024 = 3,921,369.
const count = (
  preset: ModelPreset,
  stage: Stage,
  extra: { vit?: Partial<VitSettings>; mixer?: Partial<MixerShape> },
) => {
  const net = new ShogiNetwork({
    preset,
    stage,
    stage2HiddenDim: 128,
    stage2Dropout: 0,
    rng: new SeededRandom(3),
    ...extra,
  });
  const total = net.parameterCount();
  const trainable = (n: number | null) => net.trainableParameters(n).reduce((s, p) => s + p.variable.size, 0);
  const out = { total, frozen: trainable(0), lastOne: trainable(1), all: trainable(null) };
  net.dispose();
  return out;
};

describe("token backbones' parameters equal maou's", () => {
  beforeAll(() => tf.setBackend('cpu'));

  it.each([
    ['mlp-mixer', {}, [8_807_361, 9_012_424, 9_171_273], [384_729, 932_778]],
    ['vit', {}, [19_040_305, 19_257_400, 19_766_713], [767_961, 3_921_369]],
    [
      'vit',
      { vit: { embedDim: 256, numLayers: 4, numHeads: 4, mlpRatio: 2 } },
      [2_175_793, 2_380_856, 2_539_705],
      [384_729, 912_345],
    ],
    // a fractional ratio: the hidden width is int(64 · 1.5) = 96, as maou truncates
    [
      'vit',
      { vit: { embedDim: 64, numLayers: 1, numHeads: 2, mlpRatio: 1.5 } },
      [52_753, 248_792, 144_793],
      [97_305, 126_777],
    ],
    [
      'mlp-mixer',
      { mixer: { embedDim: 32, tokenDim: 16, channelDim: 64, depth: 2 } },
      [27_635, 222_170, 74_363],
      [49_401, 56_474],
    ],
  ] as const)(
    'given %s %j, then Stages 1, 2 and 3 count as maou, and Stage 3 trains as maou under freezing',
    (preset, extra, perStage, stage3Trainable) => {
      const stages = ([1, 2, 3] as Stage[]).map((stage) => count(preset, stage, extra));
      expect(stages.map((s) => s.total)).toEqual(perStage);
      expect([stages[2]!.frozen, stages[2]!.lastOne]).toEqual(stage3Trainable);
      expect(stages[2]!.all).toBe(perStage[2]);
    },
  );

  it('given resnet, then Stage 3 stays at 17,012,665 and freezing keeps only the heads (and layer4 with n=1)', () => {
    const resnet = count('resnet', 3, {});
    expect(resnet.total).toBe(17_012_665);
    // heads 3,065,304 + 2,049; layer4 10,502,144 (maou's ResNet has no output norm)
    expect(resnet.frozen).toBe(3_067_353);
    expect(resnet.lastOne).toBe(3_067_353 + 10_502_144);
  });

  it('given embed_dim not divisible by num_heads, then the network is refused with both values', () => {
    expect(() => count('vit', 3, { vit: { embedDim: 100, numHeads: 8 } })).toThrow(
      'embed_dim 100 must be divisible by num_heads 8',
    );
  });

  // The option check notes a --trainable-layers past freezableGroupCount as clamped: the network must agree.
  it.each([
    ['lite', {}, freezableGroupCount('lite')],
    ['mlp-mixer', {}, freezableGroupCount('mlp-mixer')],
    ['vit', { vit: { embedDim: 32, numLayers: 3, numHeads: 2, mlpRatio: 1 } }, freezableGroupCount('vit', 3)],
  ] as const)('given %s, then the domain counts its freezable groups as the network has them', (preset, extra, n) => {
    const net = new ShogiNetwork({
      preset,
      stage: 3,
      stage2HiddenDim: 0,
      stage2Dropout: 0,
      rng: new SeededRandom(3),
      ...extra,
    });
    const trainable = (k: number) => net.trainableParameters(k).reduce((s, p) => s + p.variable.size, 0);
    expect(trainable(n + 5)).toBe(trainable(n));
    expect(trainable(n - 1)).toBeLessThan(trainable(n));
    net.dispose();
  });
});
