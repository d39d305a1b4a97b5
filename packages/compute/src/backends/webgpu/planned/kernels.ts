import {
  type Binding,
  type Dispatch,
  channelReduce,
  constF,
  constI,
  dispatch,
  elementwise,
  gemm,
  gemmTile,
  GELU,
  NON_FINITE,
  rowKernel,
  SIGMOID,
  SOFTPLUS,
} from './wgsl';

// The kernels of the planned step, one generator per layer kind. Parameters, their gradients and the batch-norm
// running statistics live in flat buffers `P`, `G` and `R`, addressed at offsets the kernels get in their uniform
// (every layer-dependent number is a `constI`/`constF`, never spliced into the WGSL, so layers share shaders).

/** A convolution of the network: NHWC input h×h×cin, HWIO weight at `wOff` in P (and its gradient in G). @public */
export interface ConvShape {
  readonly name: string;
  readonly cin: number;
  readonly cout: number;
  readonly k: number;
  readonly stride: number;
  readonly h: number;
  readonly oh: number;
  readonly pad: number;
  readonly wOff: number;
}

/** Output size and top/left padding of tfjs's 'valid' (1×1) or 'same' (3×3) convolution. @public */
export function convGeometry(h: number, k: number, stride: number): { oh: number; pad: number } {
  const oh = k === 1 ? Math.floor((h - 1) / stride) + 1 : Math.ceil(h / stride);
  return { oh, pad: Math.floor(Math.max((oh - 1) * stride + k - h, 0) / 2) };
}

const convConsts = (c: ConvShape, batch: number): string =>
  [
    constI('NB', batch),
    constI('H', c.h),
    constI('CI', c.cin),
    constI('CO', c.cout),
    constI('KS', c.k),
    constI('S', c.stride),
    constI('PAD', c.pad),
    constI('OH', c.oh),
    constI('WOFF', c.wOff),
  ].join('\n');

/**
 * Whether a convolution's GEMMs load four channels at once: both channel counts and the weight's offset in P
 * multiples of 4 (so every vec4 is aligned and lies within one filter tap); otherwise they load scalars.
 */
const vectorized = (c: ConvShape): boolean => c.cin % 4 === 0 && c.cout % 4 === 0 && c.wOff % 4 === 0;

/**
 * Where the batch norms keep their batch statistics: `S`, one buffer for the step, holds for each norm at its
 * offset [mean, 1/√(var + ε), scale = γ/√(var + ε), shift = β − mean·scale], C floats each.
 * @public
 */
export const NORM_STAT_ROWS = 4;

/** A residual added before the ReLU: another tensor (identity shortcut) or a batch-normed projection. @public */
export type Residual = { readonly tensor: string } | { readonly z: string; readonly sOff: number };

/**
 * What a kernel reads as an activation: a tensor, or relu(bn(z) [+ residual]) computed as it loads z
 * (normalise-on-load: no separate batch-norm pass). `keep` names a buffer the loader also writes the
 * activation into (the block outputs, which the next block's residual and the backward read).
 * @public
 */
export type Activation =
  | { readonly tensor: string }
  | { readonly z: string; readonly sOff: number; readonly residual?: Residual; readonly keep?: string };

/** Storage type of an activation binding: the plan's activation type (see wgsl's `activationType`), or its vec4. */
const activationOf = (vec: boolean) => (vec ? ('vec4<act>' as const) : ('act' as const));

/**
 * Bindings and WGSL of `inAt(a)`: the activation at flat index a of a [.., channels] tensor, a vec4 of
 * channels a…a+3 when `vec`. `keepWhen` (WGSL bool) says which loads write `keep`: each element exactly once.
 */
function activationReader(
  src: Activation,
  channels: number,
  vec: boolean,
  keepWhen = 'true',
): { bindings: Binding[]; consts: string; code: string } {
  const T = vec ? 'vec4<f32>' : 'f32';
  const type = vec ? ('vec4<f32>' as const) : undefined;
  const actType = activationOf(vec);
  const V = vec ? 4 : 1;
  if ('tensor' in src) {
    return {
      bindings: [{ name: 'xin', buffer: src.tensor, type: actType }],
      consts: '',
      code: `fn inAt(a: i32) -> ${T} { return ${T}(xin[a / ${V}]); }`,
    };
  }
  const bindings: Binding[] = [
    { name: 'zin', buffer: src.z, type: actType },
    { name: 'BNS', buffer: 'S', type },
  ];
  // scale and shift of a norm in S, counted in loads of V floats
  const consts = [
    constI('XCH', channels),
    constI('XSC', (src.sOff + 2 * channels) / V),
    constI('XSH', (src.sOff + 3 * channels) / V),
  ];
  const affine = (z: string, k: string) => `${T}(${z}[q]) * BNS[${k}SC + c] + BNS[${k}SH + c]`;
  let v = affine('zin', 'X');
  if (src.residual && 'tensor' in src.residual) {
    bindings.push({ name: 'res', buffer: src.residual.tensor, type: actType });
    v += ` + ${T}(res[q])`;
  } else if (src.residual) {
    bindings.push({ name: 'zres', buffer: src.residual.z, type: actType });
    consts.push(
      constI('RSC', (src.residual.sOff + 2 * channels) / V),
      constI('RSH', (src.residual.sOff + 3 * channels) / V),
    );
    v += ` + ${affine('zres', 'R')}`;
  }
  if (src.keep) bindings.push({ name: 'keep', buffer: src.keep, type: actType, write: true });
  return {
    bindings,
    consts: consts.join('\n'),
    code: `fn inAt(a: i32) -> ${T} {
  let q = a / ${V}; let c = (a % XCH) / ${V};
  let v = max(${v}, ${T}(0.0));
  ${src.keep ? `if (${keepWhen}) { keep[q] = ${actType}(v); }` : ''}
  return v;
}`,
  };
}

