import type { WebgpuUtil } from './filter-im2col.program';
import { GELU } from './planned/wgsl';

// WGSL programs for tfjs-backend-webgpu (its WebGPUProgram shape: one output per dispatch) behind the engine's fused
// GELU, layer-norm, AdamW, clipping and dropout-mask kernels. Row reductions give each row one workgroup; nothing
// branches around a barrier (the row guard only shortens loops), so every barrier stays in uniform control flow even
// where tfjs spreads a long dispatch over two dimensions and adds workgroups past the last row.

type Triple = [number, number, number];

/** Invocations per row in the row programs. */
const ROW_GROUP = 64;
/** The column sums: columns per workgroup × row lanes each column is split over. */
const COLUMNS = 32;
const LANES = 8;

// The sum of every invocation's v, returned to all of them (a tree in workgroup memory).
const WORKGROUP_SUM = `
  var<workgroup> maouPartial : array<f32, ${ROW_GROUP}>;
  fn maouWorkgroupSum(v : f32) -> f32 {
    maouPartial[localIndex] = v;
    workgroupBarrier();
    for (var stride = ${ROW_GROUP / 2}u; stride > 0u; stride = stride / 2u) {
      if (localIndex < stride) {
        maouPartial[localIndex] = maouPartial[localIndex] + maouPartial[localIndex + stride];
      }
      workgroupBarrier();
    }
    let total = maouPartial[0];
    workgroupBarrier();
    return total;
  }`;

// Row `row` of the dispatch, its first element and how many channels this invocation walks (0 past the last row).
const ROW_PROLOGUE = `
    let row = index / ${ROW_GROUP};
    let n = select(0, uniforms.channels, row < uniforms.rows);
    let base = row * uniforms.channels;
    let lane = i32(localIndex);`;

const forEachChannel = (body: string) => `for (var c = lane; c < n; c = c + ${ROW_GROUP}) { ${body} }`;

/** rows × channels of a tensor whose last axis is the channel axis. */
function rowsOf(shape: readonly number[]): { rows: number; channels: number } {
  const channels = shape[shape.length - 1] ?? 1;
  return { rows: shape.reduce((a, b) => a * b, 1) / channels, channels };
}

/** The uniforms every row program declares, in their order. @public */
export function rowUniforms(shape: readonly number[]): { type: string; data: number[] }[] {
  const { rows, channels } = rowsOf(shape);
  return [
    { type: 'int32', data: [rows] },
    { type: 'int32', data: [channels] },
  ];
}

abstract class Program {
  abstract readonly variableNames: string[];
  abstract readonly shaderKey: string;
  readonly workgroupSize: Triple;
  readonly dispatchLayout: { x: number[] };
  readonly dispatch: Triple;

  constructor(
    readonly outputShape: number[],
    util: WebgpuUtil,
    workgroupSize: number,
    /** workgroups (one per row or per column block); omitted: one invocation per output element */
    workgroups?: number,
  ) {
    this.workgroupSize = [workgroupSize, 1, 1];
    this.dispatchLayout = util.flatDispatchLayout(outputShape);
    this.dispatch =
      workgroups === undefined
        ? util.computeDispatch(this.dispatchLayout, outputShape, this.workgroupSize)
        : [workgroups, 1, 1];
  }

  abstract getUserCode(): string;
}

/** One invocation per output element, guarded by the size uniform; `element` computes element `index`. */
abstract class ElementwiseProgram extends Program {
  readonly size = true;

  constructor(shape: number[], util: WebgpuUtil) {
    super(shape, util, 64);
  }

  /** WGSL declared before main (the functions `element` calls) */
  protected prelude(): string {
    return '';
  }

  protected abstract element(): string;

  getUserCode(): string {
    return `${this.prelude()}
      fn main(index : i32) {
        if (index < uniforms.size) {
          ${this.element()}
        }
      }`;
  }
}

/**
 * Exact GELU, elementwise, with the planned step's erf (Abramowitz–Stegun 7.1.26, as tfjs's Erf): y = x·Φ(x), or
 * Φ(x) itself (kept for the gradient).
 * @public
 */
