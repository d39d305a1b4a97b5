// Native NHWC convolution kernels (forward, input gradient, filter gradient) working in the tfjs wasm heap.
// Copyright (c) maou-bench contributors. MIT licence.
//
// The same implicit-im2col matrix products as ../wasm/simd/conv-kernels.c, on wider register tiles. This file is
// compiled once per instruction set by scripts/build-native-kernels.cjs (-DMAOU_AVX512 with -mavx512f, without it
// for -mavx2 -mfma) and the addon picks one at load time. Vectors are GCC vector extensions, so one source gives
// 16-lane zmm code on AVX-512 and 8-lane ymm code on AVX2; `c += a * b` contracts to FMA (-ffp-contract=fast).
// Every pointer points into the wasm heap; the addon has checked every extent and index before calling.
#include "conv-kernels.h"

#include <string.h>

namespace {

typedef float f32;
// Tensors in the wasm heap are only float-aligned, so every vector access is unaligned (load/store below).
typedef float v8 __attribute__((vector_size(32)));
#ifdef MAOU_AVX512
typedef float vec __attribute__((vector_size(64)));
#define FN(name) maou_##name##_avx512
// 12 rows × 2 zmm = 24 accumulators of the 32 registers.
enum { LANES = 16, MR = 12 };
#else
typedef v8 vec;
#define FN(name) maou_##name##_avx2
// 6 rows × 2 ymm = 12 accumulators of the 16 registers.
enum { LANES = 8, MR = 6 };
#endif
// A panel is two vectors wide; the last panel of a segment may be narrower (a multiple of 8).
enum { P = 2 * LANES };
// Panels of the packed weights are grouped to stay in L2 (1 MiB per core) while the rows stream through them.
const long GROUP_BYTES = 384 * 1024;
// The filter gradient sums pixel pairs in chunks, so each tile of dW is updated from registers once per chunk.
const int PAIR_CHUNK = 128;

#define INLINE inline __attribute__((always_inline))

// memcpy, not a cast: a typedef's alignment is lost when it is a template argument.
template <typename V>
INLINE V load(const f32* p) {
  V v;
  __builtin_memcpy(&v, p, sizeof(V));
  return v;
}
template <typename V>
INLINE void store(f32* p, V v, bool accumulate) {
  if (accumulate) v += load<V>(p);
  __builtin_memcpy(p, &v, sizeof(V));
}

// An R-row register tile, NV full vectors and NH 8-lane halves wide (a 24-wide panel on AVX-512 is one zmm and one
// ymm per row: 24 accumulators, where three ymm would leave the zmm pipes half used).
template <int NV, int NH, int R>
struct Tile {
  static const int W = NV * LANES + NH * 8;
  vec c[R][NV > 0 ? NV : 1];
  v8 h[R][NH > 0 ? NH : 1];

  INLINE Tile() {
    for (int r = 0; r < R; r++) {
      for (int v = 0; v < NV; v++) c[r][v] = vec{};
      for (int v = 0; v < NH; v++) h[r][v] = v8{};
    }
  }
  // c += a[r][0..K) × the panel rows bp[0..K)[W]; bp moves past them.
  INLINE void gemm(const f32* const* a, int K, const f32*& bp) {
    for (int k = 0; k < K; k++, bp += W) step(a, k, bp);
  }
  INLINE void step(const f32* const* a, int k, const f32* b) {
    madd([&](int r) { return a[r][k]; }, b);
  }
  // c[r] += a[r] × b (one pixel pair of the filter gradient: R input channels by W output channels).
  INLINE void rank1(const f32* a, const f32* b) {
    madd([&](int r) { return a[r]; }, b);
  }
  // c[r] += scalar(r) × the W floats at b.
  template <typename Scalar>
  INLINE void madd(Scalar scalar, const f32* b) {
    vec bv[NV > 0 ? NV : 1];
    v8 bh[NH > 0 ? NH : 1];
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) bv[v] = load<vec>(b + v * LANES);
#pragma GCC unroll 4
    for (int v = 0; v < NH; v++) bh[v] = load<v8>(b + NV * LANES + v * 8);
#pragma GCC unroll 12
    for (int r = 0; r < R; r++) {
      const f32 s = scalar(r);
#pragma GCC unroll 4
      for (int v = 0; v < NV; v++) c[r][v] += s * bv[v];
#pragma GCC unroll 4
      for (int v = 0; v < NH; v++) h[r][v] += s * bh[v];
    }
  }
  INLINE void put(int r, f32* out, bool accumulate) {
#pragma GCC unroll 4
    for (int v = 0; v < NV; v++) store<vec>(out + v * LANES, c[r][v], accumulate);
#pragma GCC unroll 4
    for (int v = 0; v < NH; v++) store<v8>(out + NV * LANES + v * 8, h[r][v], accumulate);
  }
};

