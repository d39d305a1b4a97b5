// WGSL sources of the planned training step. A kernel declares its layer's shapes and offsets as module-scope
// constants; `dispatch` moves them into a uniform, so the shader text depends only on the kind of kernel and its
// tile, and layers of one kind share one compiled pipeline. The step description names the buffers each binding gets.

/** A storage binding of a kernel: the buffer's name in the step description and whether the kernel writes it. @public */
export interface Binding {
  readonly name: string;
  readonly buffer: string;
  readonly write?: boolean;
  /** 'act': an activation or activation gradient, stored as the plan's activation type (see `activationType`) */
  readonly type?: 'f32' | 'i32' | 'vec4<f32>' | 'act' | 'vec4<act>';
}

/** A field of a kernel's uniform `u`: one of its layer's shapes or offsets. @public */
export interface Uniform {
  readonly name: string;
  readonly type: 'i32' | 'f32';
  readonly value: number;
}

/** One dispatch of the step: its shader, bindings, uniform values and workgroup counts. @public */
export interface Dispatch {
  readonly label: string;
  readonly code: string;
  readonly bindings: readonly Binding[];
  /** the fields of `u`, bound after the storage bindings (none: no uniform binding) */
  readonly uniforms: readonly Uniform[];
  readonly workgroups: readonly [number, number, number];
}

/** Bytes of each dispatch's slice of the uniform buffer (WebGPU's minUniformBufferOffsetAlignment is at most 256). @public */
export const UNIFORM_SLOT = 256;

const MODULE_CONSTANT = /^const (\w+): (i32|f32) = (.+);$/;

/**
 * The dispatch of `code`, with its module-scope `const NAME: i32|f32 = v;` lines turned into fields of a uniform
 * struct `u` (each use of NAME becomes u.NAME). Constant-folded shapes made every layer its own shader: ~200
 * pipelines per plan, each compiled for seconds by lavapipe's LLVM (and by a GPU driver at set-up).
 * @public
 */
export function dispatch(
  label: string,
  bindings: readonly Binding[],
  code: string,
  workgroups: readonly [number, number, number],
): Dispatch {
  const uniforms: Uniform[] = [];
  const body = code
    .split('\n')
    .filter((line) => {
      const m = MODULE_CONSTANT.exec(line);
      if (m) uniforms.push({ name: m[1]!, type: m[2] as 'i32' | 'f32', value: Number(m[3]) });
      return !m;
    })
    .join('\n');
  if (!uniforms.length) return { label, code, bindings, uniforms, workgroups };
  if (4 * uniforms.length > UNIFORM_SLOT) throw new Error(`${label}: ${uniforms.length} uniforms exceed one slot`);
  const names = new RegExp(`(?<![.\\w])(${uniforms.map((u) => u.name).join('|')})(?!\\w)`, 'g');
  const struct = `struct Shape { ${uniforms.map((u) => `${u.name}: ${u.type}`).join(', ')} }
@group(0) @binding(${bindings.length}) var<uniform> u: Shape;`;
  return { label, code: `${struct}\n${body.replace(names, 'u.$1')}`, bindings, uniforms, workgroups };
}

const THREADS = 256;
/** Grid-stride kernels never ask for more workgroups than this (the per-dimension limit is 65,535). */
const MAX_GROUPS = 4096;

const ACT_F32 = 'alias act = f32;';

/** Whether the binding holds activations (scalar or vec4), stored as the plan's activation type. @public */
export const isActivation = (b: Binding): boolean => b.type === 'act' || b.type === 'vec4<act>';

/**
 * Kernels read activations as `f32(x[i])` and store them as `act(v)`, so their arithmetic is f32 whatever `act`
 * is; the alias starts as f32 and `activationType` binds it per plan.
 */
const header = (bindings: readonly Binding[]): string =>
  [
    ...(bindings.some((b) => isActivation(b)) ? [ACT_F32] : []),
    ...bindings.map(
      (b, i) =>
        `@group(0) @binding(${i}) var<storage, ${b.write ? 'read_write' : 'read'}> ${b.name}: array<${b.type ?? 'f32'}>;`,
    ),
  ].join('\n');

