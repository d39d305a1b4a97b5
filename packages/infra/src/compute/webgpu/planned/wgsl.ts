// WGSL sources of the planned training step. Every shape is a constant of its shader, so each kernel is compiled
// for the layer it serves; the step description names the buffers each binding gets.

/** A storage binding of a kernel: the buffer's name in the step description and whether the kernel writes it. @public */
export interface Binding {
  readonly name: string;
  readonly buffer: string;
  readonly write?: boolean;
  /** 'act': an activation or activation gradient, stored as the plan's activation type (see `activationType`) */
  readonly type?: 'f32' | 'i32' | 'act';
}

/** One dispatch of the step: its shader, bindings and workgroup counts. @public */
export interface Dispatch {
  readonly label: string;
  readonly code: string;
  readonly bindings: readonly Binding[];
  readonly workgroups: readonly [number, number, number];
}

const THREADS = 256;
/** Grid-stride kernels never ask for more workgroups than this (the per-dimension limit is 65,535). */
const MAX_GROUPS = 4096;

const ACT_F32 = 'alias act = f32;';

/**
 * Kernels read activations as `f32(x[i])` and store them as `act(v)`, so their arithmetic is f32 whatever `act`
 * is; the alias starts as f32 and `activationType` binds it per plan.
 */
const header = (bindings: readonly Binding[]): string =>
  [
    ...(bindings.some((b) => b.type === 'act') ? [ACT_F32] : []),
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
  return { label, code, bindings, workgroups: [Math.max(1, Math.min(MAX_GROUPS, Math.ceil(total / THREADS))), 1, 1] };
}

/** Tile edge of the GEMM kernels (TILE×TILE outputs per workgroup, one per thread). */
export const TILE = 16;

/**
 * C[M,N] = Σ_k A(m,k)·B(k,n) with A, B and the store given as WGSL expressions of (m, k), (k, n) and
 * (m, n, acc): one generator serves the convolutions as implicit GEMMs (forward, input and filter
 * gradients), the dense layers and their gradients. `splits` > 1 cuts K into that many ranges (grid z);
 * the store then sees `split` and writes a partial sum.
 * @public
 */
export function gemm(
  label: string,
  bindings: readonly Binding[],
  o: {
    readonly M: number;
    readonly N: number;
    readonly K: number;
    readonly consts: string;
    readonly loadA: string;
    readonly loadB: string;
    readonly store: string;
    readonly splits?: number;
    readonly helpers?: string;
  },
): Dispatch {
  const splits = o.splits ?? 1;
  const chunk = Math.ceil(o.K / splits / TILE) * TILE;
  if (o.M >= BIG_TILE && o.N >= BIG_TILE) return blockedGemm(label, bindings, o, splits, chunk);
  const code = `${gemmPrelude(bindings, o, chunk, TILE)}
@compute @workgroup_size(${TILE}, ${TILE})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let row = i32(wg.y) * ${TILE} + i32(lid.y);
  let col = i32(wg.x) * ${TILE} + i32(lid.x);
  let split = i32(wg.z);
  let k_begin = split * CHUNK;
  let k_end = min(K, k_begin + CHUNK);
  var acc = 0.0;
  for (var k0 = k_begin; k0 < k_end; k0 += ${TILE}) {
    let ka = k0 + i32(lid.x);
    var a = 0.0;
    if (row < M && ka < k_end) { a = loadA(row, ka); }
    As[lid.y][lid.x] = a;
    let kb = k0 + i32(lid.y);
    var b = 0.0;
    if (kb < k_end && col < N) { b = loadB(kb, col); }
    Bs[lid.y][lid.x] = b;
    workgroupBarrier();
    for (var kk = 0u; kk < ${TILE}u; kk++) { acc = fma(As[lid.y][kk], Bs[kk][lid.x], acc); }
    workgroupBarrier();
  }
  if (row < M && col < N) { store(row, col, split, acc); }
}`;
  return { label, code, bindings, workgroups: [Math.ceil(o.N / TILE), Math.ceil(o.M / TILE), splits] };
}

/** Bindings, shapes, the operand loaders and the store of a GEMM shader; tiles are `width` wide, TILE deep. */
function gemmPrelude(
  bindings: readonly Binding[],
  o: Parameters<typeof gemm>[2],
  chunk: number,
  width: number,
): string {
  return `${header(bindings)}
${o.consts}
${[i32c('M', o.M), i32c('N', o.N), i32c('K', o.K), i32c('CHUNK', chunk)].join('\n')}
${o.helpers ?? ''}
var<workgroup> As: array<array<f32, ${width}>, ${TILE}>;
var<workgroup> Bs: array<array<f32, ${width}>, ${TILE}>;
fn loadA(m: i32, k: i32) -> f32 { ${o.loadA} }
fn loadB(k: i32, n: i32) -> f32 { ${o.loadB} }
fn store(m: i32, n: i32, split: i32, acc: f32) { ${o.store} }`;
}

