import * as tf from '@tensorflow/tfjs-core';
import { createObjective, SeededRandom, ShogiNetwork, TapeRecorder, uploadBatch } from '@maou/bench-engine';
import type { TrainerOptions } from '@maou/bench-engine/contracts';
import type { HostBatch } from '@maou/bench-domain';

// The engine's own gradients of one batch (its tape, on whichever tfjs backend is active), and how far another
// implementation's flat gradient buffer is from them: shared by the planned-step specs and the GPU bench.

/** @public */
export interface EngineGradients {
  readonly loss: number;
  readonly grads: ReadonlyMap<string, Float32Array>;
  readonly running: readonly Float32Array[];
}

/** The mixer's widths and depth, narrower than maou's for specs (the benchmark has no flags for them). @public */
export type MixerOverrides = NonNullable<ConstructorParameters<typeof ShogiNetwork>[0]['mixer']>;

/**
 * The engine's loss, every parameter's gradient and the running statistics after one batch, on the active backend
 * (the ViT with `training.vit`, the mixer with `mixer`; dropout masks come from one seeded hash, on the device or
 * the host, so they are the same on every backend).
 * @public
 */
export async function engineGradients(
  o: TrainerOptions,
  batch: HostBatch,
  mixer?: MixerOverrides,
): Promise<EngineGradients> {
  const t = o.training;
  const net = new ShogiNetwork({
    preset: t.preset,
    shape: o.networkShape,
    stage: o.stage,
    stage2HiddenDim: t.stage2HiddenDim,
    stage2Dropout: 0,
    rng: new SeededRandom(o.seed),
    vit: t.vit,
    mixer,
  });
  const dev = uploadBatch(batch, 0, batch.size);
  const tape = new TapeRecorder();
  tape.begin();
  const out = net.apply(dev.inputs, true);
  const loss = createObjective(o.stage, t).loss(out, dev);
  const grads = tape.backward(
    loss,
    net.store.parameters.map((p) => p.variable),
  );
  const result = {
    loss: (await loss.data())[0]!,
    grads: new Map(
      await Promise.all(
        net.store.parameters.map(async (p, i) => [p.name, (await grads[i]!.data()) as Float32Array] as const),
      ),
    ),
    running: await Promise.all(net.store.buffers.map(async (b) => (await b.data()) as Float32Array)),
  };
  tf.dispose([...grads, loss, out.logits, out.value ?? []]);
  net.dispose();
  return result;
}

/**
 * For each parameter, the largest difference between its gradient in `flat` (at its offset) and the engine's,
 * over the largest magnitude of the engine's. Gradients that are zero in exact arithmetic (the hand bias: a
 * per-channel constant that the next batch norms remove) are float32 noise in both, so the scale has a floor of
 * 1e-4 of the largest gradient of any parameter.
 * @public
 */
export function gradientErrors(
  want: EngineGradients,
  flat: Float32Array,
  offsets: ReadonlyMap<string, number>,
): { name: string; err: number }[] {
  const largest = (g: Float32Array) => g.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  const floor = 1e-4 * Math.max(...[...want.grads.values()].map(largest));
  return [...want.grads].map(([name, g]) => {
    const got = flat.subarray(offsets.get(name)!, offsets.get(name)! + g.length);
    const diff = g.reduce((m, v, j) => Math.max(m, Math.abs(v - got[j]!)), 0);
    return { name, err: diff / Math.max(largest(g), floor) };
  });
}

/**
 * For each parameter, the relative L2 error of its gradient in `flat` against the engine's, the measure of
 * mixed-precision.spec (f16 activations round every stored value, so a largest-element bound says little). Tensors
 * whose gradient is zero in exact arithmetic get a floor of 1e-3 of the largest tensor's norm.
 * @public
 */
export function gradientL2Errors(
  want: EngineGradients,
  flat: Float32Array,
  offsets: ReadonlyMap<string, number>,
): { name: string; err: number }[] {
  const tensors = [...want.grads].map(([name, g]) => {
    const o = offsets.get(name)!;
    let [norm, diff] = [0, 0];
    g.forEach((v, j) => {
      norm += v * v;
      diff += (v - flat[o + j]!) ** 2;
    });
    return { name, norm: Math.sqrt(norm), diff: Math.sqrt(diff) };
  });
  const floor = 1e-3 * Math.max(...tensors.map((t) => t.norm));
  return tensors.map((t) => ({ name: t.name, err: t.diff / Math.max(t.norm, floor) }));
}
