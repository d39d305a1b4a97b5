// The native convolution kernels, one set per instruction set (conv-kernels.cc compiled twice).
// Copyright (c) maou-bench contributors. MIT licence.
#pragma once

#ifdef __cplusplus
extern "C" {
#endif

#define MAOU_CONV_KERNELS(isa)                                                                                  \
  void maou_pack_##isa(int K, int N, int S, int transposed, const float* w, float* out);                        \
  void maou_conv_fwd_##isa(int M, int T, int Ci, int Co, const int* ind, const float* x, const float* zrow,     \
                           const float* wp, float* y);                                                          \
  void maou_conv_dx_##isa(int M, int T, int Ci, int Co, const int* ind, const float* dy, const float* wtp,      \
                          float* dx, int Mx);                                                                   \
  void maou_conv_dw_##isa(int T, int Ci, int Co, const int* start, const int* pairs, const float* x,            \
                          const float* dy, float* dw, int dense);

MAOU_CONV_KERNELS(avx512)
MAOU_CONV_KERNELS(avx2)

#ifdef __cplusplus
}
#endif
