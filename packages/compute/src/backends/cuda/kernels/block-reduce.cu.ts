/**
 * Block-wide sum and max for 256-thread blocks (warp shuffles, then one warp over the warps' results); every thread
 * gets the result. Kernels that reduce a row or a share of a buffer launch 256 threads a block.
 * @public
 */
export const BLOCK_REDUCE = String.raw`
#define MAOU_THREADS 256
__device__ inline float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}
__device__ inline float warp_max(float v) {
  for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_down_sync(0xffffffffu, v, o));
  return v;
}
// One reduction of the block: the warps' results in shared memory, then the first warp over them.
__device__ inline float block_reduce(float v, bool max) {
  __shared__ float part[32];
  __shared__ float total;
  v = max ? warp_max(v) : warp_sum(v);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x >> 5] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    float w = threadIdx.x < (MAOU_THREADS >> 5) ? part[threadIdx.x] : (max ? -3.0e38f : 0.0f);
    w = max ? warp_max(w) : warp_sum(w);
    if (threadIdx.x == 0) total = w;
  }
  __syncthreads();
  float r = total;
  __syncthreads();
  return r;
}
__device__ inline float block_sum(float v) { return block_reduce(v, false); }
__device__ inline float block_max(float v) { return block_reduce(v, true); }
`;
