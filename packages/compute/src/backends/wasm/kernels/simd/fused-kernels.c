// Fused training kernels for the tfjs wasm backend: batch-norm forward (with an optional ReLU and the
// running statistics) and backward over channels-last data (rows x C), the AdamW update of one parameter
// tensor, the sum of squares and scaling of global-norm gradient clipping, and exact GELU and layer norm with
// their gradients.
// Copyright (c) maou-bench contributors. MIT licence.
//
// Built by scripts/build-simd-kernels.sh like conv-kernels.c, on the tfjs backend's own Memory: every pointer
// is a byte offset into the tfjs heap, and the module owns nothing there (no static data, no shadow stack:
// no local arrays, every temporary lives in a register or in a buffer the caller passes).
//
// Per-channel sums go block by block of BLOCK rows: within a block, a strip of 16 channels is summed down
// the rows in registers, and the block's partial sums are added to the totals in the output. The float32
// error then grows with BLOCK + rows/BLOCK instead of rows (a board of 9x9 at batch 128 is 10,368 rows), and
// each block is read from memory once. The arithmetic of every element-wise step is the composite tfjs ops'
// (same operations in the same order, no fused multiply-add),
// so the outputs agree with them to rounding of the statistics.
#include <wasm_simd128.h>

typedef float f32;

#define BLOCK 64

#define V wasm_v128_load
#define ADD wasm_f32x4_add
#define SUB wasm_f32x4_sub
#define MUL wasm_f32x4_mul
#define DIV wasm_f32x4_div
#define ZERO wasm_f32x4_splat(0)

static inline int min_int(int a, int b) { return a < b ? a : b; }

// out[c] = sum over rows of x[r, c] (centre == 0) or of (x[r, c] - centre[c])^2 (centre != 0).
// Row blocks are the outer loop, so a block is read from memory once and its channel strips from cache.
static inline __attribute__((always_inline)) void channel_sums(int rows, int C, const f32* x, const f32* centre,
                                                               f32* out) {
  for (int c = 0; c < C; c++) out[c] = 0;
  for (int r0 = 0; r0 < rows; r0 += BLOCK) {
    int r1 = min_int(r0 + BLOCK, rows);
    int c = 0;
    for (; c + 16 <= C; c += 16) {
      v128_t m0 = ZERO, m1 = ZERO, m2 = ZERO, m3 = ZERO;
      if (centre) {
        m0 = V(centre + c);
        m1 = V(centre + c + 4);
        m2 = V(centre + c + 8);
        m3 = V(centre + c + 12);
      }
      v128_t s0 = ZERO, s1 = ZERO, s2 = ZERO, s3 = ZERO;
      const f32* p = x + r0 * C + c;
      for (int r = r0; r < r1; r++, p += C) {
        v128_t a0 = V(p), a1 = V(p + 4), a2 = V(p + 8), a3 = V(p + 12);
        if (centre) {
          a0 = SUB(a0, m0);
          a1 = SUB(a1, m1);
          a2 = SUB(a2, m2);
          a3 = SUB(a3, m3);
          a0 = MUL(a0, a0);
          a1 = MUL(a1, a1);
          a2 = MUL(a2, a2);
          a3 = MUL(a3, a3);
        }
        s0 = ADD(s0, a0);
        s1 = ADD(s1, a1);
        s2 = ADD(s2, a2);
        s3 = ADD(s3, a3);
      }
      wasm_v128_store(out + c, ADD(V(out + c), s0));
      wasm_v128_store(out + c + 4, ADD(V(out + c + 4), s1));
      wasm_v128_store(out + c + 8, ADD(V(out + c + 8), s2));
      wasm_v128_store(out + c + 12, ADD(V(out + c + 12), s3));
    }
    for (; c + 4 <= C; c += 4) {
      v128_t m0 = centre ? V(centre + c) : ZERO;
      v128_t s0 = ZERO;
      const f32* p = x + r0 * C + c;
      for (int r = r0; r < r1; r++, p += C) {
        v128_t a0 = V(p);
        if (centre) {
          a0 = SUB(a0, m0);
          a0 = MUL(a0, a0);
        }
        s0 = ADD(s0, a0);
      }
      wasm_v128_store(out + c, ADD(V(out + c), s0));
    }
    for (; c < C; c++) {
      f32 m = centre ? centre[c] : 0, s = 0;
      for (int r = r0; r < r1; r++) {
        f32 a = x[r * C + c];
        if (centre) a = (a - m) * (a - m);
        s += a;
      }
      out[c] += s;
    }
  }
}