export class GeluProgram extends ElementwiseProgram {
  readonly variableNames = ['x'];
  readonly shaderKey: string;

  constructor(
    shape: number[],
    util: WebgpuUtil,
    private readonly output: 'y' | 'cdf',
  ) {
    super(shape, util);
    this.shaderKey = `maou_gelu_${output}`;
  }

  protected override prelude(): string {
    return GELU;
  }

  protected element(): string {
    return `let v = x[index];
          setOutputAtIndex(index, ${this.output === 'y' ? 'gelu(v)' : '0.5 * (1.0 + erf_(v * 0.70710678118))'});`;
  }
}

/**
 * A dropout keep-mask, elementwise and without inputs: `scale` where lowbias32(index ^ key) ≥ threshold, else 0 (the
 * engine's `dropoutMask`, the same u32 arithmetic, so the host and the device draw the same mask).
 * @public
 */
export class DropoutMaskProgram extends ElementwiseProgram {
  readonly variableNames: string[] = [];
  readonly shaderKey = 'maou_dropout_mask';
  readonly uniforms = 'key : u32, threshold : u32, scale : f32,';

  protected override prelude(): string {
    return `fn maouLowbias32(v : u32) -> u32 {
        var x = v ^ (v >> 16u);
        x = x * 0x7feb352du;
        x = x ^ (x >> 15u);
        x = x * 0x846ca68bu;
        return x ^ (x >> 16u);
      }`;
  }

  protected element(): string {
    return `let h = maouLowbias32(u32(index) ^ uniforms.key);
          setOutputAtIndex(index, select(0.0, uniforms.scale, h >= uniforms.threshold));`;
  }
}

/** GELU's gradient, elementwise: dx = dy·(Φ(x) + x·φ(x)) with Φ(x) from the forward pass. @public */
export class GeluGradProgram extends ElementwiseProgram {
  readonly variableNames = ['dy', 'x', 'cdf'];
  readonly shaderKey = 'maou_gelu_grad';

  protected element(): string {
    return `let v = x[index];
          let pdf = 0.3989422804014327 * exp(-0.5 * v * v);
          setOutputAtIndex(index, dy[index] * (cdf[index] + v * pdf));`;
  }
}

/**
 * Layer norm's row statistics, one workgroup per row: the mean, then the variance of the centred row (two passes,
 * as the wasm kernel and the composed ops), rstd = 1/sqrt(var + eps). Writes rstd [..., 1] or xhat = (x − mean)·rstd.
 * Uniforms: rowUniforms, then eps.
 * @public
 */
export class LayerNormRowProgram extends Program {
  readonly variableNames = ['x'];
  readonly uniforms = 'rows : i32, channels : i32, eps : f32,';
  readonly shaderKey: string;

  constructor(
    shape: number[],
    util: WebgpuUtil,
    private readonly output: 'rstd' | 'xhat',
  ) {
    super(output === 'rstd' ? [...shape.slice(0, -1), 1] : shape, util, ROW_GROUP, rowsOf(shape).rows);
    this.shaderKey = `maou_layer_norm_${output}`;
  }

  getUserCode(): string {
    const write =
      this.output === 'rstd'
        ? 'if (lane == 0 && n > 0) { setOutputAtIndex(row, rstd); }'
        : forEachChannel('setOutputAtIndex(base + c, (x[base + c] - mean) * rstd);');
    return `${WORKGROUP_SUM}
      fn main(index : i32) {
        ${ROW_PROLOGUE}
        var s = 0.0;
        ${forEachChannel('s = s + x[base + c];')}
        let mean = maouWorkgroupSum(s) / f32(uniforms.channels);
        var q = 0.0;
        ${forEachChannel('let d = x[base + c] - mean; q = q + d * d;')}
        let rstd = 1.0 / sqrt(maouWorkgroupSum(q) / f32(uniforms.channels) + uniforms.eps);
        ${write}
      }`;
  }
}