/** relu(bn(z)) > 0 at flat index i of channel c, the same arithmetic as `activationReader`'s (the ReLU mask). */
const activeExpr = (z: string, sOff: string) =>
  `f32(${z}[i]) * BNS[${sOff} + 2 * C + c] + BNS[${sOff} + 3 * C + c] > 0.0`;

/** Input pixel (n, ih, iw, ci) of output (n, oh, ow) under filter tap (kh, kw), 0 outside the board. */
const gatherInput = (zero: string) =>
  `let ih = oh * S - PAD + kh; let iw = ow * S - PAD + kw;
   if (ih < 0 || ih >= H || iw < 0 || iw >= H) { return ${zero}; }
   return inAt(((n * H + ih) * H + iw) * CI + ci);`;

const zeroOf = (vec: boolean) => (vec ? 'vec4<f32>(0.0)' : '0.0');

/**
 * z = conv(x): M = output pixels, N = output channels, K = taps × input channels; the per-column statistics
 * of z (for its batch norm) go into `stats` (see GemmOptions.columnStats). A 1×1 stride-1 convolution may keep
 * its normalised input (`Activation.keep`): it loads every element once in its first column of tiles.
 * @public
 */
export function convForward(c: ConvShape, batch: number, x: Activation, z: string, stats: string): Dispatch {
  const vec = vectorized(c);
  if ('keep' in x && x.keep && (c.k !== 1 || c.stride !== 1))
    throw new Error(`${c.name}: only a 1×1 stride-1 convolution loads each input once, to keep it`);
  const input = activationReader(x, c.cin, vec, 'tile_col == 0');
  return gemm(
    `${c.name} conv`,
    [
      ...input.bindings,
      { name: 'P', buffer: 'P', type: vec ? 'vec4<f32>' : undefined },
      { name: 'z', buffer: z, write: true, type: 'act' },
      { name: 'stats', buffer: stats, write: true },
    ],
    {
      M: batch * c.oh * c.oh,
      N: c.cout,
      K: c.k * c.k * c.cin,
      consts: `${convConsts(c, batch)}\n${input.consts}`,
      helpers: input.code,
      loadA: `let ow = m % OH; let t = m / OH; let oh = t % OH; let n = t / OH;
      let ci = k % CI; let tap = k / CI; let kw = tap % KS; let kh = tap / KS; ${gatherInput(zeroOf(vec))}`,
      loadB: vec ? 'return P[(WOFF + k * CO + n) / 4];' : 'return P[WOFF + k * CO + n];',
      vecA: vec ? 'k' : undefined,
      vecB: vec ? 'n' : undefined,
      store: 'z[m * CO + n] = act(acc);',
      columnStats: 'stats',
    },
  );
}

/** Floats of the statistics lines `convForward` writes for its batch norm. @public */
export function convStatsFloats(c: ConvShape, batch: number): number {
  const M = batch * c.oh * c.oh;
  return Math.ceil(M / gemmTile(M, c.cout)) * 2 * c.cout;
}

/** dx = conv_transpose(dz) (+ addend): M = input pixels, N = input channels, K = taps × output channels. @public */
export function convInputGrad(c: ConvShape, batch: number, dz: string, dx: string, addend?: string): Dispatch {
  const vec = vectorized(c);
  const type = vec ? ('vec4<f32>' as const) : undefined;
  const V = vec ? 4 : 1;
  const bindings: Binding[] = [
    { name: 'dz', buffer: dz, type: activationOf(vec) },
    { name: 'P', buffer: 'P', type },
    ...(addend ? [{ name: 'addend', buffer: addend, type: 'act' } as const] : []),
    { name: 'dx', buffer: dx, write: true, type: 'act' },
  ];
  return gemm(`${c.name} input grad`, bindings, {
    M: batch * c.h * c.h,
    N: c.cin,
    K: c.k * c.k * c.cout,
    consts: convConsts(c, batch),
    loadA: `let iw = m % H; let t = m / H; let ih = t % H; let n = t / H;
      let co = k % CO; let tap = k / CO; let kw = tap % KS; let kh = tap / KS;
      let ohs = ih + PAD - kh; let ows = iw + PAD - kw;
      if (ohs < 0 || ows < 0 || ohs % S != 0 || ows % S != 0) { return ${zeroOf(vec)}; }
      let oh = ohs / S; let ow = ows / S;
      if (oh >= OH || ow >= OH) { return ${zeroOf(vec)}; }
      return ${vec ? 'vec4<f32>' : 'f32'}(dz[(((n * OH + oh) * OH + ow) * CO + co) / ${V}]);`,
    loadB: `let co = k % CO; let tap = k / CO; return P[(WOFF + (tap * CI + n) * CO + co) / ${V}];`,
    vecA: vec ? 'k' : undefined,
    vecB: vec ? 'k' : undefined,
    store: `dx[m * CI + n] = act(acc${addend ? ' + f32(addend[m * CI + n])' : ''});`,
  });
}