// Batch-norm training forward: mean and biased variance per channel (two passes: the variance sums squared
// deviations from the mean, no cancellation), rstd = 1/sqrt(var + eps), xhat = (x - mean)·rstd,
// y = xhat·gamma + beta, then y = (y < 0 ? 0 : y) when relu (as tfjs's relu: NaN and -0 pass). With
// run_mean_in (0: none) also the running statistics, as the composite ops: mean'·keep + mean·momentum and
// var'·keep + (var·unbias)·momentum.
// bn_rows is not inlined: two specialised copies inside bn_train made its plain forward 25 % slower (V8).
static __attribute__((noinline)) void bn_rows(int rows, int C, const f32* x, const f32* gamma, const f32* beta,
                                              f32* y, f32* xhat, const f32* mean, const f32* rstd, int relu) {
  for (int r = 0; r < rows; r++) {
    const f32* xr = x + r * C;
    f32* hr = xhat + r * C;
    f32* yr = y + r * C;
    int c = 0;
    for (; c + 4 <= C; c += 4) {
      v128_t h = MUL(SUB(V(xr + c), V(mean + c)), V(rstd + c));
      v128_t o = ADD(MUL(h, V(gamma + c)), V(beta + c));
      wasm_v128_store(hr + c, h);
      wasm_v128_store(yr + c, relu ? wasm_f32x4_pmax(o, ZERO) : o);
    }
    for (; c < C; c++) {
      f32 h = (xr[c] - mean[c]) * rstd[c];
      f32 o = h * gamma[c] + beta[c];
      hr[c] = h;
      yr[c] = relu && o < 0 ? 0 : o;
    }
  }
}

__attribute__((export_name("bn_train"))) void bn_train(int rows, int C, const f32* x, const f32* gamma,
                                                       const f32* beta, f32 eps, f32* y, f32* xhat, f32* mean,
                                                       f32* var, f32* rstd, int relu, const f32* run_mean_in,
                                                       const f32* run_var_in, f32* run_mean_out,
                                                       f32* run_var_out, f32 keep, f32 momentum, f32 unbias) {
  f32 n = (f32)rows;
  channel_sums(rows, C, x, 0, mean);
  for (int c = 0; c < C; c++) mean[c] = mean[c] / n;
  channel_sums(rows, C, x, mean, var);
  for (int c = 0; c < C; c++) {
    var[c] = var[c] / n;
    rstd[c] = 1.0f / __builtin_sqrtf(var[c] + eps);
  }
  if (run_mean_in) {
    for (int c = 0; c < C; c++) {
      run_mean_out[c] = run_mean_in[c] * keep + mean[c] * momentum;
      run_var_out[c] = run_var_in[c] * keep + (var[c] * unbias) * momentum;
    }
  }
  bn_rows(rows, C, x, gamma, beta, y, xhat, mean, rstd, relu);
}

// Batch-norm backward: dbeta = sum dy, dgamma = sum dy·xhat (one pass over both), then
// dx = (dy - dbeta/n - xhat·dgamma/n)·(rstd·gamma). scratch holds 3·C floats (the per-channel factors).
// After a fused ReLU, y is the forward's output and dy counts only where y > 0 (relu's gradient); the mask
// is applied as dy is read, in both passes, so no masked copy is written.
#define MASK(d, at) (relu ? wasm_v128_and((d), wasm_f32x4_gt(V(at), ZERO)) : (d))
#define MASK1(d, at) (relu && !((at) > 0) ? 0.0f : (d))