/** y = xhat·γ + β, elementwise. Uniform: channels. @public */
export class LayerNormAffineProgram extends ElementwiseProgram {
  readonly variableNames = ['xhat', 'gamma', 'beta'];
  readonly uniforms = 'channels : i32,';
  readonly shaderKey = 'maou_layer_norm_affine';

  protected element(): string {
    return `let c = index % uniforms.channels;
          setOutputAtIndex(index, xhat[index] * gamma[c] + beta[c]);`;
  }
}

/**
 * Layer norm's input gradient, one workgroup per row: g = dy·γ, dx = rstd·(g − mean(g) − xhat·mean(g·xhat)).
 * Uniforms: rowUniforms.
 * @public
 */
export class LayerNormDxProgram extends Program {
  readonly variableNames = ['dy', 'xhat', 'rstd', 'gamma'];
  readonly uniforms = 'rows : i32, channels : i32,';
  readonly shaderKey = 'maou_layer_norm_dx';

  constructor(shape: number[], util: WebgpuUtil) {
    super(shape, util, ROW_GROUP, rowsOf(shape).rows);
  }

  getUserCode(): string {
    return `${WORKGROUP_SUM}
      fn main(index : i32) {
        ${ROW_PROLOGUE}
        var s1 = 0.0;
        var s2 = 0.0;
        ${forEachChannel('let g = dy[base + c] * gamma[c]; s1 = s1 + g; s2 = s2 + g * xhat[base + c];')}
        let inv = 1.0 / f32(uniforms.channels);
        let meanG = maouWorkgroupSum(s1) * inv;
        let meanGX = maouWorkgroupSum(s2) * inv;
        ${forEachChannel(
          'setOutputAtIndex(base + c, rstd[row] * (dy[base + c] * gamma[c] - meanG - xhat[base + c] * meanGX));',
        )}
      }`;
  }
}

/**
 * Sum over rows of dy·xhat (γ's gradient) or of dy (β's), as [C]: each workgroup takes COLUMNS neighbouring
 * columns (neighbouring invocations read neighbouring floats) split over LANES row lanes, then adds the lanes.
 * Uniforms: rowUniforms.
 * @public
 */
export class ColumnSumProgram extends Program {
  readonly variableNames: string[];
  readonly uniforms = 'rows : i32, channels : i32,';
  readonly shaderKey: string;

  constructor(
    shape: number[],
    outputShape: number[],
    util: WebgpuUtil,
    private readonly timesXhat: boolean,
  ) {
    super(outputShape, util, COLUMNS * LANES, Math.ceil(rowsOf(shape).channels / COLUMNS));
    this.variableNames = timesXhat ? ['dy', 'xhat'] : ['dy'];
    this.shaderKey = timesXhat ? 'maou_column_sum_dy_xhat' : 'maou_column_sum_dy';
  }

  getUserCode(): string {
    return `
      var<workgroup> maouColumn : array<f32, ${COLUMNS * LANES}>;
      fn main(index : i32) {
        let lane = i32(localIndex) / ${COLUMNS};
        let col = (index / ${COLUMNS * LANES}) * ${COLUMNS} + i32(localIndex) % ${COLUMNS};
        let live = col < uniforms.channels;
        let rows = select(0, uniforms.rows, live);
        var s = 0.0;
        for (var r = lane; r < rows; r = r + ${LANES}) {
          let k = r * uniforms.channels + col;
          s = s + dy[k]${this.timesXhat ? ' * xhat[k]' : ''};
        }
        maouColumn[localIndex] = s;
        workgroupBarrier();
        for (var stride = ${LANES / 2}u; stride > 0u; stride = stride / 2u) {
          if (u32(lane) < stride) {
            maouColumn[localIndex] = maouColumn[localIndex] + maouColumn[localIndex + stride * ${COLUMNS}u];
          }
          workgroupBarrier();
        }
        if (lane == 0 && live) {
          setOutputAtIndex(col, maouColumn[localIndex]);
        }
      }`;
  }
}

/**
 * One AdamW output, elementwise (torch semantics, the wasm kernel's order of operations): m' = m·β1 + g·(1 − β1),
 * v' = v·β2 + g²·(1 − β2), or p' = p·decay − m' / (sqrt(v')/bc2 + eps) · lr/bc1, which recomputes m' and v' from
 * the old moments so the three dispatches need no order among them. Uniforms: adamWUniforms.
 * @public
 */
