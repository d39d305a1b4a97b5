import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-cpu';
import '@tensorflow/tfjs-backend-wasm';
import {
  createObjective,
  disposeDeviceBatch,
  SeededRandom,
  ShogiNetwork,
  TapeRecorder,
  uploadBatch,
} from '@maou/bench-engine';
import { type HostBatch, type Stage } from '@maou/bench-domain';
import { randomBatch, TRAINING, fastWasmBackend } from '@maou/bench-testkit/compute';

// MLP-Mixer and ViT (small widths, maou's layers) on the wasm backend with the fast kernels, against the cpu
// backend: loss and every gradient, every stage, dropout on (both draw its masks on the host from one hash, so they
// use the same). Then gradient checkpointing (same gradients, masks replayed) and freezing (the frozen
// parameters' gradients are never computed), and central finite differences with dropout off.
type Variant = {
  readonly preset: 'mlp-mixer' | 'vit';
  readonly dropout: number;
  readonly checkpointing?: boolean;
  readonly frozenBackbone?: boolean;
};

const build = (v: Variant, stage: Stage) =>
  new ShogiNetwork({
    preset: v.preset,
    stage,
    stage2HiddenDim: TRAINING.stage2HiddenDim,
    stage2Dropout: 0,
    rng: new SeededRandom(11),
    vit: { embedDim: 16, numLayers: 2, numHeads: 2, mlpRatio: 2, dropout: v.dropout },
    mixer: { embedDim: 16, tokenDim: 8, channelDim: 32, depth: 2, dropout: v.dropout },
    gradientCheckpointing: v.checkpointing,
    frozenBackbone: v.frozenBackbone,
  });

async function lossAndGrads(net: ShogiNetwork, stage: Stage, batch: HostBatch, trainable: number | null = null) {
  const objective = createObjective(stage, TRAINING);
  const dev = uploadBatch(batch, 0, batch.size);
  const params = net.trainableParameters(trainable);
  const tape = new TapeRecorder();
  tape.begin();
  const loss = tf.tidy(() => objective.loss(net.apply(dev.inputs, true), dev));
  let grads: tf.Tensor[] = [];
  const profile = await tf.profile(() => {
    grads = tape.backward(
      loss,
      params.map((p) => p.variable),
    );
    return grads;
  });
  const kernels = profile.kernels.length;
  const out = {
    loss: loss.dataSync()[0]!,
    names: params.map((p) => p.name),
    grads: grads.map((g) => g.dataSync() as Float32Array),
    kernels,
  };
  tf.dispose([loss, ...grads]);
  disposeDeviceBatch(dev);
  return out;
}

const norm = (xs: readonly Float32Array[]) => Math.sqrt(xs.reduce((s, a) => s + a.reduce((t, v) => t + v * v, 0), 0));
const relDiff = (a: readonly Float32Array[], b: readonly Float32Array[]) =>
  norm(a.map((g, i) => g.map((v, j) => v - b[i]![j]!))) / norm(b);

