/**
 * The losses with their gradients, as the planned WebGPU step computes them (one 256-thread block a row): Stage 3's
 * KL(normalised move labels ‖ softmax) and value BCE, Stages 1/2's BCE with pos_weight or the asymmetric loss, the
 * batch total, and the loss scale applied to the loss gradients under mixed precision.
 * @public
 */
export const LOSS_KERNELS = String.raw`
// Row r: t = label/Σlabel; loss share WP·(lse·[Σ>0] − Σt·z + Σt·log t)/NB + WV·(softplus(v) − v·y)/NB;
// dlogits = (softmax·[Σ>0] − t)·WP/NB, dvalue = (σ(v) − y)·WV/NB.
extern "C" __global__ void stage3_loss(const float *logits, const float *value, const float *label,
                                       const float *result, float *dlogits, float *dvalue, float *rowloss, int L,
                                       float NB, float WP, float WV) {
  const long long o = (long long)blockIdx.x * L;
  float mass = 0.0f, mx = -3.0e38f;
  for (int k = threadIdx.x; k < L; k += MAOU_THREADS) { mass += label[o + k]; mx = fmaxf(mx, logits[o + k]); }
  mass = block_sum(mass);
  mx = block_max(mx);
  const float inv = mass > 0.0f ? 1.0f / mass : 0.0f;
  const float has = mass > 0.0f ? 1.0f : 0.0f;
  float se = 0.0f, tz = 0.0f, tlogt = 0.0f;
  for (int k = threadIdx.x; k < L; k += MAOU_THREADS) {
    float z = logits[o + k], t = label[o + k] * inv;
    se += expf(z - mx);
    tz += t * z;
    if (t > 0.0f) tlogt += t * logf(t);
  }
  se = block_sum(se); tz = block_sum(tz); tlogt = block_sum(tlogt);
  const float lse = mx + logf(se);
  for (int k = threadIdx.x; k < L; k += MAOU_THREADS)
    dlogits[o + k] = (expf(logits[o + k] - lse) * has - label[o + k] * inv) * WP / NB;
  if (threadIdx.x == 0) {
    float v = value[blockIdx.x], y = result[blockIdx.x];
    dvalue[blockIdx.x] = (sigmoid(v) - y) * WV / NB;
    rowloss[blockIdx.x] = WP * (lse * has - tz + tlogt) / NB + WV * (softplus(v) - v * y) / NB;
  }
}

// Row r of the Stage 1/2 loss: the mean over all COUNT = batch × L elements; asymmetric when GP, GN or CLIP > 0.
extern "C" __global__ void multi_label_loss(const float *logits, const float *label, float *dlogits, float *rowloss,
                                            int L, float COUNT, float W, float GP, float GN, float CLIP) {
  const long long o = (long long)blockIdx.x * L;
  const bool asymmetric = GP > 0.0f || GN > 0.0f || CLIP > 0.0f;
  float s = 0.0f;
  for (int k = threadIdx.x; k < L; k += MAOU_THREADS) {
    float l, d;
    if (asymmetric) asymmetric_element(logits[o + k], label[o + k], GP, GN, CLIP, &l, &d);
    else bce_element(logits[o + k], label[o + k], W, &l, &d);
    s += l;
    dlogits[o + k] = d / COUNT;
  }
  s = block_sum(s);
  if (threadIdx.x == 0) rowloss[blockIdx.x] = s / COUNT;
}

// loss[0] = Σ rowloss (one block).
extern "C" __global__ void loss_total(const float *rowloss, float *loss, int NB) {
  float s = 0.0f;
  for (int k = threadIdx.x; k < NB; k += MAOU_THREADS) s += rowloss[k];
  s = block_sum(s);
  if (threadIdx.x == 0) loss[0] = s;
}

// Mixed precision: the loss gradients times the loss scale scale[0], in place (dvalue may be null).
extern "C" __global__ void scale_loss_gradients(const float *scale, float *dlogits, float *dvalue, long long n,
                                                int NB) {
  const float s = scale[0];
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    dlogits[i] *= s;
    if (dvalue != 0 && i < NB) dvalue[i] *= s;
  }
}
`;