/** Storage type of activations: f32, or f16 (mixed precision; needs the device feature shader-f16). @public */
export type ActivationType = 'f32' | 'f16';

/** The dispatch with its activation buffers stored as `type` (its math stays f32). @public */
export function activationType(d: Dispatch, type: ActivationType): Dispatch {
  if (type === 'f32' || !d.code.includes(ACT_F32)) return d;
  return { ...d, code: `enable f16;\n${d.code.replace(ACT_F32, 'alias act = f16;')}` };
}

const i32c = (name: string, v: number): string => `const ${name}: i32 = ${Math.trunc(v)};`;
const f32c = (name: string, v: number): string =>
  `const ${name}: f32 = ${Number.isInteger(v) ? `${v}.0` : v.toPrecision(9)};`;

export const constI = i32c;
export const constF = f32c;

/**
 * An element-wise kernel: `body` runs for every i in [0, total) (grid-stride, so any size fits one dispatch).
 * @public
 */
export function elementwise(
  label: string,
  bindings: readonly Binding[],
  total: number,
  consts: string,
  body: string,
  helpers = '',
): Dispatch {
  const code = `${header(bindings)}
${consts}
${i32c('TOTAL', total)}
${helpers}
@compute @workgroup_size(${THREADS})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let stride = i32(nwg.x) * ${THREADS};
  for (var i = i32(gid.x); i < TOTAL; i += stride) {
${body}
  }
}`;
  return dispatch(label, bindings, code, [Math.max(1, Math.min(MAX_GROUPS, Math.ceil(total / THREADS))), 1, 1]);
}

/** Tile edge of the GEMM kernels' K steps, and of their output tile when M or N is small (one output per thread). */
export const TILE = 16;

/** Edge of the register-blocked GEMM's output tile: 16×16 threads, each 4×4 outputs. */
export const BIG_TILE = 64;

/** Edge of the output tile `gemm` uses for an M×N product (rows of one tile share one line of `columnStats`). @public */
export function gemmTile(M: number, N: number): number {
  return M >= BIG_TILE && N >= BIG_TILE ? BIG_TILE : TILE;
}

/** The operands and epilogue of a GEMM dispatch (see `gemm`). @public */
export interface GemmOptions {
  readonly M: number;
  readonly N: number;
  readonly K: number;
  readonly consts: string;
  /** body of `loadA(m, k)`: f32, or with `vecA` the vec4 of A at (m..m+3, k) ('m') or (m, k..k+3) ('k') */
  readonly loadA: string;
  /** body of `loadB(k, n)`: f32, or with `vecB` the vec4 of B at (k..k+3, n) ('k') or (k, n..n+3) ('n') */
  readonly loadB: string;
  readonly vecA?: 'm' | 'k';
  readonly vecB?: 'k' | 'n';
  readonly store: string;
  readonly splits?: number;
  readonly helpers?: string;
  /**
   * A bound buffer that gets, for each tile of rows (wg.y) and column n, the sum of C over the tile's rows at
   * [wg.y·2N + n] and their sum of squares about the tile's mean at [wg.y·2N + N + n] (batch-norm statistics
   * without another pass over C; a fixed order, so deterministic). Only without splits.
   */
  readonly columnStats?: string;
}

/**
 * C[M,N] = Σ_k A(m,k)·B(k,n) with A, B and the store given as WGSL of (m, k), (k, n) and (m, n, acc): one
 * generator serves the convolutions as implicit GEMMs (forward, input and filter gradients), the dense layers and
 * their gradients. 16×16 threads each own P×P outputs (rows ty + 16i, columns tx + 16j) of a 16P-edge tile
 * (P = 4 for large M and N, else 1); A and B are staged through workgroup memory 16 K-steps at a time, four at
 * a time where the operand has vec4 loads. `splits` > 1 cuts K into that many ranges (grid z); the store then
 * sees `split` and writes a partial sum.
 * @public
 */