inline int min_int(int a, int b) { return a < b ? a : b; }

// The rows m0..m0+R of a tile; a short last tile repeats its last row (only real rows are stored).
struct Rows {
  int m0, count;
  INLINE int at(int r) const { return m0 + min_int(r, count - 1); }
};

// Forward: y[m, n0..n0+W) = sum over taps t and channels k of x[ind[m,t], k] · panel[t*Ci + k].
template <int NV, int NH, int R>
INLINE void fwd_tile(Rows rows, int T, int Ci, int Co, const int* ind, const f32* x, const f32* zrow, const f32* bp, f32* y,
                     int n0) {
  Tile<NV, NH, R> tile;
  const f32* a[R];
  for (int t = 0; t < T; t++) {
    for (int r = 0; r < R; r++) {
      const int i = ind[long(rows.at(r)) * T + t];
      a[r] = i < 0 ? zrow : x + long(i) * Ci;
    }
    tile.gemm(a, Ci, bp);
  }
  for (int r = 0; r < R && r < rows.count; r++) tile.put(r, y + long(rows.m0 + r) * Co + n0, false);
}

// Input gradient: the product row m, columns n0..n0+W of tap t, is added into the input pixel that tap read.
template <int NV, int NH, int R>
INLINE void dx_tile(Rows rows, int T, int Ci, int Co, const int* ind, const f32* dy, const f32* bp, f32* dx, int n0) {
  Tile<NV, NH, R> tile;
  const f32* a[R];
  for (int r = 0; r < R; r++) a[r] = dy + long(rows.at(r)) * Co;
  tile.gemm(a, Co, bp);
  const int t = n0 / Ci, c0 = n0 - t * Ci;
  for (int r = 0; r < R && r < rows.count; r++) {
    const int i = ind[long(rows.m0 + r) * T + t];
    if (i >= 0) tile.put(r, dx + long(i) * Ci + c0, true);
  }
}

// Filter gradient: dw[t*Ci + ci + r, co..co+W) += sum over the chunk's pairs (xrow, dyrow) of x[xrow, ci+r] · dy[dyrow, co..].
template <int NV, int NH, int R>
INLINE void dw_tile(int q0, int q1, const int* pairs, bool dense, int Ci, int Co, int ci, int co, const f32* x,
                    const f32* dy, f32* dw) {
  Tile<NV, NH, R> tile;
  if (dense) {
    for (int q = q0; q < q1; q++) tile.rank1(x + long(q) * Ci + ci, dy + long(q) * Co + co);
  } else {
    for (int q = q0; q < q1; q++) tile.rank1(x + long(pairs[2 * q]) * Ci + ci, dy + long(pairs[2 * q + 1]) * Co + co);
  }
  for (int r = 0; r < R; r++) tile.put(r, dw + long(ci + r) * Co + co, true);
}

// The widths a panel can have: P, or a segment's remainder (a multiple of 8 below P), as full vectors and halves.
#ifdef MAOU_AVX512
#define DISPATCH_WIDTH(W, CALL) \
  switch (W) {                  \
    case 32: CALL(2, 0); break; \
    case 24: CALL(1, 1); break; \
    case 16: CALL(1, 0); break; \
    case 8: CALL(0, 1); break;  \
  }
#else
#define DISPATCH_WIDTH(W, CALL) \
  switch (W) {                  \
    case 16: CALL(2, 0); break; \
    case 8: CALL(1, 0); break;  \
  }
#endif

// Column panels of a segmented width: segments of S columns (one per tap for the input gradient), each cut into
// panels of P, the last of a segment narrower. Panel j starts at column n0(j) and its packed rows at n0(j)·K.
struct Panels {
  int N, S;
  int count() const { return (N / S) * ((S + P - 1) / P); }
  int n0(int j) const {
    const int per = (S + P - 1) / P;
    return (j / per) * S + (j % per) * P;
  }
  int width(int j) const {
    const int per = (S + P - 1) / P;
    return min_int(P, S - (j % per) * P);
  }
};