static inline __attribute__((always_inline)) void bn_grad_impl(int rows, int C, const f32* dy, const f32* xhat,
                                                               const f32* rstd, const f32* gamma, f32* dx,
                                                               f32* dgamma, f32* dbeta, f32* scratch,
                                                               const f32* y, int relu) {
  int c;
  for (c = 0; c < C; c++) dbeta[c] = dgamma[c] = 0;
  for (int r0 = 0; r0 < rows; r0 += BLOCK) {
    int r1 = min_int(r0 + BLOCK, rows);
    for (c = 0; c + 16 <= C; c += 16) {
      v128_t b0 = ZERO, b1 = ZERO, b2 = ZERO, b3 = ZERO, g0 = ZERO, g1 = ZERO, g2 = ZERO, g3 = ZERO;
      const f32* p = dy + r0 * C + c;
      const f32* h = xhat + r0 * C + c;
      const f32* q = relu ? y + r0 * C + c : 0;
      for (int r = r0; r < r1; r++, p += C, h += C, q += relu ? C : 0) {
        v128_t d0 = MASK(V(p), q), d1 = MASK(V(p + 4), q + 4), d2 = MASK(V(p + 8), q + 8),
               d3 = MASK(V(p + 12), q + 12);
        b0 = ADD(b0, d0);
        b1 = ADD(b1, d1);
        b2 = ADD(b2, d2);
        b3 = ADD(b3, d3);
        g0 = ADD(g0, MUL(d0, V(h)));
        g1 = ADD(g1, MUL(d1, V(h + 4)));
        g2 = ADD(g2, MUL(d2, V(h + 8)));
        g3 = ADD(g3, MUL(d3, V(h + 12)));
      }
      wasm_v128_store(dbeta + c, ADD(V(dbeta + c), b0));
      wasm_v128_store(dbeta + c + 4, ADD(V(dbeta + c + 4), b1));
      wasm_v128_store(dbeta + c + 8, ADD(V(dbeta + c + 8), b2));
      wasm_v128_store(dbeta + c + 12, ADD(V(dbeta + c + 12), b3));
      wasm_v128_store(dgamma + c, ADD(V(dgamma + c), g0));
      wasm_v128_store(dgamma + c + 4, ADD(V(dgamma + c + 4), g1));
      wasm_v128_store(dgamma + c + 8, ADD(V(dgamma + c + 8), g2));
      wasm_v128_store(dgamma + c + 12, ADD(V(dgamma + c + 12), g3));
    }
    for (; c + 4 <= C; c += 4) {
      v128_t b0 = ZERO, g0 = ZERO;
      const f32* p = dy + r0 * C + c;
      const f32* h = xhat + r0 * C + c;
      const f32* q = relu ? y + r0 * C + c : 0;
      for (int r = r0; r < r1; r++, p += C, h += C, q += relu ? C : 0) {
        v128_t d0 = MASK(V(p), q);
        b0 = ADD(b0, d0);
        g0 = ADD(g0, MUL(d0, V(h)));
      }
      wasm_v128_store(dbeta + c, ADD(V(dbeta + c), b0));
      wasm_v128_store(dgamma + c, ADD(V(dgamma + c), g0));
    }
    for (; c < C; c++) {
      f32 b = 0, g = 0;
      for (int r = r0; r < r1; r++) {
        f32 d = MASK1(dy[r * C + c], relu ? y[r * C + c] : 0);
        b += d;
        g += d * xhat[r * C + c];
      }
      dbeta[c] += b;
      dgamma[c] += g;
    }
  }
  f32 n = (f32)rows;
  f32* mb = scratch;
  f32* mg = scratch + C;
  f32* k = scratch + 2 * C;
  for (c = 0; c < C; c++) {
    mb[c] = dbeta[c] / n;
    mg[c] = dgamma[c] / n;
    k[c] = rstd[c] * gamma[c];
  }
  for (int r = 0; r < rows; r++) {
    const f32* p = dy + r * C;
    const f32* h = xhat + r * C;
    const f32* q = relu ? y + r * C : 0;
    f32* o = dx + r * C;
    c = 0;
    for (; c + 4 <= C; c += 4) {
      v128_t inner = SUB(SUB(MASK(V(p + c), q + c), V(mb + c)), MUL(V(h + c), V(mg + c)));
      wasm_v128_store(o + c, MUL(inner, V(k + c)));
    }
    for (; c < C; c++) o[c] = ((MASK1(p[c], relu ? q[c] : 0) - mb[c]) - h[c] * mg[c]) * k[c];
  }
}

