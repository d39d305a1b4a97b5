import * as tf from '@tensorflow/tfjs-core';
import { registerEngineGradients } from '../gradients/register-gradients';

/** The parts of a tfjs tape node this module reads (tfjs-core 4.x `TapeNode`). */
interface TapeNode {
  readonly kernelName: string;
  readonly inputs: Readonly<Record<string, tf.Tensor>>;
  readonly outputs: readonly tf.Tensor[];
  readonly gradient?: (dys: tf.Tensor[]) => Record<string, () => tf.Tensor>;
  readonly saved?: readonly tf.Tensor[];
}

/** The tfjs engine internals behind `tf.grads`: a global tape switched on by `startTape`. */
interface EngineInternals {
  readonly state: { activeTape: TapeNode[] | null; gradientDepth: number };
  startTape(): void;
  endTape(): void;
}

/**
 * Reverse-mode differentiation split into phases that can be awaited one by one.
 *
 * Why not `tf.variableGrads`: it runs forward and backward in one synchronous call, so a backend that
 * computes asynchronously (WebGPU) cannot be timed per phase, and running the forward pass a second
 * time to time it would be dishonest. So this drives tfjs's own tape (the engine's `startTape`/`endTape`
 * and the nodes it records, the same machinery `engine.gradients` uses) and walks it backwards itself.
 * Ops between `begin()` and `end()` are recorded; `backward()` returns d loss / d each variable.
 * While walking, each node's saved tensors and consumed gradients are freed at once, which lowers the
 * peak memory below tfjs's (it keeps them to the end of the backward pass).
 * @public
 */
export class TapeRecorder {
  private readonly engine = tf.engine() as unknown as EngineInternals;
  private recording = false;

  constructor() {
    registerEngineGradients();
  }

  begin(): void {
    if (this.engine.state.gradientDepth !== 0) throw new Error('TapeRecorder: another gradient computation is running');
    this.engine.startTape();
    this.recording = true;
  }

  end(): void {
    if (this.recording) this.engine.endTape();
    this.recording = false;
  }

  /** Gradients of `y` with respect to `xs` (zeros where `y` does not depend on one); clears the tape. */
  backward(y: tf.Scalar, xs: readonly tf.Variable[]): tf.Tensor[] {
    this.end();
    const tape = this.engine.state.activeTape ?? [];
    try {
      return tf.tidy(() => walkBackwards(tape, y, xs));
    } finally {
      // A gradient node that differentiates on its own (gradient checkpointing) replaces the engine's tape.
      this.clear(tape);
    }
  }

  /** Drops the recorded tape (also after an error). */
  clear(tape: readonly TapeNode[] = this.engine.state.activeTape ?? []): void {
    this.end();
    for (const node of tape) for (const t of node.saved ?? []) t.dispose();
    this.engine.state.activeTape = null;
  }
}

function walkBackwards(tape: readonly TapeNode[], y: tf.Scalar, xs: readonly tf.Variable[]): tf.Tensor[] {
  // Tensors that depend on some x, in recording order.
  const fromX = new Set<number>(xs.map((x) => x.id));
  const live: boolean[] = tape.map((node) => {
    const hit = Object.values(node.inputs).some((t) => fromX.has(t.id));
    if (hit) for (const o of node.outputs) fromX.add(o.id);
    return hit;
  });
  const grads = new Map<number, tf.Tensor>([[y.id, tf.onesLike(y)]]);
  for (let i = tape.length - 1; i >= 0; i--) {
    const node = tape[i];
    if (!live[i] || !node.outputs.some((o) => grads.has(o.id))) continue;
    if (!node.gradient) throw new Error(`no gradient registered for kernel ${node.kernelName}`);
    const names = Object.keys(node.inputs).filter((name) => fromX.has(node.inputs[name].id));
    const dys = node.outputs.map((o) => grads.get(o.id) ?? null) as tf.Tensor[];
    const dxs = tf.tidy(() => {
      const fns = node.gradient!(dys);
      const out: tf.Tensor[] = [];
      // Gradient functions may hand back dy itself, or one tensor for two inputs (Add): each input's
      // gradient must own its tensor, since it is freed on its own schedule (a clone shares the data).
      for (const name of names) {
        const dx = fns[name]();
        out.push(dys.includes(dx) || out.includes(dx) ? tf.clone(dx) : dx);
      }
      return out;
    });
    for (const o of node.outputs) {
      grads.get(o.id)?.dispose();
      grads.delete(o.id);
    }
    for (const t of node.saved ?? []) t.dispose();
    names.forEach((name, k) => accumulate(grads, node.inputs[name], dxs[k]));
  }
  return xs.map((x) => grads.get(x.id) ?? tf.zerosLike(x));
}

function accumulate(grads: Map<number, tf.Tensor>, x: tf.Tensor, dx: tf.Tensor): void {
  if (dx.dtype !== 'float32') throw new Error(`gradient of a ${x.dtype} input is ${dx.dtype}`);
  const prev = grads.get(x.id);
  if (!prev) {
    grads.set(x.id, dx);
    return;
  }
  grads.set(x.id, tf.add(prev, dx));
  prev.dispose();
  dx.dispose();
}