/** Edge of the register-blocked GEMM's tile: 16×16 threads, each 4×4 outputs. */
export const BIG_TILE = 64;

/**
 * The GEMM for large M and N: a 64×64 output tile per workgroup, 4×4 outputs per thread (rows ty + 16i,
 * columns tx + 16j), A and B staged through workgroup memory 16 K-steps at a time, 4 loads of each per thread.
 */
function blockedGemm(
  label: string,
  bindings: readonly Binding[],
  o: Parameters<typeof gemm>[2],
  splits: number,
  chunk: number,
): Dispatch {
  const code = `${gemmPrelude(bindings, o, chunk, BIG_TILE)}
@compute @workgroup_size(${TILE}, ${TILE})
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let tx = i32(lid.x);
  let ty = i32(lid.y);
  let t = ty * ${TILE} + tx;
  let row0 = i32(wg.y) * ${BIG_TILE};
  let col0 = i32(wg.x) * ${BIG_TILE};
  let split = i32(wg.z);
  let k_begin = split * CHUNK;
  let k_end = min(K, k_begin + CHUNK);
  var acc: array<array<f32, 4>, 4>;
  for (var k0 = k_begin; k0 < k_end; k0 += ${TILE}) {
    for (var j = 0; j < 4; j++) {
      let idx = t + j * 256;
      let am = idx / ${TILE}; let ak = idx % ${TILE};
      var a = 0.0;
      if (row0 + am < M && k0 + ak < k_end) { a = loadA(row0 + am, k0 + ak); }
      As[ak][am] = a;
      let bk = idx / ${BIG_TILE}; let bn = idx % ${BIG_TILE};
      var b = 0.0;
      if (k0 + bk < k_end && col0 + bn < N) { b = loadB(k0 + bk, col0 + bn); }
      Bs[bk][bn] = b;
    }
    workgroupBarrier();
    for (var kk = 0; kk < ${TILE}; kk++) {
      var av: array<f32, 4>;
      var bv: array<f32, 4>;
      for (var i = 0; i < 4; i++) { av[i] = As[kk][ty + 16 * i]; bv[i] = Bs[kk][tx + 16 * i]; }
      for (var i = 0; i < 4; i++) { for (var j = 0; j < 4; j++) { acc[i][j] = fma(av[i], bv[j], acc[i][j]); } }
    }
    workgroupBarrier();
  }
  for (var i = 0; i < 4; i++) {
    for (var j = 0; j < 4; j++) {
      let m = row0 + ty + 16 * i; let n = col0 + tx + 16 * j;
      if (m < M && n < N) { store(m, n, split, acc[i][j]); }
    }
  }
}`;
  return { label, code, bindings, workgroups: [Math.ceil(o.N / BIG_TILE), Math.ceil(o.M / BIG_TILE), splits] };
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
  },
): Dispatch {
  const reduce = (v: string) => `
  red0[ly][lx] = ${v}0; red1[ly][lx] = ${v}1;
  workgroupBarrier();
  if (ly == 0u) { for (var j = 1u; j < 4u; j++) { red0[0][lx] += red0[j][lx]; red1[0][lx] += red1[j][lx]; } }
  workgroupBarrier();`;
  const code = `${header(bindings)}
${o.consts}
${i32c('ROWS', o.rows)}
${i32c('C', o.channels)}
var<workgroup> red0: array<array<f32, 64>, 4>;
var<workgroup> red1: array<array<f32, 64>, 4>;
@compute @workgroup_size(64, 4)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
  let lx = lid.x;
  let ly = lid.y;
  let c = i32(wg.x) * 64 + i32(lx);
  let live = c < C;
  var p0 = 0.0;
  ${
    o.prepass
      ? `{
    var s0 = 0.0; var s1 = 0.0;
    if (live) { for (var r = i32(ly); r < ROWS; r += 4) { let i = r * C + c; ${o.prepass} } }
    ${reduce('s')}
    p0 = red0[0][lx];
    workgroupBarrier();
  }`
      : ''
  }
  var s0 = 0.0; var s1 = 0.0;
  if (live) { for (var r = i32(ly); r < ROWS; r += 4) { let i = r * C + c; ${o.pass} } }
  ${reduce('s')}
  if (ly == 0u && live) {
    let t0 = red0[0][lx];
    let t1 = red1[0][lx];
    ${o.finish}
  }
}`;
  return { label, code, bindings, workgroups: [Math.ceil(o.channels / 64), 1, 1] };
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
  return { label, code, bindings, workgroups: [rows, 1, 1] };
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
