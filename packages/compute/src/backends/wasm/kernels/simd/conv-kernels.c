// NHWC convolution kernels for the tfjs wasm backend: forward, input gradient (dx), filter gradient (dW).
// Copyright (c) maou-bench contributors. MIT licence.
//
// Built by scripts/build-simd-kernels.sh into a module that imports the tfjs backend's own Memory, so every
// pointer below is a byte offset into the tfjs heap. The module therefore must not own anything in that heap:
// no static data (it would overwrite tfjs memory at instantiation) and no shadow stack (its stack pointer
// would alias tfjs's). The build script rejects any output that has a data segment or touches a global.
//
// All three kernels are matrix products on 4x8 register tiles (4 rows, two f32x4 of columns: 8 accumulators
// out of wasm's 16 SIMD registers). The convolution is an implicit im2col: instead of copying patches, a
// per-geometry index table `ind[m*T + t]` names the input pixel (row of x) read by output pixel m at tap t,
// or -1 where that tap falls in the padding.
#include <wasm_simd128.h>

typedef float f32;

#define NR 8
// Weight panels are blocked to stay in L2 while 4-row tiles stream through them.
#define PANEL_BYTES (160 * 1024)
// dW reduces over pixel pairs in chunks so a 4x8 tile of dW is updated from registers, not memory, per pair.
#define PAIR_CHUNK 64

#define MADD(a, b, c) wasm_f32x4_add((c), wasm_f32x4_mul((a), (b)))

#define TILE_DECL                                                                                             \
  v128_t c00 = wasm_f32x4_splat(0), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00, c30 = c00, c31 = c00

// One rank-1 update of the 4x8 tile: a-scalars from four rows times the 8-wide b row (b0, b1).
#define TILE_STEP(p0, p1, p2, p3, k, b0, b1)                                                            \
  {                                                                                                     \
    v128_t s_;                                                                                          \
    s_ = wasm_v128_load32_splat((p0) + (k)); c00 = MADD(s_, b0, c00); c01 = MADD(s_, b1, c01);          \
    s_ = wasm_v128_load32_splat((p1) + (k)); c10 = MADD(s_, b0, c10); c11 = MADD(s_, b1, c11);          \
    s_ = wasm_v128_load32_splat((p2) + (k)); c20 = MADD(s_, b0, c20); c21 = MADD(s_, b1, c21);          \
    s_ = wasm_v128_load32_splat((p3) + (k)); c30 = MADD(s_, b0, c30); c31 = MADD(s_, b1, c31);          \
  }

static inline void store8(f32* c, v128_t v0, v128_t v1, int accumulate) {
  if (accumulate) {
    v0 = wasm_f32x4_add(v0, wasm_v128_load(c));
    v1 = wasm_f32x4_add(v1, wasm_v128_load(c + 4));
  }
  wasm_v128_store(c, v0);
  wasm_v128_store(c + 4, v1);
}

static inline int min_int(int a, int b) { return a < b ? a : b; }

__attribute__((export_name("zero"))) void zero(f32* p, int n) {
  int i = 0;
  for (; i + 4 <= n; i += 4) wasm_v128_store(p + i, wasm_f32x4_splat(0));
  for (; i < n; i++) p[i] = 0;
}

// w [K, N] row-major (HWIO filters are [T*Ci, Co]) -> panels [N/8][K][8], so the tile reads 8 contiguous
// floats per k. N % 8 == 0.
__attribute__((export_name("pack_w"))) void pack_w(int K, int N, const f32* w, f32* out) {
  for (int n0 = 0; n0 < N; n0 += NR)
    for (int k = 0; k < K; k++, out += NR) {
      wasm_v128_store(out, wasm_v128_load(w + k * N + n0));
      wasm_v128_store(out + 4, wasm_v128_load(w + k * N + n0 + 4));
    }
}

// The transposed panels for dx = dy * W^T: w is [N, K] (N = T*Ci rows, K = Co), out is [N/8][K][8]. N % 8 == 0.
__attribute__((export_name("pack_wt"))) void pack_wt(int K, int N, const f32* w, f32* out) {
  for (int n0 = 0; n0 < N; n0 += NR)
    for (int k = 0; k < K; k++, out += NR)
      for (int j = 0; j < NR; j++) out[j] = w[(n0 + j) * K + k];
}

// y [M, Co] = im2col(x) [M, T*Ci] * W [T*Ci, Co]; wp from pack_w(T*Ci, Co); zrow holds Ci zeros (padding taps).
// Co % 8 == 0.
__attribute__((export_name("conv_fwd"))) void conv_fwd(int M, int T, int Ci, int Co, const int* ind, const f32* x,
                                                       const f32* zrow, const f32* wp, f32* y) {
  int K = T * Ci;
  int panels = Co / NR;
  int block = PANEL_BYTES / (K * NR * 4);
  if (block < 1) block = 1;
  for (int p0 = 0; p0 < panels; p0 += block) {
    int p1 = min_int(p0 + block, panels);
    for (int m0 = 0; m0 < M; m0 += 4) {
      int mr = min_int(M - m0, 4);
      // A short last tile repeats its last row; only the real rows are stored.
      const int* r0 = ind + m0 * T;
      const int* r1 = mr > 1 ? r0 + T : r0;
      const int* r2 = mr > 2 ? r1 + T : r1;
      const int* r3 = mr > 3 ? r2 + T : r2;
      for (int p = p0; p < p1; p++) {
        const f32* bp = wp + p * K * NR;
        TILE_DECL;
        for (int t = 0; t < T; t++) {
          const f32* a0 = r0[t] < 0 ? zrow : x + r0[t] * Ci;
          const f32* a1 = r1[t] < 0 ? zrow : x + r1[t] * Ci;
          const f32* a2 = r2[t] < 0 ? zrow : x + r2[t] * Ci;
          const f32* a3 = r3[t] < 0 ? zrow : x + r3[t] * Ci;
          for (int k = 0; k < Ci; k++, bp += NR) {
            v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 4);
            TILE_STEP(a0, a1, a2, a3, k, b0, b1);
          }
        }
        f32* c = y + m0 * Co + p * NR;
        store8(c, c00, c01, 0);
        if (mr > 1) store8(c + Co, c10, c11, 0);
        if (mr > 2) store8(c + 2 * Co, c20, c21, 0);
        if (mr > 3) store8(c + 3 * Co, c30, c31, 0);
      }
    }
  }
}