/**
 * Filter gradient dW = Σ over output pixels of input patch × dz: M = taps × input channels, N = output
 * channels, K = output pixels, split over `splits` K ranges into `scratch` when the M×N grid is small.
 * @public
 */
export function convFilterGrad(
  c: ConvShape,
  batch: number,
  x: Activation,
  dz: string,
  splits: number,
  scratch: string,
): Dispatch[] {
  const M = c.k * c.k * c.cin;
  const N = c.cout;
  const vec = vectorized(c);
  const input = activationReader(x, c.cin, vec);
  const out = splits > 1 ? { name: 'part', buffer: scratch, write: true } : { name: 'G', buffer: 'G', write: true };
  const main = gemm(
    `${c.name} filter grad`,
    [...input.bindings, { name: 'dz', buffer: dz, type: activationOf(vec) }, out],
    {
      M,
      N,
      K: batch * c.oh * c.oh,
      splits,
      consts: `${convConsts(c, batch)}\n${input.consts}`,
      helpers: input.code,
      loadA: `let ci = m % CI; let tap = m / CI; let kw = tap % KS; let kh = tap / KS;
      let ow = k % OH; let t = k / OH; let oh = t % OH; let n = t / OH; ${gatherInput(zeroOf(vec))}`,
      loadB: vec ? 'return vec4<f32>(dz[(k * CO + n) / 4]);' : 'return f32(dz[k * CO + n]);',
      vecA: vec ? 'm' : undefined,
      vecB: vec ? 'n' : undefined,
      store: splits > 1 ? 'part[split * M * N + m * N + n] = acc;' : 'G[WOFF + m * N + n] = acc;',
    },
  );
  if (splits === 1) return [main];
  return [main, splitSum(`${c.name} filter grad split sum`, scratch, M * N, splits, c.wOff)];
}

/** The second half of a reduction split over `splits` ranges: G[offset + i] = Σ part[q·total + i], in range order. */
function splitSum(label: string, part: string, total: number, splits: number, offset: number): Dispatch {
  return elementwise(
    label,
    [
      { name: 'part', buffer: part },
      { name: 'G', buffer: 'G', write: true },
    ],
    total,
    [constI('SPLITS', splits), constI('WOFF', offset)].join('\n'),
    '    var s = 0.0; for (var q = 0; q < SPLITS; q++) { s += part[q * TOTAL + i]; } G[WOFF + i] = s;',
  );
}

/** A batch norm: γ, β offsets in P/G, running statistics offset in R, batch statistics offset in S. @public */
export interface NormShape {
  readonly name: string;
  readonly channels: number;
  readonly gammaOff: number;
  readonly betaOff: number;
  readonly runningOff: number;
  readonly statsOff: number;
}

const EPS = 1e-5;
const MOMENTUM = 0.1;

/**
 * Batch statistics of z from the lines its convolution wrote (per tile of rows: Σz and Σ(z − tile mean)²),
 * combined in a fixed order (mean, then the centred variance as Σ M2ᵢ + nᵢ·(meanᵢ − mean)²), into S; and the
 * running mean/variance update (unbiased variance), as torch's BatchNorm2d in training mode.
 * @public
 */
export function normFinish(bn: NormShape, rows: number, tileRows: number, stats: string): Dispatch {
  const lines = Math.ceil(rows / tileRows);
  return channelReduce(
    `${bn.name} statistics`,
    [
      { name: 'stats', buffer: stats },
      { name: 'P', buffer: 'P' },
      { name: 'BNS', buffer: 'S', write: true },
      { name: 'R', buffer: 'R', write: true },
    ],
    {
      rows: lines,
      channels: bn.channels,
      consts: [
        constI('ROFF', bn.runningOff),
        constI('SOFF', bn.statsOff),
        constI('GOFF', bn.gammaOff),
        constI('BOFF', bn.betaOff),
        constI('NPIX', rows),
        constI('TR', tileRows),
        constF('MOM', MOMENTUM),
        constF('EPS', EPS),
      ].join('\n'),
      prepass: 's0 += stats[r * 2 * C + c];',
      pass: `let cnt = f32(min(TR, NPIX - r * TR)); let d = stats[r * 2 * C + c] / cnt - p0 / f32(NPIX);
      s0 += stats[r * 2 * C + C + c] + cnt * d * d;`,
      finish: `let mean = p0 / f32(NPIX); let variance = t0 / f32(NPIX); let rstd = inverseSqrt(variance + EPS);
    let scale = rstd * P[GOFF + c];
    BNS[SOFF + c] = mean; BNS[SOFF + C + c] = rstd; BNS[SOFF + 2 * C + c] = scale;
    BNS[SOFF + 3 * C + c] = P[BOFF + c] - mean * scale;
    R[ROFF + c] = R[ROFF + c] * (1.0 - MOM) + mean * MOM;
    R[ROFF + C + c] = R[ROFF + C + c] * (1.0 - MOM) + variance * (f32(NPIX) / f32(max(NPIX - 1, 1))) * MOM;`,
    },
  );
}