// y: the fused ReLU's output (0 without one).
__attribute__((export_name("bn_grad"))) void bn_grad(int rows, int C, const f32* dy, const f32* xhat,
                                                     const f32* rstd, const f32* gamma, f32* dx, f32* dgamma,
                                                     f32* dbeta, f32* scratch, const f32* y) {
  if (y)
    bn_grad_impl(rows, C, dy, xhat, rstd, gamma, dx, dgamma, dbeta, scratch, y, 1);
  else
    bn_grad_impl(rows, C, dy, xhat, rstd, gamma, dx, dgamma, dbeta, scratch, 0, 0);
}

// AdamW (torch): m' = m·beta1 + g·(1 - beta1), v' = v·beta2 + g²·(1 - beta2),
// p' = p·decay - m' / (sqrt(v')/bc2 + eps) · step, with decay = 1 - lr·wd (1 without decay) and
// step = lr/bc1. The scalars arrive rounded to float32, as tfjs rounds its scalar operands.
__attribute__((export_name("adamw"))) void adamw(int count, const f32* p, const f32* g, const f32* m,
                                                 const f32* v, f32* po, f32* mo, f32* vo, f32 beta1,
                                                 f32 one_minus_beta1, f32 beta2, f32 one_minus_beta2, f32 decay,
                                                 f32 bc2, f32 eps, f32 step) {
  v128_t b1 = wasm_f32x4_splat(beta1), c1 = wasm_f32x4_splat(one_minus_beta1);
  v128_t b2 = wasm_f32x4_splat(beta2), c2 = wasm_f32x4_splat(one_minus_beta2);
  v128_t dk = wasm_f32x4_splat(decay), bc = wasm_f32x4_splat(bc2), e = wasm_f32x4_splat(eps);
  v128_t st = wasm_f32x4_splat(step);
  int i = 0;
  for (; i + 4 <= count; i += 4) {
    v128_t gi = V(g + i);
    v128_t mi = ADD(MUL(V(m + i), b1), MUL(gi, c1));
    v128_t vi = ADD(MUL(V(v + i), b2), MUL(MUL(gi, gi), c2));
    v128_t update = DIV(mi, ADD(DIV(wasm_f32x4_sqrt(vi), bc), e));
    wasm_v128_store(mo + i, mi);
    wasm_v128_store(vo + i, vi);
    wasm_v128_store(po + i, SUB(MUL(V(p + i), dk), MUL(update, st)));
  }
  for (; i < count; i++) {
    f32 mi = m[i] * beta1 + g[i] * one_minus_beta1;
    f32 vi = v[i] * beta2 + (g[i] * g[i]) * one_minus_beta2;
    f32 update = mi / (__builtin_sqrtf(vi) / bc2 + eps);
    mo[i] = mi;
    vo[i] = vi;
    po[i] = p[i] * decay - update * step;
  }
}

