import { STAGE_STRIDES, STEM } from '@maou/bench-engine';
import type { NetworkShape } from '@maou/bench-engine/contracts';
import {
  convFilterGrad,
  convGeometry,
  type Activation,
  type ConvShape,
  type DenseShape,
  NORM_STAT_ROWS,
  type NormShape,
} from './kernels';
import { EXPANSION, type FlatParameter, type PlanSettings, SPLIT_SIZES, type SplitSizes } from './step-settings';
import { type Dispatch, gemmTile } from './wgsl';

/** One bottleneck block: its convolutions and their batch norms (null: no projected shortcut). */
export interface Block {
  readonly prefix: string;
  readonly reduce: ConvShape;
  readonly spatial: ConvShape;
  readonly expand: ConvShape;
  readonly shortcut: ConvShape | null;
  readonly norms: Readonly<Record<'reduce' | 'spatial' | 'expand' | 'shortcut', NormShape | null>>;
}

/**
 * The step being planned: the dispatches so far, the buffers they name (in the order they were first named), the
 * parameters' offsets and the batch norms' running and statistics offsets. Each layer kind's planner adds to it.
 */
export class StepPlan {
  readonly dispatches: Dispatch[] = [];
  readonly buffers = new Map<string, number>();
  readonly offsets = new Map<string, number>();
  readonly runningOffsets = new Map<string, number>();
  readonly parameterFloats: number;
  runningFloats = 0;
  statsFloats = 0;
  /** activations stored as f16, with dynamic loss scaling */
  readonly scaled: boolean;
  readonly split: SplitSizes;

  constructor(
    readonly settings: PlanSettings,
    readonly batch: number,
    params: readonly FlatParameter[],
  ) {
    let floats = 0;
    for (const p of params) {
      this.offsets.set(p.name, floats);
      floats += p.size;
    }
    this.parameterFloats = floats;
    this.scaled = settings.activations === 'f16';
    this.split = { ...SPLIT_SIZES, ...settings.split };
  }

  push(...dispatches: Dispatch[]): void {
    this.dispatches.push(...dispatches);
  }

  off(name: string): number {
    const o = this.offsets.get(name);
    if (o === undefined) throw new Error(`planned step: no parameter ${name}`);
    return o;
  }

  buf(name: string, floats: number): string {
    this.buffers.set(name, floats);
    return name;
  }

  /** Floats of a convolution's output over the batch. */
  act(c: ConvShape): number {
    return this.batch * c.oh * c.oh * c.cout;
  }

  norm(name: string, channels: number): NormShape {
    this.runningOffsets.set(`${name}.bn`, this.runningFloats);
    const n = {
      name: `${name}.bn`,
      channels,
      gammaOff: this.off(`${name}.bn.weight`),
      betaOff: this.off(`${name}.bn.bias`),
      runningOff: this.runningFloats,
      statsOff: this.statsFloats,
    };
    this.runningFloats += 2 * channels;
    this.statsFloats += NORM_STAT_ROWS * channels;
    return n;
  }

  conv(name: string, cin: number, cout: number, k: number, stride: number, h: number): ConvShape {
    return { name, cin, cout, k, stride, h, ...convGeometry(h, k, stride), wOff: this.off(`${name}.conv.weight`) };
  }

  dense(name: string, inputs: number, outputs: number): DenseShape {
    return { name, inputs, outputs, wOff: this.off(`${name}.weight`), bOff: this.off(`${name}.bias`) };
  }

  /** A filter gradient, its K split over workgroups while each split keeps `minSplitRows` output pixels. */
  filterGrad(c: ConvShape, x: Activation, dz: string): void {
    const [m, n] = [c.k * c.k * c.cin, c.cout];
    const edge = gemmTile(m, n);
    const tiles = Math.ceil(m / edge) * Math.ceil(n / edge);
    const rows = Math.floor((this.batch * c.oh * c.oh) / this.split.minSplitRows);
    const splits = Math.max(1, Math.min(32, Math.ceil(256 / tiles), rows));
    const scratch = splits > 1 ? this.buf(`${c.name}.split`, splits * c.k * c.k * c.cin * c.cout) : '';
    this.push(...convFilterGrad(c, this.batch, x, dz, splits, scratch));
  }
}

/** The blocks in the engine's order of batch norms (their running buffers are created in that order). */
export function planTopology(p: StepPlan, shape: NetworkShape): { blocks: Block[]; channels: number } {
  const blocks: Block[] = [];
  let channels = STEM.embedding + STEM.hand;
  let h = 9;
  shape.blocks.forEach((count, stageIndex) => {
    const w = shape.widths[stageIndex]!;
    for (let i = 0; i < count; i++) {
      const stride = i === 0 ? STAGE_STRIDES[stageIndex]! : 1;
      const prefix = `layer${stageIndex + 1}.${i}`;
      const reduce = p.conv(`${prefix}.1`, channels, w, 1, 1, h);
      const spatial = p.conv(`${prefix}.2`, w, w, 3, stride, h);
      const expand = p.conv(`${prefix}.3`, w, w * EXPANSION, 1, 1, spatial.oh);
      const projected = stride !== 1 || channels !== w * EXPANSION;
      const shortcut = projected ? p.conv(`${prefix}.shortcut`, channels, w * EXPANSION, 1, stride, h) : null;
      const norms = {
        reduce: p.norm(`${prefix}.1`, w),
        spatial: p.norm(`${prefix}.2`, w),
        expand: p.norm(`${prefix}.3`, w * EXPANSION),
        shortcut: projected ? p.norm(`${prefix}.shortcut`, w * EXPANSION) : null,
      };
      blocks.push({ prefix, reduce, spatial, expand, shortcut, norms });
      channels = w * EXPANSION;
      h = spatial.oh;
    }
  });
  return { blocks, channels };
}