// dx [Mx, Ci] = col2im(dy [M, Co] * W^T [Co, T*Ci]): each 8-column block of a product row belongs to one tap
// and is added straight into the input pixel that tap read, so no [M, T*Ci] column matrix is materialised.
// wtp from pack_wt(Co, T*Ci). Ci % 8 == 0 (a block never straddles two taps).
__attribute__((export_name("conv_dx"))) void conv_dx(int M, int T, int Ci, int Co, const int* ind, const f32* dy,
                                                    const f32* wtp, f32* dx, int Mx) {
  zero(dx, Mx * Ci);
  int panels = T * Ci / NR;
  int block = PANEL_BYTES / (Co * NR * 4);
  if (block < 1) block = 1;
  for (int p0 = 0; p0 < panels; p0 += block) {
    int p1 = min_int(p0 + block, panels);
    for (int m0 = 0; m0 < M; m0 += 4) {
      int mr = min_int(M - m0, 4);
      const f32* a0 = dy + m0 * Co;
      const f32* a1 = mr > 1 ? a0 + Co : a0;
      const f32* a2 = mr > 2 ? a1 + Co : a1;
      const f32* a3 = mr > 3 ? a2 + Co : a2;
      for (int p = p0; p < p1; p++) {
        const f32* bp = wtp + p * Co * NR;
        TILE_DECL;
        for (int k = 0; k < Co; k++, bp += NR) {
          v128_t b0 = wasm_v128_load(bp), b1 = wasm_v128_load(bp + 4);
          TILE_STEP(a0, a1, a2, a3, k, b0, b1);
        }
        int n0 = p * NR;
        int t = n0 / Ci, c0 = n0 - t * Ci;
        const int* r = ind + m0 * T + t;
        if (r[0] >= 0) store8(dx + r[0] * Ci + c0, c00, c01, 1);
        if (mr > 1 && r[T] >= 0) store8(dx + r[T] * Ci + c0, c10, c11, 1);
        if (mr > 2 && r[2 * T] >= 0) store8(dx + r[2 * T] * Ci + c0, c20, c21, 1);
        if (mr > 3 && r[3 * T] >= 0) store8(dx + r[3 * T] * Ci + c0, c30, c31, 1);
      }
    }
  }
}

// dW [T*Ci, Co] (HWIO) = sum over the valid (x pixel, dy pixel) pairs of each tap t of x[xrow]^T dy[dyrow].
// Pairs of tap t are pairs[2*start[t] .. 2*start[t+1]) as (xrow, dyrow). `dense` (1x1, stride 1, no padding):
// pair q is (q, q), so both matrices are walked by pointer and `pairs` is unused. Ci % 4 == 0, Co % 8 == 0.
__attribute__((export_name("conv_dw"))) void conv_dw(int T, int Ci, int Co, const int* start, const int* pairs,
                                                    const f32* x, const f32* dy, f32* dw, int dense) {
  zero(dw, T * Ci * Co);
  for (int t = 0; t < T; t++) {
    for (int q0 = start[t]; q0 < start[t + 1]; q0 += PAIR_CHUNK) {
      int q1 = min_int(q0 + PAIR_CHUNK, start[t + 1]);
      for (int ci = 0; ci < Ci; ci += 4) {
        for (int co = 0; co < Co; co += NR) {
          TILE_DECL;
          if (dense) {
            const f32* a = x + q0 * Ci + ci;
            const f32* b = dy + q0 * Co + co;
            for (int q = q0; q < q1; q++, a += Ci, b += Co) {
              v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 4);
              TILE_STEP(a, a + 1, a + 2, a + 3, 0, b0, b1);
            }
          } else {
            const int* pq = pairs + 2 * q0;
            for (int q = q0; q < q1; q++, pq += 2) {
              const f32* a = x + pq[0] * Ci + ci;
              const f32* b = dy + pq[1] * Co + co;
              v128_t b0 = wasm_v128_load(b), b1 = wasm_v128_load(b + 4);
              TILE_STEP(a, a + 1, a + 2, a + 3, 0, b0, b1);
            }
          }
          f32* c = dw + (t * Ci + ci) * Co + co;
          store8(c, c00, c01, 1);
          store8(c + Co, c10, c11, 1);
          store8(c + 2 * Co, c20, c21, 1);
          store8(c + 3 * Co, c30, c31, 1);
        }
      }
    }
  }
}
