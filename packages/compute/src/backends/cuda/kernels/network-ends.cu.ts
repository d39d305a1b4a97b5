import { STEM } from '@maou/bench-engine';

const [E, H] = [STEM.embedding, STEM.hand];
const C = E + H;

/**
 * The network's ends around cuDNN's convolutions: the stem (board embedding in channels 0–31, the hand projection
 * broadcast over the board in 32–63, NHWC on the 9×9 board), global average pooling and its gradient, the embedding's
 * and the hand projection's gradients, and the exact-erf GELU of Stage 2's hidden head (cuBLASLt's GELU epilogue is
 * the tanh approximation, not the engine's). The same layouts as the planned WebGPU step.
 * @public
 */
export const NETWORK_END_KERNELS = String.raw`
#define GRID_STRIDE(i, n) for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < (n); i += (long long)gridDim.x * blockDim.x)

// x0[n, pos, ch]: the embedding row of ids[n, pos] (ch < ${E}), else the hand projection of hands[n] (14 kinds).
extern "C" __global__ void stem_forward(const int *ids, const float *hands, const float *emb, const float *handW,
                                        const float *handB, float *x0, long long positions) {
  GRID_STRIDE(i, positions * ${C}) {
    long long pos = i / ${C};
    int ch = (int)(i % ${C});
    if (ch < ${E}) { x0[i] = emb[ids[pos] * ${E} + ch]; continue; }
    int c = ch - ${E};
    long long n = pos / 81;
    float s = handB[c];
    for (int k = 0; k < 14; k++) s += hands[n * 14 + k] * handW[k * ${H} + c];
    x0[i] = s;
  }
}

// feat[n, c] = mean over the hw positions of y[n, p, c].
extern "C" __global__ void pool_forward(const float *y, float *feat, long long batch, int hw, int channels) {
  GRID_STRIDE(i, batch * channels) {
    long long n = i / channels;
    int c = (int)(i % channels);
    float s = 0.0f;
    for (int p = 0; p < hw; p++) s += y[(n * hw + p) * channels + c];
    feat[i] = s / (float)hw;
  }
}

extern "C" __global__ void pool_backward(const float *dfeat, float *dy, long long batch, int hw, int channels) {
  GRID_STRIDE(i, batch * hw * channels) {
    long long n = i / ((long long)hw * channels);
    dy[i] = dfeat[n * channels + i % channels] / (float)hw;
  }
}

// dEmb[v, c] = Σ over board positions holding id v of dx0[pos, c]: one thread an entry, scanning the positions.
extern "C" __global__ void embedding_grad(const int *ids, const float *dx0, float *dEmb, long long positions,
                                          int vocabulary) {
  GRID_STRIDE(j, (long long)vocabulary * ${E}) {
    int v = (int)(j / ${E}), c = (int)(j % ${E});
    float s = 0.0f;
    for (long long p = 0; p < positions; p++)
      if (ids[p] == v) s += dx0[p * ${C} + c];
    dEmb[j] = s;
  }
}

// The hand projection's output gradient: dx0's hand channels summed over the board.
extern "C" __global__ void hand_grad(const float *dx0, float *dhand, long long batch) {
  GRID_STRIDE(i, batch * ${H}) {
    long long n = i / ${H};
    int c = (int)(i % ${H});
    float s = 0.0f;
    for (int p = 0; p < 81; p++) s += dx0[(n * 81 + p) * ${C} + ${E} + c];
    dhand[i] = s;
  }
}

// Exact GELU (erf) and its gradient through the pre-activation, as the engine's.
extern "C" __global__ void gelu_forward(const float *x, float *y, long long n) {
  GRID_STRIDE(i, n) y[i] = 0.5f * x[i] * (1.0f + erff(x[i] * 0.70710678118f));
}
extern "C" __global__ void gelu_backward(const float *dy, const float *x, float *dx, long long n) {
  GRID_STRIDE(i, n) {
    float v = x[i];
    dx[i] = dy[i] * (0.5f * (1.0f + erff(v * 0.70710678118f)) + v * 0.39894228040f * expf(-0.5f * v * v));
  }
}
`;