export class AdamWProgram extends ElementwiseProgram {
  // only what the output reads: an unused binding is dropped from the layout WebGPU derives for the pipeline
  readonly variableNames: string[];
  readonly uniforms =
    'beta1 : f32, oneMinusBeta1 : f32, beta2 : f32, oneMinusBeta2 : f32, decay : f32, bc2 : f32, eps : f32, stepSize : f32,';
  readonly shaderKey: string;

  constructor(
    shape: number[],
    util: WebgpuUtil,
    private readonly output: 'param' | 'm' | 'v',
  ) {
    super(shape, util);
    this.variableNames = { param: ['param', 'grad', 'm', 'v'], m: ['grad', 'm'], v: ['grad', 'v'] }[output];
    this.shaderKey = `maou_adamw_${output}`;
  }

  protected element(): string {
    const mNew = 'let mNew = m[index] * uniforms.beta1 + g * uniforms.oneMinusBeta1;';
    const vNew = 'let vNew = v[index] * uniforms.beta2 + g * g * uniforms.oneMinusBeta2;';
    const body = {
      m: `${mNew} setOutputAtIndex(index, mNew);`,
      v: `${vNew} setOutputAtIndex(index, vNew);`,
      param: `${mNew} ${vNew}
          let update = mNew / (sqrt(vNew) / uniforms.bc2 + uniforms.eps);
          setOutputAtIndex(index, param[index] * uniforms.decay - update * uniforms.stepSize);`,
    }[this.output];
    return `let g = grad[index];
          ${body}`;
  }
}

/** Invocations of the one workgroup that sums a gradient's squares. */
const SQUARES_GROUP = 256;

/**
 * Σ g² of one gradient plus the running total of the gradients before it ([1], absent for the first), in one
 * workgroup (tfjs's own Sum to one value is one workgroup too): the global norm of N gradients is N dispatches.
 * Uniform: count (the gradient's size).
 * @public
 */
export class SquaresTotalProgram extends Program {
  readonly variableNames: string[];
  readonly uniforms = 'count : i32,';
  readonly shaderKey: string;

  constructor(
    util: WebgpuUtil,
    private readonly withPrevious: boolean,
  ) {
    super([1], util, SQUARES_GROUP, 1);
    this.variableNames = withPrevious ? ['g', 'previous'] : ['g'];
    this.shaderKey = withPrevious ? 'maou_squares_total_running' : 'maou_squares_total_first';
  }

  getUserCode(): string {
    return `
      var<workgroup> maouSquares : array<f32, ${SQUARES_GROUP}>;
      fn main(index : i32) {
        var s = 0.0;
        for (var i = i32(localIndex); i < uniforms.count; i = i + ${SQUARES_GROUP}) { s = s + g[i] * g[i]; }
        maouSquares[localIndex] = s;
        workgroupBarrier();
        for (var stride = ${SQUARES_GROUP / 2}u; stride > 0u; stride = stride / 2u) {
          if (localIndex < stride) {
            maouSquares[localIndex] = maouSquares[localIndex] + maouSquares[localIndex + stride];
          }
          workgroupBarrier();
        }
        if (localIndex == 0u) {
          setOutputAtIndex(0, ${this.withPrevious ? 'previous[0] + ' : ''}maouSquares[0]);
        }
      }`;
  }
}

/** g·min(1, maxNorm / (sqrt(Σ g²) + 1e-6)), elementwise (torch's clip_grad_norm_). Uniform: maxNorm. @public */
export class ClipScaleProgram extends ElementwiseProgram {
  readonly variableNames = ['g', 'total'];
  readonly uniforms = 'maxNorm : f32,';
  readonly shaderKey = 'maou_clip_scale';

  protected element(): string {
    return `let coef = min(uniforms.maxNorm / (sqrt(total[0]) + 1e-6), 1.0);
          setOutputAtIndex(index, g[index] * coef);`;
  }
}
