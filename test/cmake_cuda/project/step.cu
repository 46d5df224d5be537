// A device function of another file of the program, and a kernel with an
// extended (__device__) lambda, as --extended-lambda allows under nvcc.
#include "step.h"

__device__ float scale(float x);

__device__ float relax(float left, float mid, float right) {
  return scale(left + right) * 0.5f + 0.5f * mid;
}

template <typename F> __global__ void for_each(float *p, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = f(p[i]);
}

void clamp_all(float *p, int n) {
  auto clamp = [] __device__(float v) { return v > 1.0f ? 1.0f : v; };
  for_each<<<(n + 255) / 256, 256>>>(p, n, clamp);
}