/**
 * Where a ReLU's output was positive, for its backward: the kept output (a block's output, y > 0) or, for a
 * normalised-on-load activation, recomputed from its own z and S. @public
 */
export type ReluMask = { readonly y: string } | 'own';

const xHat = (z: string, k: string) => `(f32(${z}[i]) - BNS[SOFF${k} + c]) * BNS[SOFF${k} + C + c]`;

/**
 * Backward of relu(bn(z)), first half: g = dy where the ReLU was active; Σg and Σg·x̂ per channel into
 * bs = [Σg, Σg·x̂], which are also dβ and dγ (written into G). Where `rows` exceed `chunkRows`, each workgroup
 * sums `chunkRows` rows into `part` ([chunk][Σg, Σg·x̂][C]) and a second dispatch adds them in chunk order.
 * @public
 */
export function normGradSums(
  bn: NormShape,
  rows: number,
  chunkRows: number,
  dy: string,
  mask: ReluMask,
  z: string,
  bs: string,
  part: string,
): Dispatch[] {
  const consts = [constI('GOFF', bn.gammaOff), constI('BOFF', bn.betaOff), constI('SOFF', bn.statsOff)].join('\n');
  const finish = 'bs[c] = t0; bs[C + c] = t1; G[BOFF + c] = t0; G[GOFF + c] = t1;';
  const outputs: Binding[] = [
    { name: 'bs', buffer: bs, write: true },
    { name: 'G', buffer: 'G', write: true },
  ];
  const inputs: Binding[] = [
    { name: 'dy', buffer: dy, type: 'act' },
    ...(mask === 'own' ? [] : [{ name: 'y', buffer: mask.y, type: 'act' } as const]),
    { name: 'z', buffer: z, type: 'act' },
    { name: 'BNS', buffer: 'S' },
  ];
  const active = mask === 'own' ? activeExpr('z', 'SOFF') : 'f32(y[i]) > 0.0';
  const pass = `let g = select(0.0, f32(dy[i]), ${active}); s0 += g; s1 += g * ${xHat('z', '')};`;
  const chunks = Math.ceil(rows / chunkRows);
  const label = `${bn.name} grad sums`;
  if (chunks === 1)
    return [channelReduce(label, [...inputs, ...outputs], { rows, channels: bn.channels, consts, pass, finish })];
  return [
    channelReduce(label, [...inputs, { name: 'part', buffer: part, write: true }], {
      rows,
      channels: bn.channels,
      consts,
      pass,
      chunkRows,
      finish: 'part[chunk * 2 * C + c] = t0; part[chunk * 2 * C + C + c] = t1;',
    }),
    channelReduce(`${label} split sum`, [{ name: 'part', buffer: part }, ...outputs], {
      rows: chunks,
      channels: bn.channels,
      consts: [constI('GOFF', bn.gammaOff), constI('BOFF', bn.betaOff)].join('\n'),
      pass: 's0 += part[r * 2 * C + c]; s1 += part[r * 2 * C + C + c];',
      finish,
    }),
  ];
}

/** One batch norm's part of the input-gradient kernel. @public */
export interface NormGradTerm {
  readonly bn: NormShape;
  readonly z: string;
  readonly bs: string;
  readonly dz: string;
}

/**
 * Backward of relu(bn(z)), second half: dz = γ·rstd·(g − Σg/n − x̂·Σg·x̂/n) with g = dy where the ReLU was
 * active; for a block output also the shortcut's dz (projection) or g itself (identity shortcut, into `skip`).
 * @public
 */