// dst[r*dst_stride + j] = src[r*src_stride + j] for r < rows, j < width: one input's part of a concat, or
// one output's part of a split, along any axis (rows = the outer dims, width = the axis part of a row).
__attribute__((export_name("copy_rows"))) void copy_rows(int rows, int width, const f32* src, int src_stride,
                                                         f32* dst, int dst_stride) {
  for (int r = 0; r < rows; r++, src += src_stride, dst += dst_stride) {
    int j = 0;
    for (; j + 4 <= width; j += 4) wasm_v128_store(dst + j, V(src + j));
    for (; j < width; j++) dst[j] = src[j];
  }
}

// Sum of x[i]² over count floats, for the global gradient norm: 16 lanes summed over chunks of CHUNK floats,
// each chunk's sum added to the total, so the float32 error grows with CHUNK/16 + count/CHUNK.
#define CHUNK 1024
__attribute__((export_name("sum_squares"))) f32 sum_squares(int count, const f32* x) {
  v128_t t0 = ZERO, t1 = ZERO, t2 = ZERO, t3 = ZERO;
  int i = 0;
  while (i + 16 <= count) {
    int end = min_int(i + CHUNK, count & ~15);
    v128_t s0 = ZERO, s1 = ZERO, s2 = ZERO, s3 = ZERO;
    for (; i < end; i += 16) {
      v128_t a0 = V(x + i), a1 = V(x + i + 4), a2 = V(x + i + 8), a3 = V(x + i + 12);
      s0 = ADD(s0, MUL(a0, a0));
      s1 = ADD(s1, MUL(a1, a1));
      s2 = ADD(s2, MUL(a2, a2));
      s3 = ADD(s3, MUL(a3, a3));
    }
    t0 = ADD(t0, s0);
    t1 = ADD(t1, s1);
    t2 = ADD(t2, s2);
    t3 = ADD(t3, s3);
  }
  v128_t t = ADD(ADD(t0, t1), ADD(t2, t3));
  f32 s = (wasm_f32x4_extract_lane(t, 0) + wasm_f32x4_extract_lane(t, 1)) +
          (wasm_f32x4_extract_lane(t, 2) + wasm_f32x4_extract_lane(t, 3));
  f32 tail = 0;
  for (; i < count; i++) tail += x[i] * x[i];
  return s + tail;
}

// dst[i] = src[i]·k over count floats (the clipped gradient).
__attribute__((export_name("scale"))) void scale(int count, const f32* src, f32* dst, f32 k) {
  v128_t kv = wasm_f32x4_splat(k);
  int i = 0;
  for (; i + 4 <= count; i += 4) wasm_v128_store(dst + i, MUL(V(src + i), kv));
  for (; i < count; i++) dst[i] = src[i] * k;
}

// exp(x) for x <= ~0 (GELU needs no more): x = n·ln2 + r, |r| <= ln2/2, e^r by Cephes' expf polynomial, 2^n
// from the exponent bits; below -87 the result is clamped to ~1e-38 (it only ever multiplies a bounded value).
static inline __attribute__((always_inline)) v128_t exp_neg(v128_t x) {
  x = wasm_f32x4_max(x, wasm_f32x4_splat(-87.0f));
  v128_t n = wasm_f32x4_nearest(MUL(x, wasm_f32x4_splat(1.44269504088896341f)));
  v128_t r = SUB(SUB(x, MUL(n, wasm_f32x4_splat(0.693359375f))), MUL(n, wasm_f32x4_splat(-2.12194440e-4f)));
  v128_t p = wasm_f32x4_splat(1.9875691500e-4f);
  p = ADD(MUL(p, r), wasm_f32x4_splat(1.3981999507e-3f));
  p = ADD(MUL(p, r), wasm_f32x4_splat(8.3334519073e-3f));
  p = ADD(MUL(p, r), wasm_f32x4_splat(4.1665795894e-2f));
  p = ADD(MUL(p, r), wasm_f32x4_splat(1.6666665459e-1f));
  p = ADD(MUL(p, r), wasm_f32x4_splat(5.0000001201e-1f));
  p = ADD(ADD(MUL(MUL(p, r), r), r), wasm_f32x4_splat(1.0f));
  v128_t bits = wasm_i32x4_shl(wasm_i32x4_add(wasm_i32x4_trunc_sat_f32x4(n), wasm_i32x4_splat(127)), 23);
  return MUL(p, bits);
}

