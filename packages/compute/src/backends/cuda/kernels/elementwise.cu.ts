/**
 * Elementwise kernels around cuDNN's and cuBLAS's calls: ReLU and its gradient, bias add and the bias gradient,
 * the dropout mask (the engine's lowbias32 hash), and the casts of mixed precision. f16 and bf16 are stored as
 * `unsigned short` and converted with PTX `cvt` (f16) or bit rounding (bf16), so no CUDA header is needed.
 * @public
 */
export const ELEMENTWISE_KERNELS = String.raw`
#define GRID_STRIDE(i, n) for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)

extern "C" __global__ void relu_forward(const float *x, float *y, long long n) {
  GRID_STRIDE(i, n) y[i] = fmaxf(x[i], 0.0f);
}

// The gradient through y = relu(x), masked by y's sign (y kept from the forward pass).
extern "C" __global__ void relu_backward(const float *dy, const float *y, float *dx, long long n) {
  GRID_STRIDE(i, n) dx[i] = y[i] > 0.0f ? dy[i] : 0.0f;
}

// y[r, c] += bias[c] over rows × channels, channels innermost (NHWC activations, dense outputs).
extern "C" __global__ void bias_add(float *y, const float *bias, long long rows, int channels) {
  GRID_STRIDE(i, rows * channels) y[i] += bias[i % channels];
}

// db[c] = Σ_r dy[r, c]: one block a channel (blocks stride over channels).
extern "C" __global__ void bias_grad(const float *dy, float *db, long long rows, int channels) {
  for (int c = blockIdx.x; c < channels; c += gridDim.x) {
    float s = 0.0f;
    for (long long r = threadIdx.x; r < rows; r += MAOU_THREADS) s += dy[r * channels + c];
    s = block_sum(s);
    if (threadIdx.x == 0) db[c] = s;
  }
}

// Inverted dropout's mask: scale where lowbias32(i ^ key) >= threshold, else 0 (key, threshold and scale from the
// engine's dropoutKeep, so every backend draws the same mask).
extern "C" __global__ void dropout_mask(float *mask, long long n, unsigned int key, unsigned int threshold, float scale) {
  GRID_STRIDE(i, n) mask[i] = dropout_keeps((unsigned int)i, key, threshold) ? scale : 0.0f;
}

__device__ inline unsigned short f32_to_f16_bits(float x) {
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(x));
  return h;
}
__device__ inline float f16_bits_to_f32(unsigned short h) {
  float x;
  asm("cvt.f32.f16 %0, %1;" : "=f"(x) : "h"(h));
  return x;
}
// Round to nearest even on the upper 16 bits; NaN stays a (quiet) NaN.
__device__ inline unsigned short f32_to_bf16_bits(float x) {
  unsigned int u = __float_as_uint(x);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);
  u += 0x7fffu + ((u >> 16) & 1u);
  return (unsigned short)(u >> 16);
}
__device__ inline float bf16_bits_to_f32(unsigned short b) { return __uint_as_float(((unsigned int)b) << 16); }

extern "C" __global__ void cast_f32_f16(const float *x, unsigned short *y, long long n) {
  GRID_STRIDE(i, n) y[i] = f32_to_f16_bits(x[i]);
}
extern "C" __global__ void cast_f16_f32(const unsigned short *x, float *y, long long n) {
  GRID_STRIDE(i, n) y[i] = f16_bits_to_f32(x[i]);
}
extern "C" __global__ void cast_f32_bf16(const float *x, unsigned short *y, long long n) {
  GRID_STRIDE(i, n) y[i] = f32_to_bf16_bits(x[i]);
}
extern "C" __global__ void cast_bf16_f32(const unsigned short *x, float *y, long long n) {
  GRID_STRIDE(i, n) y[i] = bf16_bits_to_f32(x[i]);
}
`;
