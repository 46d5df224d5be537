// A device function of another file of the program, and a kernel with an
// extended (__device__) lambda, as --extended-lambda allows under nvcc.
#include "step.h"

__device__ unsigned scale(unsigned x);

__device__ unsigned relax(unsigned left, unsigned mid, unsigned right) {
  return scale(mid) ^ (left + right);
}

template <typename F> __global__ void for_each(unsigned *p, int n, F f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = f(p[i]);
}

void mask_all(unsigned *p, int n) {
  auto mask = [] __device__(unsigned v) { return v & 0xffffu; };
  for_each<<<(n + 255) / 256, 256>>>(p, n, mask);
}