// Φ(x) = ½·erfc(-x/√2), with erfc(z) = t·exp(-z² + P(t)), t = 1/(1 + z/2), z >= 0 (Numerical Recipes' erfcc,
// relative error < 1.2e-7 everywhere): the small tail is computed directly instead of as 1 − erf, so Φ keeps its
// relative precision for negative x, where tfjs's Erf (Abramowitz & Stegun 7.1.26) is accurate to 1.5e-7 absolute.
static inline __attribute__((always_inline)) v128_t normal_cdf(v128_t x) {
  v128_t z = MUL(wasm_f32x4_abs(x), wasm_f32x4_splat(0.70710678118654752f));
  v128_t t = DIV(wasm_f32x4_splat(1.0f), ADD(wasm_f32x4_splat(1.0f), MUL(z, wasm_f32x4_splat(0.5f))));
  v128_t p = wasm_f32x4_splat(0.17087277f);
  p = ADD(MUL(p, t), wasm_f32x4_splat(-0.82215223f));
  p = ADD(MUL(p, t), wasm_f32x4_splat(1.48851587f));
  p = ADD(MUL(p, t), wasm_f32x4_splat(-1.13520398f));
  p = ADD(MUL(p, t), wasm_f32x4_splat(0.27886807f));
  p = ADD(MUL(p, t), wasm_f32x4_splat(-0.18628806f));
  p = ADD(MUL(p, t), wasm_f32x4_splat(0.09678418f));
  p = ADD(MUL(p, t), wasm_f32x4_splat(0.37409196f));
  p = ADD(MUL(p, t), wasm_f32x4_splat(1.00002368f));
  p = ADD(MUL(p, t), wasm_f32x4_splat(-1.26551223f));
  v128_t tail = MUL(MUL(t, exp_neg(SUB(p, MUL(z, z)))), wasm_f32x4_splat(0.5f));
  return wasm_v128_bitselect(tail, SUB(wasm_f32x4_splat(1.0f), tail), wasm_f32x4_lt(x, ZERO));
}

static inline v128_t load_tail(const f32* p, int n) {
  return wasm_f32x4_make(p[0], n > 1 ? p[1] : 0, n > 2 ? p[2] : 0, 0);
}

static inline void store_tail(f32* p, v128_t v, int n) {
  p[0] = wasm_f32x4_extract_lane(v, 0);
  if (n > 1) p[1] = wasm_f32x4_extract_lane(v, 1);
  if (n > 2) p[2] = wasm_f32x4_extract_lane(v, 2);
}

// Exact GELU: y = x·Φ(x), and Φ(x) kept for the backward pass.
__attribute__((export_name("gelu"))) void gelu(int count, const f32* x, f32* y, f32* cdf) {
  int i = 0;
  for (; i + 4 <= count; i += 4) {
    v128_t xi = V(x + i), c = normal_cdf(xi);
    wasm_v128_store(cdf + i, c);
    wasm_v128_store(y + i, MUL(xi, c));
  }
  if (i < count) {
    v128_t xi = load_tail(x + i, count - i), c = normal_cdf(xi);
    store_tail(cdf + i, c, count - i);
    store_tail(y + i, MUL(xi, c), count - i);
  }
}

// dx = dy·(Φ(x) + x·φ(x)), Φ from the forward pass.
static inline __attribute__((always_inline)) v128_t gelu_grad4(v128_t dy, v128_t x, v128_t cdf) {
  v128_t pdf = MUL(exp_neg(MUL(MUL(x, x), wasm_f32x4_splat(-0.5f))), wasm_f32x4_splat(0.39894228040143268f));
  return MUL(dy, ADD(cdf, MUL(x, pdf)));
}