export function gemm(label: string, bindings: readonly Binding[], o: GemmOptions): Dispatch {
  const splits = o.splits ?? 1;
  const chunk = Math.ceil(o.K / splits / TILE) * TILE;
  const W = gemmTile(o.M, o.N);
  const P = W / TILE;
  if (o.columnStats && splits > 1) throw new Error(`${label}: column statistics need one K split`);
  const extent = { m: o.M, n: o.N, k: o.K };
  for (const axis of [o.vecA, o.vecB])
    if (axis && extent[axis] % 4 !== 0) throw new Error(`${label}: vec4 loads along ${axis} need it a multiple of 4`);
  const code = `${header(bindings)}
${o.consts}
${[i32c('M', o.M), i32c('N', o.N), i32c('K', o.K), i32c('CHUNK', chunk)].join('\n')}
var<private> tile_col: i32;
${o.helpers ?? ''}
var<workgroup> As: array<array<f32, ${W}>, ${TILE}>;
var<workgroup> Bs: array<array<f32, ${W}>, ${TILE}>;
fn loadA(m: i32, k: i32) -> ${o.vecA ? 'vec4<f32>' : 'f32'} { ${o.loadA} }
fn loadB(k: i32, n: i32) -> ${o.vecB ? 'vec4<f32>' : 'f32'} { ${o.loadB} }
fn store(m: i32, n: i32, split: i32, acc: f32) { ${o.store} }
${o.columnStats ? `var<workgroup> red: array<array<f32, ${W}>, ${TILE}>;\nvar<workgroup> tile_mean: array<f32, ${W}>;` : ''}
@compute @workgroup_size(${TILE}, ${TILE})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let tx = i32(lid.x);
  let ty = i32(lid.y);
  let t = ty * ${TILE} + tx;
  let row0 = i32(wg.y) * ${W};
  let col0 = i32(wg.x) * ${W};
  tile_col = i32(wg.x);
  let split = i32(wg.z);
  let k_begin = split * CHUNK;
  let k_end = min(K, k_begin + CHUNK);
  var acc: array<array<f32, ${P}>, ${P}>;
  for (var k0 = k_begin; k0 < k_end; k0 += ${TILE}) {
${stageTile('A', W, o.vecA === undefined ? undefined : o.vecA === 'k' ? 'k' : 'o')}
${stageTile('B', W, o.vecB === undefined ? undefined : o.vecB === 'k' ? 'k' : 'o')}
    workgroupBarrier();
    for (var kk = 0; kk < ${TILE}; kk++) {
      var av: array<f32, ${P}>;
      var bv: array<f32, ${P}>;
      for (var i = 0; i < ${P}; i++) { av[i] = As[kk][ty + ${TILE} * i]; bv[i] = Bs[kk][tx + ${TILE} * i]; }
      for (var i = 0; i < ${P}; i++) { for (var j = 0; j < ${P}; j++) { acc[i][j] = fma(av[i], bv[j], acc[i][j]); } }
    }
    workgroupBarrier();
  }
  for (var i = 0; i < ${P}; i++) {
    for (var j = 0; j < ${P}; j++) {
      let m = row0 + ty + ${TILE} * i; let n = col0 + tx + ${TILE} * j;
      if (m < M && n < N) { store(m, n, split, acc[i][j]); }
    }
  }
${o.columnStats ? columnStatsEpilogue(o.columnStats, W, P) : ''}
}`;
  return dispatch(label, bindings, code, [Math.ceil(o.N / W), Math.ceil(o.M / W), splits]);
}

/**
 * Loads one K-step of operand A (As[k][m], rows row0…) or B (Bs[k][n], columns col0…) into workgroup memory:
 * TILE×W values, all 256 threads taking turns; `vec` says the loader returns four values along k or along the
 * other axis (m or n), which must then be a multiple of 4 so a vector is wholly inside or outside the matrix.
 */