export function normInputGrad(
  rows: number,
  dy: string,
  mask: ReluMask,
  main: NormGradTerm,
  other?: NormGradTerm | { skip: string },
): Dispatch {
  const C = main.bn.channels;
  const bindings: Binding[] = [
    { name: 'dy', buffer: dy, type: 'act' },
    ...(mask === 'own' ? [] : [{ name: 'y', buffer: mask.y, type: 'act' } as const]),
    { name: 'P', buffer: 'P' },
    { name: 'BNS', buffer: 'S' },
  ];
  const consts = [constI('C', C), constF('NR', rows)];
  const term = (t: NormGradTerm, k: string) => {
    bindings.push(
      { name: `z${k}`, buffer: t.z, type: 'act' },
      { name: `bs${k}`, buffer: t.bs },
      { name: `dz${k}`, buffer: t.dz, write: true, type: 'act' },
    );
    consts.push(constI(`GOFF${k}`, t.bn.gammaOff), constI(`SOFF${k}`, t.bn.statsOff));
    return `    dz${k}[i] = act(P[GOFF${k} + c] * BNS[SOFF${k} + C + c] * (g - bs${k}[c] / NR - ${xHat(`z${k}`, k)} * bs${k}[C + c] / NR));`;
  };
  const lines = [term(main, 'a')];
  if (other && 'skip' in other) {
    bindings.push({ name: 'skip', buffer: other.skip, write: true, type: 'act' });
    lines.push('    skip[i] = act(g);');
  } else if (other) {
    lines.push(term(other, 'b'));
  }
  const active = mask === 'own' ? activeExpr('za', 'SOFFa') : 'f32(y[i]) > 0.0';
  return elementwise(
    `${main.bn.name} input grad`,
    bindings,
    rows * C,
    consts.join('\n'),
    `    let c = i % C; let g = select(0.0, f32(dy[i]), ${active});\n${lines.join('\n')}`,
  );
}

/**
 * Global average pool over the board, forward (reading the last block's output as it is normalised, and keeping
 * it for the backward) and backward.
 * @public
 */
export function poolForward(batch: number, hw: number, channels: number, y: Activation, feat: string): Dispatch {
  const input = activationReader(y, channels, false);
  return elementwise(
    'global average pool',
    [...input.bindings, { name: 'feat', buffer: feat, write: true }],
    batch * channels,
    [constI('HW', hw), constI('C', channels), input.consts].join('\n'),
    '    let n = i / C; let c = i % C; var s = 0.0; for (var p = 0; p < HW; p++) { s += inAt((n * HW + p) * C + c); } feat[i] = s / f32(HW);',
    input.code,
  );
}

/** @public */
export function poolBackward(batch: number, hw: number, channels: number, dfeat: string, dy: string): Dispatch {
  return elementwise(
    'global average pool grad',
    [
      { name: 'dfeat', buffer: dfeat },
      { name: 'dy', buffer: dy, write: true, type: 'act' },
    ],
    batch * hw * channels,
    [constI('HW', hw), constI('C', channels)].join('\n'),
    '    let c = i % C; let n = i / (HW * C); dy[i] = act(dfeat[n * C + c] / f32(HW));',
  );
}

/** A dense layer: weight [in, out] and bias [out] in P/G. @public */
export interface DenseShape {
  readonly name: string;
  readonly inputs: number;
  readonly outputs: number;
  readonly wOff: number;
  readonly bOff: number;
}

const denseConsts = (d: DenseShape) =>
  [constI('IN', d.inputs), constI('OUT', d.outputs), constI('WOFF', d.wOff), constI('BOFF', d.bOff)].join('\n');

/** out = x·W + b; with `preGelu`, the pre-activation goes there and out = GELU(it). @public */
export function denseForward(d: DenseShape, batch: number, x: string, out: string, preGelu?: string): Dispatch {
  const bindings = [
    { name: 'x', buffer: x },
    { name: 'P', buffer: 'P' },
    ...(preGelu ? [{ name: 'pre', buffer: preGelu, write: true }] : []),
    { name: 'out', buffer: out, write: true },
  ];
  return gemm(`${d.name} forward`, bindings, {
    M: batch,
    N: d.outputs,
    K: d.inputs,
    consts: denseConsts(d),
    helpers: preGelu ? GELU : '',
    loadA: 'return x[m * IN + k];',
    loadB: 'return P[WOFF + k * OUT + n];',
    store: preGelu
      ? 'let v = acc + P[BOFF + n]; pre[m * OUT + n] = v; out[m * OUT + n] = gelu(v);'
      : 'out[m * OUT + n] = acc + P[BOFF + n];',
  });
}

/** dW = xᵀ·dout and db = Σ dout in one GEMM (the bias is a row of ones appended to xᵀ). @public */
export function denseParamGrad(d: DenseShape, batch: number, x: string, dout: string): Dispatch {
  return gemm(
    `${d.name} weight grad`,
    [
      { name: 'x', buffer: x },
      { name: 'dout', buffer: dout },
      { name: 'G', buffer: 'G', write: true },
    ],
    {
      M: d.inputs + 1,
      N: d.outputs,
      K: batch,
      consts: denseConsts(d),
      loadA: 'if (m == IN) { return 1.0; } return x[k * IN + m];',
      loadB: 'return dout[k * OUT + n];',
      store: 'if (m == IN) { G[BOFF + n] = acc; } else { G[WOFF + m * OUT + n] = acc; }',
    },
  );
}