__attribute__((export_name("gelu_grad"))) void gelu_grad(int count, const f32* dy, const f32* x, const f32* cdf,
                                                         f32* dx) {
  int i = 0;
  for (; i + 4 <= count; i += 4) wasm_v128_store(dx + i, gelu_grad4(V(dy + i), V(x + i), V(cdf + i)));
  if (i < count) {
    int n = count - i;
    store_tail(dx + i, gelu_grad4(load_tail(dy + i, n), load_tail(x + i, n), load_tail(cdf + i, n)), n);
  }
}

// Dropout keep-mask (the engine's dropoutMask): scale where lowbias32(i ^ key) >= threshold (unsigned), else 0.
static inline __attribute__((always_inline)) v128_t lowbias32x4(v128_t x) {
  x = wasm_v128_xor(x, wasm_u32x4_shr(x, 16));
  x = wasm_i32x4_mul(x, wasm_i32x4_splat(0x7feb352d));
  x = wasm_v128_xor(x, wasm_u32x4_shr(x, 15));
  x = wasm_i32x4_mul(x, wasm_i32x4_splat((int)0x846ca68bu));
  return wasm_v128_xor(x, wasm_u32x4_shr(x, 16));
}

__attribute__((export_name("dropout_mask"))) void dropout_mask(int count, unsigned key, unsigned threshold, f32 scale,
                                                               f32* out) {
  v128_t index = wasm_i32x4_make(0, 1, 2, 3);
  const v128_t k = wasm_i32x4_splat((int)key), t = wasm_i32x4_splat((int)threshold), s = wasm_f32x4_splat(scale);
  int i = 0;
  for (; i + 4 <= count; i += 4) {
    v128_t keep = wasm_u32x4_ge(lowbias32x4(wasm_v128_xor(index, k)), t);
    wasm_v128_store(out + i, wasm_v128_and(keep, s));
    index = wasm_i32x4_add(index, wasm_i32x4_splat(4));
  }
  if (i < count) store_tail(out + i, wasm_v128_and(wasm_u32x4_ge(lowbias32x4(wasm_v128_xor(index, k)), t), s), count - i);
}

// Sum of a row of C floats: four lanes, then the tail.
static inline f32 row_sum(int C, const f32* x) {
  v128_t s = ZERO;
  int j = 0;
  for (; j + 4 <= C; j += 4) s = ADD(s, V(x + j));
  f32 t = (wasm_f32x4_extract_lane(s, 0) + wasm_f32x4_extract_lane(s, 1)) +
          (wasm_f32x4_extract_lane(s, 2) + wasm_f32x4_extract_lane(s, 3));
  for (; j < C; j++) t += x[j];
  return t;
}

// Layer norm over the last axis: per row, mean and the variance of the centred row (two passes), rstd =
// 1/sqrt(var + eps), xhat = (x − mean)·rstd, y = xhat·γ + β. xhat doubles as the centred row's scratch.
__attribute__((export_name("ln_fwd"))) void ln_fwd(int rows, int C, const f32* x, const f32* gamma, const f32* beta,
                                                   f32 eps, f32* y, f32* xhat, f32* rstd) {
  for (int r = 0; r < rows; r++, x += C, y += C, xhat += C) {
    f32 mean = row_sum(C, x) / (f32)C;
    v128_t mv = wasm_f32x4_splat(mean), sq = ZERO;
    int j = 0;
    for (; j + 4 <= C; j += 4) {
      v128_t d = SUB(V(x + j), mv);
      wasm_v128_store(xhat + j, d);
      sq = ADD(sq, MUL(d, d));
    }
    f32 var = (wasm_f32x4_extract_lane(sq, 0) + wasm_f32x4_extract_lane(sq, 1)) +
              (wasm_f32x4_extract_lane(sq, 2) + wasm_f32x4_extract_lane(sq, 3));
    for (; j < C; j++) {
      xhat[j] = x[j] - mean;
      var += xhat[j] * xhat[j];
    }
    f32 rs = 1.0f / __builtin_sqrtf(var / (f32)C + eps);
    rstd[r] = rs;
    v128_t rv = wasm_f32x4_splat(rs);
    for (j = 0; j + 4 <= C; j += 4) {
      v128_t h = MUL(V(xhat + j), rv);
      wasm_v128_store(xhat + j, h);
      wasm_v128_store(y + j, ADD(MUL(h, V(gamma + j)), V(beta + j)));
    }
    for (; j < C; j++) {
      xhat[j] *= rs;
      y[j] = xhat[j] * gamma[j] + beta[j];
    }
  }
}

