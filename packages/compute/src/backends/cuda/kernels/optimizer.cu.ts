// Partial sums of Σg², one a block, as many as the planned step's (what clipping and the overflow test read).
import { NORM_PARTS } from '../../webgpu/planned/kernels';

/**
 * The update over one flat buffer of every parameter, as the planned WebGPU step does it: the global gradient norm
 * in NORM_PARTS partial sums; AdamW (decoupled decay where D = 1) or SGD with momentum (L2 decay where D = 1), with
 * clipping by the global norm; under mixed precision the gradients are divided by the loss scale and the step is
 * skipped when their norm is inf or NaN, then the scale is updated as PyTorch's GradScaler does.
 * hyper = [lr, 1 − β1^t, √(1 − β2^t), first step ? 1 : 0]; scale = [scale, good steps, skipped steps, applied steps].
 * @public
 */
export const OPTIMIZER_KERNELS = String.raw`
extern "C" __global__ void gradient_norm_parts(const float *G, float *part, long long NP) {
  float s = 0.0f;
  for (long long i = blockIdx.x * (long long)MAOU_THREADS + threadIdx.x; i < NP; i += (long long)gridDim.x * MAOU_THREADS) {
    float g = G[i];
    s += g * g;
  }
  s = block_sum(s);
  if (threadIdx.x == 0) part[blockIdx.x] = s;
}

// The coefficient every gradient is multiplied by (clipping, unscaling), and whether the step is skipped.
__device__ inline bool update_coefficient(const float *part, const float *scale, float maxnorm, float *coef) {
  float total = 0.0f;
  if (part != 0) total = block_sum(threadIdx.x < ${NORM_PARTS} ? part[threadIdx.x] : 0.0f);
  const float unscale = scale != 0 ? 1.0f / scale[0] : 1.0f;
  if (scale != 0 && non_finite_bits(__float_as_uint(total))) return false;
  float c = maxnorm > 0.0f ? fminf(1.0f, maxnorm / (sqrtf(total) * unscale + 1e-6f)) : 1.0f;
  *coef = c * unscale;
  return true;
}

// part: the norm parts (null without clipping or loss scale); scale: the loss-scale state (null in f32).
extern "C" __global__ void adamw_update(float *P, const float *G, float *M, float *V, const float *D,
                                        const float *hyper, const float *part, const float *scale, long long NP,
                                        float B1, float B2, float EPS, float WD, float MAXNORM) {
  float coef;
  if (!update_coefficient(part, scale, MAXNORM, &coef)) return;
  float lr = hyper[0], bc1 = hyper[1], bc2 = hyper[2];
  if (scale != 0) {
    float t = scale[3] + 1.0f;
    bc1 = 1.0f - powf(B1, t);
    bc2 = sqrtf(1.0f - powf(B2, t));
  }
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < NP; i += (long long)gridDim.x * blockDim.x) {
    float g = G[i] * coef;
    float m = B1 * M[i] + (1.0f - B1) * g;
    float v = B2 * V[i] + (1.0f - B2) * g * g;
    M[i] = m;
    V[i] = v;
    P[i] = P[i] * (1.0f - lr * WD * D[i]) - (lr / bc1) * (m / (sqrtf(v) / bc2 + EPS));
  }
}

extern "C" __global__ void sgd_update(float *P, const float *G, float *M, const float *D, const float *hyper,
                                      const float *part, const float *scale, long long NP, float WD, float MOMENTUM,
                                      float MAXNORM) {
  float coef;
  if (!update_coefficient(part, scale, MAXNORM, &coef)) return;
  const float lr = hyper[0];
  const bool first = scale != 0 ? scale[3] == 0.0f : hyper[3] > 0.5f;
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < NP; i += (long long)gridDim.x * blockDim.x) {
    float gg = G[i] * coef + WD * D[i] * P[i];
    float d = gg;
    if (MOMENTUM > 0.0f) {
      if (!first) d = MOMENTUM * M[i] + gg;
      M[i] = d;
    }
    P[i] = P[i] - lr * d;
  }
}

// After the update (one block): halve the scale and count a skipped step on overflow, else count a good step and
// double the scale every INTERVAL good steps.
extern "C" __global__ void loss_scale_update(const float *part, float *scale, float INTERVAL, float GROWTH,
                                             float BACKOFF) {
  float s = block_sum(threadIdx.x < ${NORM_PARTS} ? part[threadIdx.x] : 0.0f);
  if (threadIdx.x != 0) return;
  if (non_finite_bits(__float_as_uint(s))) {
    scale[0] *= BACKOFF;
    scale[1] = 0.0f;
    scale[2] += 1.0f;
  } else {
    scale[3] += 1.0f;
    float good = scale[1] + 1.0f;
    if (good >= INTERVAL) { scale[0] *= GROWTH; scale[1] = 0.0f; } else scale[1] = good;
  }
}
`;
