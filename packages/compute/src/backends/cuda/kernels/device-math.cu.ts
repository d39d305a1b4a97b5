// CUDA C shared by the cuda backend's kernels and, compiled as plain C++, by the spec that checks this math on the
// CPU against the engine's own functions: everything here is `MAOU_FN` (host and device) and uses only what both
// NVRTC and a C++ compiler have (expf, logf, powf, fabsf, fmaxf, fminf).

/**
 * Per-element math of the step: the dropout hash, softplus, sigmoid, maou's losses' element terms and gradients.
 * A C++ compiler sees `MAOU_FN` as `inline`; NVRTC as `__host__ __device__ inline`.
 * @public
 */
export const DEVICE_MATH = String.raw`
#ifdef __CUDACC_RTC__
#define MAOU_FN __host__ __device__ inline
#else
#define MAOU_FN inline
#endif

// Wellons' lowbias32, as the engine's dropout.ts: unsigned 32-bit in and out.
MAOU_FN unsigned int lowbias32(unsigned int x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// Element i of a dropout mask is kept where lowbias32(i ^ key) >= threshold (an unsigned compare).
MAOU_FN bool dropout_keeps(unsigned int i, unsigned int key, unsigned int threshold) {
  return lowbias32(i ^ key) >= threshold;
}

// log(1 + e^x) without overflow, and the logistic function.
MAOU_FN float softplus(float x) { return fmaxf(x, 0.0f) + logf(1.0f + expf(-fabsf(x))); }
MAOU_FN float sigmoid(float x) {
  if (x >= 0.0f) return 1.0f / (1.0f + expf(-x));
  float e = expf(x);
  return e / (1.0f + e);
}
MAOU_FN float pow_or_one(float x, float y) {
  if (y == 0.0f) return 1.0f;
  if (x <= 0.0f) return 0.0f;
  return powf(x, y);
}

// BCE with logits and pos_weight w, one element: loss w·t·softplus(−z) + (1−t)·softplus(z) and its z-gradient.
MAOU_FN void bce_element(float z, float t, float w, float *loss, float *grad) {
  float p = sigmoid(z);
  *loss = w * t * softplus(-z) + (1.0f - t) * softplus(z);
  *grad = -w * t * (1.0f - p) + (1.0f - t) * p;
}

// maou's asymmetric loss (LegalMovesLoss), one element: −(L+ + L−) and its z-gradient, as the engine's
// multi-label-loss.ts: L+ = t·(1−p)^γ+·log p; L− = (1−t)·(1−q)^γ−·log q, q = min(1 − p + clip, 1) when clip > 0,
// else (1−t)·p^γ−·log(1 − p).
MAOU_FN void asymmetric_element(float z, float t, float gp, float gn, float clip, float *loss, float *grad) {
  float p = sigmoid(z);
  float logp = -softplus(-z);
  float pos = t * logp * pow_or_one(1.0f - p, gp);
  float dpos = t * pow_or_one(1.0f - p, gp) * ((1.0f - p) - gp * p * logp);
  float neg, dneg;
  if (clip > 0.0f) {
    float a = (1.0f - p) + clip;
    float q = fminf(a, 1.0f);
    float dq = a <= 1.0f ? -p * (1.0f - p) : 0.0f;
    neg = (1.0f - t) * logf(q) * pow_or_one(1.0f - q, gn);
    dneg = (1.0f - t) * dq * (pow_or_one(1.0f - q, gn) / q - gn * pow_or_one(1.0f - q, gn - 1.0f) * logf(q));
  } else {
    neg = (1.0f - t) * -softplus(z) * pow_or_one(p, gn);
    dneg = (1.0f - t) * pow_or_one(p, gn) * (-p - gn * (1.0f - p) * softplus(z));
  }
  *loss = -(pos + neg);
  *grad = -(dpos + dneg);
}

// True for inf and NaN (exponent all ones), the loss scaler's overflow test.
MAOU_FN bool non_finite_bits(unsigned int bits) { return (bits & 0x7f800000u) == 0x7f800000u; }
`;