describe('token backbones train on wasm as on cpu', () => {
  const wasm = fastWasmBackend();
  beforeAll(wasm.setUp);
  afterAll(wasm.tearDown);

  it.each([
    ['mlp-mixer', 1],
    ['mlp-mixer', 2],
    ['mlp-mixer', 3],
    ['vit', 1],
    ['vit', 2],
    ['vit', 3],
  ] as const)('%s Stage %s: loss and every gradient on wasm agree with the cpu backend', async (preset, stage) => {
    const variant: Variant = { preset, dropout: 0.1 };
    const batch = randomBatch(stage, 3, 5);
    await tf.setBackend('cpu');
    const netCpu = build(variant, stage);
    const ref = await lossAndGrads(netCpu, stage, batch);
    netCpu.dispose();
    await tf.setBackend('wasm');
    const net = build(variant, stage);
    const got = await lossAndGrads(net, stage, batch);
    net.dispose();
    expect(got.loss).toBeCloseTo(ref.loss, 4);
    expect(got.grads.length).toBe(ref.grads.length);
    // every tensor on its own, so a small layer's gradient cannot hide behind a large one
    const off = got.grads
      .map((g, i) => [ref.names[i], relDiff([g], [ref.grads[i]!])] as const)
      .filter(([, d]) => !(d < 2e-3));
    expect(off).toEqual([]);
  });

  it.each(['mlp-mixer', 'vit'] as const)(
    '%s: the gradient matches central finite differences (dropout off)',
    async (preset) => {
      await tf.setBackend('wasm');
      const stage: Stage = 3;
      const net = build({ preset, dropout: 0 }, stage);
      const batch = randomBatch(stage, 2, 9);
      const { grads, names } = await lossAndGrads(net, stage, batch);
      const params = net.store.parameters;
      const objective = createObjective(stage, TRAINING);
      const lossAt = () => {
        const dev = uploadBatch(batch, 0, batch.size);
        const v = tf.tidy(() => objective.loss(net.apply(dev.inputs, true), dev).dataSync()[0]!);
        disposeDeviceBatch(dev);
        return v;
      };
      // a norm, the attention or token-mixing weights, an MLP weight, the output norm and the positional/embedding
      const picks = names
        .map((n, i) => [n, i] as const)
        .filter(([n]) =>
          /norm1\.weight|attn\.qkv\.weight|token_mlp\.fc1\.weight|mlp\.3\.weight|channel_mlp\.fc2\.weight|backbone\.norm\.bias|positional|backbone\.embedding\.weight/.test(
            n,
          ),
        )
        .map(([, i]) => i);
      expect(picks.length).toBeGreaterThanOrEqual(4);
      const eps = 1e-3;
      for (const i of picks) {
        const p = params[i]!.variable;
        const g = grads[i]!;
        const gNorm = norm([g]);
        const orig = p.clone();
        const dir = tf.tensor(
          g.map((v) => (v * eps) / gNorm),
          p.shape,
        );
        p.assign(tf.tidy(() => tf.add(orig, dir)));
        const up = lossAt();
        p.assign(tf.tidy(() => tf.sub(orig, dir)));
        const down = lossAt();
        p.assign(orig);
        tf.dispose([orig, dir]);
        expect([names[i], Math.abs((up - down) / (2 * eps) - gNorm) / gNorm < 0.05]).toEqual([names[i], true]);
      }
      net.dispose();
    },
  );

  it('vit with gradient checkpointing: the same loss and gradients, dropout masks replayed', async () => {
    await tf.setBackend('wasm');
    const batch = randomBatch(3, 3, 21);
    const plain = build({ preset: 'vit', dropout: 0.2 }, 3);
    const ref = await lossAndGrads(plain, 3, batch);
    plain.dispose();
    const ckpt = build({ preset: 'vit', dropout: 0.2, checkpointing: true }, 3);
    const got = await lossAndGrads(ckpt, 3, batch);
    ckpt.dispose();
    expect(got.loss).toBeCloseTo(ref.loss, 5);
    expect(relDiff(got.grads, ref.grads)).toBeLessThan(1e-5);
  });

  it.each(['mlp-mixer', 'vit'] as const)(
    '%s frozen to its last block: the trainable gradients equal the full ones, and backward runs fewer kernels',
    async (preset) => {
      await tf.setBackend('wasm');
      const batch = randomBatch(3, 3, 33);
      const net = build({ preset, dropout: 0 }, 3);
      const full = await lossAndGrads(net, 3, batch);
      const frozen = await lossAndGrads(net, 3, batch, 1);
      net.dispose();
      // maou's benchmark: the last block, the output norm and the heads; never the stem
      expect(
        frozen.names.filter(
          (n) => !/^(backbone\.(encoder|blocks)\.1\.|backbone\.norm\.|policy_head|value_head)/.test(n),
        ),
      ).toEqual([]);
      expect(frozen.names).toContain('backbone.norm.weight');
      const sameInFull = frozen.names.map((n) => full.grads[full.names.indexOf(n)]!);
      expect(relDiff(frozen.grads, sameInFull)).toBeLessThan(1e-6);
      expect(frozen.kernels).toBeLessThan(full.kernels);
    },
  );

  it.each(['mlp-mixer', 'vit'] as const)(
    "%s with --freeze-backbone: the heads get the full step's gradients, and the frozen layers keep no activations",
    async (preset) => {
      await tf.setBackend('wasm');
      const batch = randomBatch(3, 16, 41);
      const measure = async (frozenBackbone: boolean) => {
        const net = build({ preset, dropout: 0, frozenBackbone }, 3);
        let result: Awaited<ReturnType<typeof lossAndGrads>> | undefined;
        const info = await tf.profile(async () => {
          result = await lossAndGrads(net, 3, batch, 0);
          return [];
        });
        net.dispose();
        return { ...result!, peak: info.peakBytes };
      };
      const taped = await measure(false);
      const off = await measure(true);
      expect(off.names).toEqual(taped.names);
      expect(off.names.every((n) => /^(policy_head|value_head)/.test(n))).toBe(true);
      expect(off.loss).toBeCloseTo(taped.loss, 5);
      expect(relDiff(off.grads, taped.grads)).toBeLessThan(1e-6);
      expect(off.peak).toBeLessThan(taped.peak);
    },
  );
});