/** dx = dout·Wᵀ (+ addend) (× GELU′(pre) when the input was a GELU output). @public */
export function denseInputGrad(
  d: DenseShape,
  batch: number,
  dout: string,
  dx: string,
  o: { addend?: string; geluPre?: string } = {},
): Dispatch {
  const bindings = [
    { name: 'dout', buffer: dout },
    { name: 'P', buffer: 'P' },
    ...(o.addend ? [{ name: 'addend', buffer: o.addend }] : []),
    ...(o.geluPre ? [{ name: 'pre', buffer: o.geluPre }] : []),
    { name: 'dx', buffer: dx, write: true },
  ];
  return gemm(`${d.name} input grad`, bindings, {
    M: batch,
    N: d.inputs,
    K: d.outputs,
    consts: denseConsts(d),
    helpers: o.geluPre ? GELU : '',
    loadA: 'return dout[m * OUT + k];',
    loadB: 'return P[WOFF + n * OUT + k];',
    store: `var v = acc${o.addend ? ' + addend[m * IN + n]' : ''};${o.geluPre ? ' v = v * gelu_grad(pre[m * IN + n]);' : ''} dx[m * IN + n] = v;`,
  });
}

/** Stem: embedding of the board ids (channels 0–31) and the hand projection broadcast over the board (32–63). @public */
export function stemForward(batch: number, o: { embOff: number; handW: number; handB: number }): Dispatch {
  return elementwise(
    'stem',
    [
      { name: 'ids', buffer: 'ids', type: 'i32' },
      { name: 'hands', buffer: 'hands' },
      { name: 'P', buffer: 'P' },
      { name: 'x0', buffer: 'x0', write: true, type: 'act' },
    ],
    batch * 81 * 64,
    [constI('EOFF', o.embOff), constI('HW', o.handW), constI('HB', o.handB)].join('\n'),
    `    let ch = i % 64; let pos = i / 64; let n = pos / 81;
    if (ch < 32) { x0[i] = act(P[EOFF + ids[pos] * 32 + ch]); } else {
      let c = ch - 32; var s = P[HB + c];
      for (var k = 0; k < 14; k++) { s += hands[n * 14 + k] * P[HW + k * 32 + c]; }
      x0[i] = act(s);
    }`,
  );
}

/**
 * Embedding gradient: for each table entry, the sum of dx0 over the board squares holding that id; over `chunks` > 1
 * ranges of positions into `part`, then summed in range order.
 * @public
 */
export function embeddingGrad(
  batch: number,
  embOff: number,
  vocabulary: number,
  chunks: number,
  part: string,
): Dispatch[] {
  const positions = batch * 81;
  const entries = vocabulary * 32;
  const scan = (store: string) =>
    `    let q = i / ENTRIES; let j = i % ENTRIES; let v = j / 32; let c = j % 32; var s = 0.0;
    for (var p = q * CP; p < min(POS, (q + 1) * CP); p++) { if (ids[p] == v) { s += f32(dx0[p * 64 + c]); } } ${store}`;
  const inputs: Binding[] = [
    { name: 'ids', buffer: 'ids', type: 'i32' },
    { name: 'dx0', buffer: 'dx0', type: 'act' },
  ];
  const consts = [constI('POS', positions), constI('ENTRIES', entries), constI('CP', Math.ceil(positions / chunks))];
  if (chunks === 1) {
    return [
      elementwise(
        'embedding grad',
        [...inputs, { name: 'G', buffer: 'G', write: true }],
        entries,
        [constI('EOFF', embOff), ...consts].join('\n'),
        scan('G[EOFF + j] = s;'),
      ),
    ];
  }
  return [
    elementwise(
      'embedding grad',
      [...inputs, { name: 'part', buffer: part, write: true }],
      chunks * entries,
      consts.join('\n'),
      scan('part[i] = s;'),
    ),
    splitSum('embedding grad split sum', part, entries, chunks, embOff),
  ];
}

/** Hand projection's output gradient: dx0's hand channels summed over the board. @public */
export function handGrad(batch: number): Dispatch {
  return elementwise(
    'hand projection output grad',
    [
      { name: 'dx0', buffer: 'dx0', type: 'act' },
      { name: 'dh', buffer: 'dhand', write: true },
    ],
    batch * 32,
    '',
    '    let n = i / 32; let c = i % 32; var s = 0.0; for (var p = 0; p < 81; p++) { s += f32(dx0[(n * 81 + p) * 64 + 32 + c]); } dh[i] = s;',
  );
}

/**
 * Stage 3 loss per row, fused: move labels normalised to t, log-softmax and KL(t ‖ softmax) with its gradient
 * (softmax·Σt − t), and the value head's BCE with logits and its gradient (σ(v) − y); weighted by the loss
 * ratios over the batch.
 * @public
 */