// The panels [j0, j1) that fit GROUP_BYTES of packed weights with K rows, at least one.
int group_end(const Panels& ps, int j0, int K) {
  long bytes = 0;
  int j = j0;
  while (j < ps.count() && (j == j0 || bytes + long(ps.width(j)) * K * 4 <= GROUP_BYTES)) bytes += long(ps.width(j++)) * K * 4;
  return j;
}

// R input channels at a time: MR, then the remainder (Ci % 4 == 0, so it is 4 or 8 on AVX-512, 2 or 4 on AVX2).
template <int R>
void dw_rows(int q0, int q1, const int* pairs, bool dense, int Ci, int Co, int ci, const float* x,
                    const float* dy, float* dw) {
  const Panels ps{Co, Co};
  for (int j = 0; j < ps.count(); j++) {
    const int co = ps.n0(j);
#define DW(NV, NH) dw_tile<NV, NH, R>(q0, q1, pairs, dense, Ci, Co, ci, co, x, dy, dw)
    DISPATCH_WIDTH(ps.width(j), DW);
#undef DW
  }
}

}  // namespace

extern "C" {

void FN(pack)(int K, int N, int S, int transposed, const float* w, float* out) {
  const Panels ps{N, S};
  for (int j = 0; j < ps.count(); j++) {
    const int n0 = ps.n0(j), W = ps.width(j);
    float* o = out + long(n0) * K;
    for (int k = 0; k < K; k++, o += W)
      for (int i = 0; i < W; i++) o[i] = transposed ? w[long(n0 + i) * K + k] : w[long(k) * N + n0 + i];
  }
}

void FN(conv_fwd)(int M, int T, int Ci, int Co, const int* ind, const float* x, const float* zrow, const float* wp,
                  float* y) {
  const Panels ps{Co, Co};
  const int K = T * Ci;
  for (int j0 = 0, j1; j0 < ps.count(); j0 = j1) {
    j1 = group_end(ps, j0, K);
    for (int m0 = 0; m0 < M; m0 += MR) {
      const Rows rows{m0, min_int(MR, M - m0)};
      for (int j = j0; j < j1; j++) {
        const int n0 = ps.n0(j);
        const float* bp = wp + long(n0) * K;
#define FWD(NV, NH) fwd_tile<NV, NH, MR>(rows, T, Ci, Co, ind, x, zrow, bp, y, n0)
        DISPATCH_WIDTH(ps.width(j), FWD);
#undef FWD
      }
    }
  }
}

void FN(conv_dx)(int M, int T, int Ci, int Co, const int* ind, const float* dy, const float* wtp, float* dx, int Mx) {
  memset(dx, 0, sizeof(float) * long(Mx) * Ci);
  const Panels ps{T * Ci, Ci};
  for (int j0 = 0, j1; j0 < ps.count(); j0 = j1) {
    j1 = group_end(ps, j0, Co);
    for (int m0 = 0; m0 < M; m0 += MR) {
      const Rows rows{m0, min_int(MR, M - m0)};
      for (int j = j0; j < j1; j++) {
        const int n0 = ps.n0(j);
        const float* bp = wtp + long(n0) * Co;
#define DX(NV, NH) dx_tile<NV, NH, MR>(rows, T, Ci, Co, ind, dy, bp, dx, n0)
        DISPATCH_WIDTH(ps.width(j), DX);
#undef DX
      }
    }
  }
}

void FN(conv_dw)(int T, int Ci, int Co, const int* start, const int* pairs, const float* x, const float* dy, float* dw,
                 int dense) {
  memset(dw, 0, sizeof(float) * long(T) * Ci * Co);
  for (int t = 0; t < T; t++) {
    float* dwt = dw + long(t) * Ci * Co;
    for (int q0 = start[t]; q0 < start[t + 1]; q0 += PAIR_CHUNK) {
      const int q1 = min_int(q0 + PAIR_CHUNK, start[t + 1]);
      int ci = 0;
      for (; ci + MR <= Ci; ci += MR) dw_rows<MR>(q0, q1, pairs, dense, Ci, Co, ci, x, dy, dwt);
      for (; ci + 4 <= Ci; ci += 4) dw_rows<4>(q0, q1, pairs, dense, Ci, Co, ci, x, dy, dwt);
#ifndef MAOU_AVX512
      for (; ci + 2 <= Ci; ci += 2) dw_rows<2>(q0, q1, pairs, dense, Ci, Co, ci, x, dy, dwt);
#endif
    }
  }
}

}  // extern "C"