// Its backward: per row g = dy·γ, dx = rstd·(g − mean(g) − xhat·mean(g·xhat)); over all rows dγ = Σ dy·xhat and
// dβ = Σ dy, summed block by block of BLOCK rows into `scratch` (2·C floats) and then into the totals, so the
// float32 error grows with BLOCK + rows/BLOCK.
__attribute__((export_name("ln_grad"))) void ln_grad(int rows, int C, const f32* dy, const f32* xhat,
                                                     const f32* rstd, const f32* gamma, f32* dx, f32* dgamma,
                                                     f32* dbeta, f32* scratch) {
  f32* pg = scratch;
  f32* pb = scratch + C;
  for (int j = 0; j < C; j++) dgamma[j] = dbeta[j] = 0;
  for (int r0 = 0; r0 < rows; r0 += BLOCK) {
    int r1 = min_int(r0 + BLOCK, rows);
    for (int j = 0; j < C; j++) pg[j] = pb[j] = 0;
    for (int r = r0; r < r1; r++) {
      const f32* d = dy + r * C;
      const f32* h = xhat + r * C;
      f32* o = dx + r * C;
      v128_t s1 = ZERO, s2 = ZERO;
      int j = 0;
      for (; j + 4 <= C; j += 4) {
        v128_t dv = V(d + j), hv = V(h + j), g = MUL(dv, V(gamma + j));
        s1 = ADD(s1, g);
        s2 = ADD(s2, MUL(g, hv));
        wasm_v128_store(pg + j, ADD(V(pg + j), MUL(dv, hv)));
        wasm_v128_store(pb + j, ADD(V(pb + j), dv));
      }
      f32 m1 = (wasm_f32x4_extract_lane(s1, 0) + wasm_f32x4_extract_lane(s1, 1)) +
               (wasm_f32x4_extract_lane(s1, 2) + wasm_f32x4_extract_lane(s1, 3));
      f32 m2 = (wasm_f32x4_extract_lane(s2, 0) + wasm_f32x4_extract_lane(s2, 1)) +
               (wasm_f32x4_extract_lane(s2, 2) + wasm_f32x4_extract_lane(s2, 3));
      for (; j < C; j++) {
        f32 g = d[j] * gamma[j];
        m1 += g;
        m2 += g * h[j];
        pg[j] += d[j] * h[j];
        pb[j] += d[j];
      }
      m1 /= (f32)C;
      m2 /= (f32)C;
      v128_t m1v = wasm_f32x4_splat(m1), m2v = wasm_f32x4_splat(m2), rv = wasm_f32x4_splat(rstd[r]);
      for (j = 0; j + 4 <= C; j += 4) {
        v128_t g = MUL(V(d + j), V(gamma + j));
        wasm_v128_store(o + j, MUL(rv, SUB(SUB(g, m1v), MUL(V(h + j), m2v))));
      }
      for (; j < C; j++) o[j] = rstd[r] * ((d[j] * gamma[j] - m1) - h[j] * m2);
    }
    for (int j = 0; j < C; j++) {
      dgamma[j] += pg[j];
      dbeta[j] += pb[j];
    }
  }
}
