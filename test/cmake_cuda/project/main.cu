// A Jacobi-style loop of two kernels per iteration (a graph region for
// pygraph), then a launch through the lambda kernel of step.cu.
#include "step.h"
#include <cstdio>
#include <cuda_runtime.h>

__device__ float relax(float left, float mid, float right);

__global__ void sweep(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) out[i] = relax(in[i - 1], in[i], in[i + 1]);
}

__global__ void pin(float *p, int n) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    p[0] = 1.0f;
    p[n - 1] = 0.0f;
  }
}

int main() {
  const int n = 4096, iters = 200;
  float *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, n * sizeof(float)) != cudaSuccess || cudaMalloc(&b, n * sizeof(float)) != cudaSuccess) {
    std::fprintf(stderr, "cmake_cuda_project: cudaMalloc failed\n");
    return 1;
  }
  cudaMemset(a, 0, n * sizeof(float));
  cudaMemset(b, 0, n * sizeof(float));
  for (int it = 0; it < iters; ++it) {
    pin<<<1, 32>>>(a, n);
    sweep<<<(n + 255) / 256, 256>>>(a, b, n);
    float *t = a;
    a = b;
    b = t;
  }
  clamp_all(a, n);
  static float h[n];
  if (cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) {
    std::fprintf(stderr, "cmake_cuda_project: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  report(h, n);
  cudaFree(a);
  cudaFree(b);
  return 0;
}