export function stage3Loss(batch: number, classes: number, policy: number, value: number): Dispatch {
  const bindings = [
    { name: 'logits', buffer: 'logits' },
    { name: 'value', buffer: 'value' },
    { name: 'label', buffer: 'targetA' },
    { name: 'result', buffer: 'targetB' },
    { name: 'dlogits', buffer: 'dlogits', write: true },
    { name: 'dvalue', buffer: 'dvalue', write: true },
    { name: 'rowloss', buffer: 'rowloss', write: true },
  ];
  return rowKernel(
    'stage 3 loss',
    bindings,
    batch,
    [constI('L', classes), constF('NB', batch), constF('WP', policy), constF('WV', value)].join('\n'),
    `
  let o = r * L;
  var mass = 0.0; var mx = -3.0e38;
  for (var k = i32(t); k < L; k += 256) { mass += label[o + k]; mx = max(mx, logits[o + k]); }
  mass = wsum(mass, t); mx = wmax(mx, t);
  let inv = select(0.0, 1.0 / mass, mass > 0.0);
  let has = select(0.0, 1.0, mass > 0.0);
  var se = 0.0; var tz = 0.0; var tlogt = 0.0;
  for (var k = i32(t); k < L; k += 256) {
    let z = logits[o + k]; let tt = label[o + k] * inv;
    se += exp(z - mx); tz += tt * z; if (tt > 0.0) { tlogt += tt * log(tt); }
  }
  se = wsum(se, t); tz = wsum(tz, t); tlogt = wsum(tlogt, t);
  let lse = mx + log(se);
  for (var k = i32(t); k < L; k += 256) { dlogits[o + k] = (exp(logits[o + k] - lse) * has - label[o + k] * inv) * WP / NB; }
  if (t == 0u) {
    let v = value[r]; let y = result[r];
    dvalue[r] = (sigmoid(v) - y) * WV / NB;
    rowloss[r] = WP * (lse * has - tz + tlogt) / NB + WV * (softplus(v) - v * y) / NB;
  }`,
    `${SOFTPLUS}\n${SIGMOID}`,
  );
}

/** Stage 1 and 2 loss settings (maou's BCE with pos_weight, or the asymmetric loss). @public */
export interface MultiLabelSettings {
  readonly posWeight: number;
  readonly gammaPos: number;
  readonly gammaNeg: number;
  readonly clip: number;
}

/** Stage 1/2 loss per row with its gradient, the mean over every label of the batch. @public */
export function multiLabelLoss(batch: number, classes: number, o: MultiLabelSettings): Dispatch {
  const asymmetric = o.gammaPos > 0 || o.gammaNeg > 0 || o.clip > 0;
  const element = !asymmetric
    ? `let p = sigmoid(z);
      l = W * tt * softplus(-z) + (1.0 - tt) * softplus(z);
      d = -W * tt * (1.0 - p) + (1.0 - tt) * p;`
    : `let p = sigmoid(z); let logp = -softplus(-z);
      let pos = tt * logp * pw(1.0 - p, GP);
      let dpos = tt * pw(1.0 - p, GP) * ((1.0 - p) - GP * p * logp);
      var neg = 0.0; var dneg = 0.0;
      if (CLIP > 0.0) {
        let a = (1.0 - p) + CLIP; let q = min(a, 1.0); let dq = select(0.0, -p * (1.0 - p), a <= 1.0);
        neg = (1.0 - tt) * log(q) * pw(1.0 - q, GN);
        dneg = (1.0 - tt) * dq * (pw(1.0 - q, GN) / q - GN * pw(1.0 - q, GN - 1.0) * log(q));
      } else {
        neg = (1.0 - tt) * -softplus(z) * pw(p, GN);
        dneg = (1.0 - tt) * pw(p, GN) * (-p - GN * (1.0 - p) * softplus(z));
      }
      l = -(pos + neg); d = -(dpos + dneg);`;
  const bindings = [
    { name: 'logits', buffer: 'logits' },
    { name: 'label', buffer: 'targetA' },
    { name: 'dlogits', buffer: 'dlogits', write: true },
    { name: 'rowloss', buffer: 'rowloss', write: true },
  ];
  const consts = [
    constI('L', classes),
    constF('COUNT', batch * classes),
    constF('W', o.posWeight),
    constF('GP', o.gammaPos),
    constF('GN', o.gammaNeg),
    constF('CLIP', o.clip),
  ];
  return rowKernel(
    'multi-label loss',
    bindings,
    batch,
    consts.join('\n'),
    `
  let o = r * L;
  var s = 0.0;
  for (var k = i32(t); k < L; k += 256) {
    let z = logits[o + k]; let tt = label[o + k];
    var l = 0.0; var d = 0.0;
    ${element}
    s += l; dlogits[o + k] = d / COUNT;
  }
  s = wsum(s, t);
  if (t == 0u) { rowloss[r] = s / COUNT; }`,
    `${SOFTPLUS}\n${SIGMOID}\nfn pw(x: f32, y: f32) -> f32 { if (y == 0.0) { return 1.0; } if (x <= 0.0) { return 0.0; } return pow(x, y); }`,
  );
}

/** The loss: Σ of the rows' shares, into `loss[0]`. @public */
export function lossTotal(batch: number): Dispatch {
  return rowKernel(
    'loss total',
    [
      { name: 'rowloss', buffer: 'rowloss' },
      { name: 'loss', buffer: 'loss', write: true },
    ],
    1,
    constI('NB', batch),
    `
  var s = 0.0;
  for (var k = i32(t); k < NB; k += 256) { s += rowloss[k]; }
  s = wsum(s, t);
  if (t == 0u) { loss[0] = s; }`,
  );
}

/** Workgroups of the global-norm reduction (each sums a strided share of G). */
export const NORM_PARTS = 256;