function stageTile(which: 'A' | 'B', W: number, vec?: 'k' | 'o'): string {
  const V = vec ? 4 : 1;
  // consecutive threads walk the axis along which memory is contiguous: k for A's scalar loads, n for B's
  const fastK = vec ? vec === 'k' : which === 'A';
  const fast = (fastK ? TILE : W) / V;
  const [base, bound, tile] = which === 'A' ? ['row0', 'M', 'As'] : ['col0', 'N', 'Bs'];
  const call = which === 'A' ? `loadA(${base} + o, k0 + kk)` : `loadB(k0 + kk, ${base} + o)`;
  const stores =
    V === 1
      ? `${tile}[kk][o] = v;`
      : [0, 1, 2, 3]
          .map((q) => (vec === 'k' ? `${tile}[kk + ${q}][o] = v[${q}];` : `${tile}[kk][o + ${q}] = v[${q}];`))
          .join(' ');
  return `    for (var e = t; e < ${(TILE * W) / V}; e += 256) {
      let f = (e % ${fast}) * ${V}; let s = e / ${fast};
      let kk = ${fastK ? 'f' : 's'}; let o = ${fastK ? 's' : 'f'};
      var v = ${V === 1 ? '0.0' : 'vec4<f32>(0.0)'};
      if (${base} + o < ${bound} && k0 + kk < k_end) { v = ${call}; }
      ${stores}
    }`;
}

/** Per-column sum and centred sum of squares of this workgroup's rows (see GemmOptions.columnStats). */
function columnStatsEpilogue(out: string, W: number, P: number): string {
  const columnTotals = (write: string) => `  for (var c = t; c < ${W}; c += 256) {
    var s = 0.0;
    for (var r = 0; r < ${TILE}; r++) { s += red[r][c]; }
    ${write}
  }
  workgroupBarrier();`;
  const rowsHere = `f32(min(${W}, M - row0))`;
  return `  let line = i32(wg.y) * 2 * N;
  for (var j = 0; j < ${P}; j++) {
    var s = 0.0;
    for (var i = 0; i < ${P}; i++) { if (row0 + ty + ${TILE} * i < M) { s += acc[i][j]; } }
    red[ty][tx + ${TILE} * j] = s;
  }
  workgroupBarrier();
${columnTotals(`tile_mean[c] = s / ${rowsHere}; if (col0 + c < N) { ${out}[line + col0 + c] = s; }`)}
  for (var j = 0; j < ${P}; j++) {
    var s = 0.0;
    for (var i = 0; i < ${P}; i++) {
      if (row0 + ty + ${TILE} * i < M) { let d = acc[i][j] - tile_mean[tx + ${TILE} * j]; s += d * d; }
    }
    red[ty][tx + ${TILE} * j] = s;
  }
  workgroupBarrier();
${columnTotals(`if (col0 + c < N) { ${out}[line + N + col0 + c] = s; }`)}`;
}

/**
 * Per-channel reduction over the rows of a [rows, C] tensor: workgroups of 64 channels × 4 row lanes.
 * `pass` is WGSL run once per (row, channel) adding into `s0`/`s1` (two sums), `finish` runs per channel
 * with the reduced `s0`, `s1`; `prepass` (optional) is a first reduction into `s0` whose result `p0` the main
 * pass can read (two-pass mean and variance).
 * @public
 */
