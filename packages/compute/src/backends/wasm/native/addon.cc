// Node-API entry points of the native convolution kernels (conv-kernels.cc), working in place in a tfjs-wasm heap.
// Copyright (c) maou-bench contributors. MIT licence.
//
// Every call gets the heap's current ArrayBuffer (it is replaced when the heap grows) and byte offsets into it, as
// the WebAssembly kernels do. A wasm kernel traps on an access outside its Memory; native code would read or write
// whatever lies there, so each call checks every region and every index table against the buffer first and throws.
#include <node_api.h>
#include <stdint.h>
#include <stdio.h>

#include "conv-kernels.h"

namespace {

enum Isa { AVX512 = 0, AVX2 = 1 };

bool supported(int isa) {
  __builtin_cpu_init();
  if (isa == AVX512) return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl");
  if (isa == AVX2) return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return false;
}

struct Call {
  napi_env env;
  napi_value argv[16];
  size_t argc = 16;
  uint8_t* heap = nullptr;
  size_t bytes = 0;
  int isa = -1;
  bool failed = false;

  // Arguments: isa, the heap's ArrayBuffer, then `expected - 2` integers.
  Call(napi_env e, napi_callback_info info, size_t expected) : env(e) {
    napi_get_cb_info(env, info, &argc, argv, nullptr, nullptr);
    bool is_ab = false;
    if (argc != expected) {
      fail("wrong number of arguments");
      return;
    }
    isa = static_cast<int>(integer(0));
    if (!failed && !supported(isa)) fail("this CPU does not support the requested instruction set");
    if (!failed && (napi_is_arraybuffer(env, argv[1], &is_ab) != napi_ok || !is_ab)) fail("argument 2 must be the heap's ArrayBuffer");
    void* data = nullptr;
    if (!failed) napi_get_arraybuffer_info(env, argv[1], &data, &bytes);
    heap = static_cast<uint8_t*>(data);
  }
  void fail(const char* why) {
    if (!failed) napi_throw_error(env, "MAOU_NATIVE_KERNELS", why);
    failed = true;
  }
  int64_t integer(size_t i) {
    int64_t v = 0;
    if (failed) return 0;
    if (napi_get_value_int64(env, argv[i], &v) != napi_ok) fail("arguments after the heap must be numbers");
    return v;
  }
  // A region of `count` elements of `size` bytes at byte offset argv[i]; null (and a thrown error) if outside the heap.
  template <typename T>
  T* region(size_t i, int64_t count) {
    const int64_t off = integer(i);
    if (failed) return nullptr;
    if (off < 0 || count < 0 || off % alignof(T) != 0 || uint64_t(off) + uint64_t(count) * sizeof(T) > bytes) {
      char msg[160];
      snprintf(msg, sizeof msg, "argument %zu: %lld elements at byte %lld lie outside the %zu-byte heap", i + 1,
               static_cast<long long>(count), static_cast<long long>(off), bytes);
      fail(msg);
      return nullptr;
    }
    return reinterpret_cast<T*>(heap + off);
  }
  // Every entry of an index table lies in [lo, hi).
  void indices(const int* p, int64_t n, int stride, int lo, int hi, const char* what) {
    if (failed) return;
    for (int64_t k = 0; k < n; k += stride)
      if (p[k] < lo || p[k] >= hi) {
        fail(what);
        return;
      }
  }
  void require(bool ok, const char* why) {
    if (!failed && !ok) fail(why);
  }
};

int dim(Call& c, size_t i) {
  const int64_t v = c.integer(i);
  c.require(v > 0 && v < (int64_t(1) << 30), "sizes must be positive and below 2^30");
  return static_cast<int>(v);
}

// pack(isa, heap, K, N, S, transposed, w, out)
napi_value Pack(napi_env env, napi_callback_info info) {
  Call c(env, info, 8);
  const int K = dim(c, 2), N = dim(c, 3), S = dim(c, 4);
  const int transposed = static_cast<int>(c.integer(5));
  c.require(S % 8 == 0 && N % S == 0, "pack: S must be a multiple of 8 that divides N");
  const float* w = c.region<const float>(6, int64_t(K) * N);
  float* out = c.region<float>(7, int64_t(K) * N);
  if (c.failed) return nullptr;
  (c.isa == AVX512 ? maou_pack_avx512 : maou_pack_avx2)(K, N, S, transposed, w, out);
  return nullptr;
}

// conv_fwd(isa, heap, M, T, Ci, Co, ind, x, Mx, zrow, wp, y)
napi_value ConvFwd(napi_env env, napi_callback_info info) {
  Call c(env, info, 12);
  const int M = dim(c, 2), T = dim(c, 3), Ci = dim(c, 4), Co = dim(c, 5);
  c.require(Co % 8 == 0, "conv_fwd: output channels must be a multiple of 8");
  const int* ind = c.region<const int>(6, int64_t(M) * T);
  const int Mx = dim(c, 8);
  const float* x = c.region<const float>(7, int64_t(Mx) * Ci);
  const float* zrow = c.region<const float>(9, Ci);
  const float* wp = c.region<const float>(10, int64_t(T) * Ci * Co);
  float* y = c.region<float>(11, int64_t(M) * Co);
  c.indices(ind, int64_t(M) * T, 1, -1, Mx, "conv_fwd: the index table names a pixel outside x");
  if (c.failed) return nullptr;
  (c.isa == AVX512 ? maou_conv_fwd_avx512 : maou_conv_fwd_avx2)(M, T, Ci, Co, ind, x, zrow, wp, y);
  return nullptr;
}

// conv_dx(isa, heap, M, T, Ci, Co, ind, dy, wtp, dx, Mx)
napi_value ConvDx(napi_env env, napi_callback_info info) {
  Call c(env, info, 11);
  const int M = dim(c, 2), T = dim(c, 3), Ci = dim(c, 4), Co = dim(c, 5);
  c.require(Ci % 8 == 0, "conv_dx: input channels must be a multiple of 8");
  const int* ind = c.region<const int>(6, int64_t(M) * T);
  const float* dy = c.region<const float>(7, int64_t(M) * Co);
  const float* wtp = c.region<const float>(8, int64_t(T) * Ci * Co);
  const int Mx = dim(c, 10);
  float* dx = c.region<float>(9, int64_t(Mx) * Ci);
  c.indices(ind, int64_t(M) * T, 1, -1, Mx, "conv_dx: the index table names a pixel outside dx");
  if (c.failed) return nullptr;
  (c.isa == AVX512 ? maou_conv_dx_avx512 : maou_conv_dx_avx2)(M, T, Ci, Co, ind, dy, wtp, dx, Mx);
  return nullptr;
}

// conv_dw(isa, heap, T, Ci, Co, start, pairs, x, Mx, dy, M, dw, dense)
napi_value ConvDw(napi_env env, napi_callback_info info) {
  Call c(env, info, 13);
  const int T = dim(c, 2), Ci = dim(c, 3), Co = dim(c, 4);
  c.require(Ci % 4 == 0 && Co % 8 == 0, "conv_dw: input channels must be a multiple of 4, output channels of 8");
  const int* start = c.region<const int>(5, T + 1);
  const int Mx = dim(c, 8), M = dim(c, 10);
  const int dense = static_cast<int>(c.integer(12));
  if (!c.failed) {
    bool ordered = start[0] == 0;
    for (int t = 0; t < T && ordered; t++) ordered = start[t] <= start[t + 1];
    c.require(ordered, "conv_dw: the pair table's starts must rise from 0");
    c.require(!dense || (T == 1 && start[1] <= Mx && start[1] <= M), "conv_dw: a dense pass has one tap and no more pairs than rows");
  }
  const int64_t pairs_n = c.failed ? 0 : start[T];
  const int* pairs = dense ? nullptr : c.region<const int>(6, 2 * pairs_n);
  const float* x = c.region<const float>(7, int64_t(Mx) * Ci);
  const float* dy = c.region<const float>(9, int64_t(M) * Co);
  float* dw = c.region<float>(11, int64_t(T) * Ci * Co);
  if (!dense) {
    c.indices(pairs, 2 * pairs_n, 2, 0, Mx, "conv_dw: the pair table names a pixel outside x");
    if (!c.failed) c.indices(pairs + 1, 2 * pairs_n - 1, 2, 0, M, "conv_dw: the pair table names a pixel outside dy");
  }
  if (c.failed) return nullptr;
  (c.isa == AVX512 ? maou_conv_dw_avx512 : maou_conv_dw_avx2)(T, Ci, Co, start, pairs, x, dy, dw, dense);
  return nullptr;
}

napi_value Supported(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value arg;
  int64_t isa = -1;
  napi_get_cb_info(env, info, &argc, &arg, nullptr, nullptr);
  if (argc == 1) napi_get_value_int64(env, arg, &isa);
  napi_value out;
  napi_get_boolean(env, supported(static_cast<int>(isa)), &out);
  return out;
}

}  // namespace

NAPI_MODULE_INIT() {
  const napi_property_descriptor fns[] = {
      {"supported", nullptr, Supported, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"pack", nullptr, Pack, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"conv_fwd", nullptr, ConvFwd, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"conv_dx", nullptr, ConvDx, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
      {"conv_dw", nullptr, ConvDw, nullptr, nullptr, nullptr, napi_enumerable, nullptr},
  };
  napi_define_properties(env, exports, sizeof fns / sizeof fns[0], fns);
  return exports;
}