/** Σg² over the flat gradient in NORM_PARTS partial sums (for clipping). @public */
export function gradientNormParts(parameters: number): Dispatch {
  return rowKernel(
    'gradient norm',
    [
      { name: 'G', buffer: 'G' },
      { name: 'part', buffer: 'normParts', write: true },
    ],
    NORM_PARTS,
    constI('NP', parameters),
    `
  var s = 0.0;
  for (var i = r * 256 + i32(t); i < NP; i += ${NORM_PARTS * 256}) { let g = G[i]; s += g * g; }
  s = wsum(s, t);
  if (t == 0u) { part[r] = s; }`,
  );
}

/**
 * Optimiser settings, fixed for a run (the update kernel reads them from its uniform); lr and the bias corrections
 * come per step in `hyper`.
 * @public
 */
export interface UpdateSettings {
  readonly optimizer: 'adamw' | 'sgd';
  readonly beta1: number;
  readonly beta2: number;
  readonly eps: number;
  readonly weightDecay: number;
  readonly momentum: number;
  readonly clip: number;
}

/**
 * One dispatch over the flat parameter buffer: gradient clipping by the global norm (from the partial sums),
 * then AdamW (decoupled decay where D = 1) or SGD with momentum (L2 decay where D = 1), torch semantics.
 * hyper = [lr, 1 − β1^t, √(1 − β2^t), first step ? 1 : 0]. With `lossScaled` (mixed precision) G holds the
 * gradients times the loss scale `scale[0]`: they are divided by it, the step is skipped when their squared norm
 * (the norm parts, always computed then) is inf or NaN, and t counts the applied steps (`scale[3]`), as PyTorch's
 * GradScaler skips `optimizer.step`.
 * @public
 */
export function parameterUpdate(parameters: number, s: UpdateSettings, lossScaled = false): Dispatch {
  const adam = s.optimizer === 'adamw';
  const bindings = [
    { name: 'P', buffer: 'P', write: true },
    { name: 'G', buffer: 'G' },
    { name: 'Mom', buffer: 'M', write: true },
    ...(adam ? [{ name: 'Vel', buffer: 'V', write: true }] : []),
    { name: 'D', buffer: 'D' },
    { name: 'hyper', buffer: 'hyper' },
    ...(s.clip > 0 || lossScaled ? [{ name: 'part', buffer: 'normParts' }] : []),
    ...(lossScaled ? [{ name: 'scale', buffer: 'scale' }] : []),
  ];
  const header = bindings
    .map((b, i) => `@group(0) @binding(${i}) var<storage, ${b.write ? 'read_write' : 'read'}> ${b.name}: array<f32>;`)
    .join('\n');
  const update = adam
    ? `let m = B1 * Mom[i] + (1.0 - B1) * g; let v = B2 * Vel[i] + (1.0 - B2) * g * g; Mom[i] = m; Vel[i] = v;
      P[i] = P[i] * (1.0 - lr * WD * D[i]) - (lr / bc1) * (m / (sqrt(v) / bc2 + EPS));`
    : `let gg = g + WD * D[i] * P[i]; var d = gg;
      if (MOMENTUM > 0.0) { if (first < 0.5) { d = MOMENTUM * Mom[i] + gg; } Mom[i] = d; }
      P[i] = P[i] - lr * d;`;
  const code = `${header}
${constI('NP', parameters)}
${[constF('B1', s.beta1), constF('B2', s.beta2), constF('EPS', s.eps), constF('WD', s.weightDecay), constF('MOMENTUM', s.momentum), constF('MAXNORM', s.clip)].join('\n')}
var<workgroup> red: array<f32, ${NORM_PARTS}>;
${lossScaled ? NON_FINITE : ''}
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  var coef = 1.0;
  ${
    s.clip > 0 || lossScaled
      ? `red[lid.x] = part[lid.x];
  workgroupBarrier();
  for (var k = 128u; k > 0u; k >>= 1u) { if (lid.x < k) { red[lid.x] += red[lid.x + k]; } workgroupBarrier(); }`
      : ''
  }
  ${lossScaled ? 'let unscale = 1.0 / scale[0]; if (non_finite(red[0])) { return; }' : 'let unscale = 1.0;'}
  ${s.clip > 0 ? 'coef = min(1.0, MAXNORM / (sqrt(red[0]) * unscale + 1e-6));' : ''}
  coef = coef * unscale;
  ${
    lossScaled
      ? `let t = scale[3] + 1.0;
  let lr = hyper[0]; let bc1 = 1.0 - pow(B1, t); let bc2 = sqrt(1.0 - pow(B2, t)); let first = select(0.0, 1.0, t == 1.0);`
      : 'let lr = hyper[0]; let bc1 = hyper[1]; let bc2 = hyper[2]; let first = hyper[3];'
  }
  let stride = i32(nwg.x) * 256;
  for (var i = i32(gid.x); i < NP; i += stride) {
    let g = G[i] * coef;
    ${update}
  }
}`;
  return dispatch(`${s.optimizer} update`, bindings, code, [
    Math.max(1, Math.min(4096, Math.ceil(parameters / 256))),
    1,
    1,
  ]);
}
