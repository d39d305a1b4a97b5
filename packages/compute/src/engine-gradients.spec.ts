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

// Network + loss gradients on the real engine: wasm (fast kernels) against the cpu backend, and
// against central finite differences along the gradient direction, for every stage's head and loss.
function lossAndGrads(net: ShogiNetwork, stage: Stage, batch: HostBatch): { loss: number; grads: Float32Array[] } {
  const objective = createObjective(stage, { ...TRAINING, preset: 'lite' });
  const dev = uploadBatch(batch, 0, batch.size);
  const tape = new TapeRecorder();
  tape.begin();
  const loss = tf.tidy(() => objective.loss(net.apply(dev.inputs, true), dev));
  const grads = tape.backward(
    loss,
    net.store.parameters.map((p) => p.variable),
  );
  const out = { loss: loss.dataSync()[0], grads: grads.map((g) => g.dataSync() as Float32Array) };
  tf.dispose([loss, ...grads]);
  disposeDeviceBatch(dev);
  return out;
}

function lossAt(net: ShogiNetwork, stage: Stage, batch: HostBatch): number {
  const objective = createObjective(stage, TRAINING);
  const dev = uploadBatch(batch, 0, batch.size);
  const v = tf.tidy(() => objective.loss(net.apply(dev.inputs, true), dev).dataSync()[0]);
  disposeDeviceBatch(dev);
  return v;
}

const build = (stage: Stage) =>
  new ShogiNetwork({
    preset: 'lite',
    stage,
    stage2HiddenDim: TRAINING.stage2HiddenDim,
    stage2Dropout: 0,
    rng: new SeededRandom(11),
  });
const norm = (xs: Float32Array[]) => Math.sqrt(xs.reduce((s, a) => s + a.reduce((t, v) => t + v * v, 0), 0));

describe('engine gradients (lite network, every stage)', () => {
  const wasm = fastWasmBackend();
  beforeAll(wasm.setUp);
  afterAll(wasm.tearDown);

  it('Stage 3 gradients on wasm agree with the cpu backend', async () => {
    const batch = randomBatch(3, 1, 5);
    await tf.setBackend('cpu');
    const netCpu = build(3);
    const ref = lossAndGrads(netCpu, 3, batch);
    netCpu.dispose();
    await tf.setBackend('wasm');
    const net = build(3);
    const got = lossAndGrads(net, 3, batch);
    net.dispose();
    expect(got.loss).toBeCloseTo(ref.loss, 4);
    const diff = norm(got.grads.map((g, i) => g.map((v, j) => v - ref.grads[i][j])));
    expect(diff / norm(ref.grads)).toBeLessThan(1e-3);
  });

  it.each([3, 1, 2] as Stage[])('Stage %s gradients match central finite differences', (stage) => {
    const net = build(stage);
    const batch = randomBatch(stage, 4, 7);
    const { grads } = lossAndGrads(net, stage, batch);
    const params = net.store.parameters;
    // Embedding, a 1×1 and a 3×3 conv, a BN scale, the last conv and every head tensor.
    const picks = [
      0,
      1,
      3,
      4,
      6,
      params.length - 6,
      ...params.map((_, i) => i).slice(stage === 3 ? -4 : stage === 2 ? -4 : -2),
    ];
    const eps = 1e-3;
    for (const i of picks) {
      const p = params[i].variable;
      const g = grads[i];
      const gNorm = Math.sqrt(g.reduce((s, v) => s + v * v, 0));
      // Step ±eps along this tensor's unit gradient: the slope must equal its norm.
      const orig = p.clone();
      const dir = tf.tensor(
        g.map((v) => (v * eps) / gNorm),
        p.shape,
      );
      p.assign(tf.tidy(() => tf.add(orig, dir)));
      const up = lossAt(net, stage, batch);
      p.assign(tf.tidy(() => tf.sub(orig, dir)));
      const down = lossAt(net, stage, batch);
      p.assign(orig);
      tf.dispose([orig, dir]);
      expect(Math.abs((up - down) / (2 * eps) - gNorm) / gNorm).toBeLessThan(0.05);
    }
    net.dispose();
  });
});
