import * as tf from '@tensorflow/tfjs-core';
import { type SeededRandom } from './seeded-random';

let storeCounter = 0;

/** A trainable tensor; `decay` says whether weight decay applies (maou: not on biases and norm layers). @public */
export interface Parameter {
  readonly name: string;
  readonly variable: tf.Variable;
  readonly decay: boolean;
}

/**
 * Owns every variable of one network: trainable parameters and batch-norm running statistics.
 * Initialisation follows PyTorch's defaults, which maou keeps: conv/linear weights and linear biases
 * U(±1/sqrt(fan_in)) (kaiming-uniform with a=√5), embeddings N(0,1), BN γ=1 β=0, running mean 0 / var 1.
 * @public
 */
export class ParameterStore {
  readonly parameters: Parameter[] = [];
  readonly buffers: tf.Variable[] = [];
  private nextId = 0;
  private readonly storeId = storeCounter++;

  constructor(private readonly rng: SeededRandom) {}

  /** Weight with torch's kaiming-uniform bound 1/sqrt(fanIn); shape is tfjs layout (HWIO or [in, out]). */
  weight(name: string, shape: number[], fanIn: number): tf.Variable {
    const n = shape.reduce((a, b) => a * b, 1);
    return this.add(name, tf.tensor(this.rng.uniformArray(n, 1 / Math.sqrt(fanIn)), shape), true);
  }

  bias(name: string, size: number, fanIn: number): tf.Variable {
    return this.add(name, tf.tensor1d(this.rng.uniformArray(size, 1 / Math.sqrt(fanIn))), false);
  }

  embedding(name: string, rows: number, dim: number): tf.Variable {
    return this.add(name, tf.tensor2d(this.rng.normalArray(rows * dim), [rows, dim]), true);
  }

  /** torch's trunc_normal_(std) (cut at ±2, i.e. far beyond ±2·std for small std: a plain normal here). */
  normal(name: string, shape: number[], std: number): tf.Variable {
    const n = shape.reduce((a, b) => a * b, 1);
    return this.add(
      name,
      tf.tensor(
        this.rng.normalArray(n).map((v) => v * std),
        shape,
      ),
      true,
    );
  }

  /** A zero bias (maou's ViT initialises its token projection's bias so). */
  zeros(name: string, size: number): tf.Variable {
    return this.add(name, tf.zeros([size]), false);
  }

  /** The parameters `build` adds, in order (a freezable group of layers). */
  collect(build: () => void): Parameter[] {
    const start = this.parameters.length;
    build();
    return this.parameters.slice(start);
  }

  /** Norm-layer scale or shift: never decayed. */
  norm(name: string, size: number, value: number): tf.Variable {
    return this.add(name, tf.fill([size], value), false);
  }

  /** Non-trainable state such as BN running statistics. */
  buffer(name: string, size: number, value: number): tf.Variable {
    // tidy frees the initial tensor; the variable keeps its own reference to the data.
    const v = tf.tidy(() => tf.variable(tf.fill([size], value), false, `${name}#${this.uid()}`));
    this.buffers.push(v);
    return v;
  }

  count(): number {
    return this.parameters.reduce((s, p) => s + p.variable.size, 0);
  }

  dispose(): void {
    for (const p of this.parameters) p.variable.dispose();
    for (const b of this.buffers) b.dispose();
  }

  private add(name: string, init: tf.Tensor, decay: boolean): tf.Variable {
    const variable = tf.variable(init, true, `${name}#${this.uid()}`);
    init.dispose();
    this.parameters.push({ name, variable, decay });
    return variable;
  }

  // Variable names are global in tfjs; a per-store prefix lets several networks live in one process.
  private uid(): string {
    return `${this.storeId}.${this.nextId++}`;
  }
}