export function channelReduce(
  label: string,
  bindings: readonly Binding[],
  o: {
    readonly rows: number;
    readonly channels: number;
    readonly consts: string;
    readonly prepass?: string;
    readonly pass: string;
    readonly finish: string;
    /** rows per workgroup along y (`chunk` in finish is the workgroup's index); all rows in one workgroup if absent */
    readonly chunkRows?: number;
  },
): Dispatch {
  const chunkRows = o.chunkRows ?? o.rows;
  const chunks = Math.ceil(o.rows / chunkRows);
  const reduce = (v: string) => `
  red0[ly][lx] = ${v}0; red1[ly][lx] = ${v}1;
  workgroupBarrier();
  if (ly == 0u) { for (var j = 1u; j < 4u; j++) { red0[0][lx] += red0[j][lx]; red1[0][lx] += red1[j][lx]; } }
  workgroupBarrier();`;
  const code = `${header(bindings)}
${o.consts}
${i32c('ROWS', o.rows)}
${i32c('C', o.channels)}
${i32c('CR', chunkRows)}
var<workgroup> red0: array<array<f32, 64>, 4>;
var<workgroup> red1: array<array<f32, 64>, 4>;
@compute @workgroup_size(64, 4)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let lx = lid.x;
  let ly = lid.y;
  let c = i32(wg.x) * 64 + i32(lx);
  let live = c < C;
  let chunk = i32(wg.y);
  let r1 = min(ROWS, (chunk + 1) * CR);
  var p0 = 0.0;
  ${
    o.prepass
      ? `{
    var s0 = 0.0; var s1 = 0.0;
    if (live) { for (var r = chunk * CR + i32(ly); r < r1; r += 4) { let i = r * C + c; ${o.prepass} } }
    ${reduce('s')}
    p0 = red0[0][lx];
    workgroupBarrier();
  }`
      : ''
  }
  var s0 = 0.0; var s1 = 0.0;
  if (live) { for (var r = chunk * CR + i32(ly); r < r1; r += 4) { let i = r * C + c; ${o.pass} } }
  ${reduce('s')}
  if (ly == 0u && live) {
    let t0 = red0[0][lx];
    let t1 = red1[0][lx];
    ${o.finish}
  }
}`;
  return dispatch(label, bindings, code, [Math.ceil(o.channels / 64), chunks, 1]);
}

/**
 * One workgroup per row of a [rows, width] matrix, 256 threads over the columns, with `wsum(v)` / `wmax(v)`
 * workgroup reductions available to `body` (which every thread runs; `t` is the thread, `r` the row).
 * @public
 */
export function rowKernel(
  label: string,
  bindings: readonly Binding[],
  rows: number,
  consts: string,
  body: string,
  helpers = '',
): Dispatch {
  const code = `${header(bindings)}
${consts}
${helpers}
var<workgroup> red: array<f32, ${THREADS}>;
fn wreduce(v: f32, t: u32, take_max: bool) -> f32 {
  workgroupBarrier();
  red[t] = v;
  workgroupBarrier();
  for (var s = ${THREADS / 2}u; s > 0u; s >>= 1u) {
    if (t < s) { if (take_max) { red[t] = max(red[t], red[t + s]); } else { red[t] = red[t] + red[t + s]; } }
    workgroupBarrier();
  }
  return red[0];
}
fn wsum(v: f32, t: u32) -> f32 { return wreduce(v, t, false); }
fn wmax(v: f32, t: u32) -> f32 { return wreduce(v, t, true); }
@compute @workgroup_size(${THREADS})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let r = i32(wg.x);
  let t = lid.x;
${body}
}`;
  return dispatch(label, bindings, code, [rows, 1, 1]);
}

/**
 * Whether x is inf or NaN, by its bits: WGSL lets a compiler assume finite floats, so comparisons could be folded
 * away.
 */
export const NON_FINITE = 'fn non_finite(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u; }';
/** Numerically safe softplus, log(1 + e^x). */
export const SOFTPLUS = 'fn softplus(x: f32) -> f32 { return max(x, 0.0) + log(1.0 + exp(-abs(x))); }';
/** σ(x) without overflow. */
export const SIGMOID =
  'fn sigmoid(x: f32) -> f32 { if (x >= 0.0) { return 1.0 / (1.0 + exp(-x)); } let e = exp(x); return e / (1.0 + e); }';
/** erf (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7) and the exact-erf GELU with its derivative. */
export const GELU = `fn erf_(x: f32) -> f32 {
  let s = sign(x); let a = abs(x);
  let t = 1.0 / (1.0 + 0.3275911 * a);
  let y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * exp(-a * a);
  return s * y;
}
fn gelu(x: f32) -> f32 { return 0.5 * x * (1.0 + erf_(x * 0.70710678118)); }
fn gelu_grad(x: f32) -> f32 { return 0.5 * (1.0 + erf_(x * 0.70710678118)) + x * 0.39894228040 * exp(-0.5 * x * x); }`;
