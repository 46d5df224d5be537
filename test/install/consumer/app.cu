// A loop of two small kernels: pygraph makes its iteration one graph region.
// Prints "consumer: ok" when the result is right (needs a GPU to run).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void add(float *p, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += v;
}

int main() {
  const int n = 1024, iters = 100;
  float *d = nullptr;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) {
    std::fprintf(stderr, "consumer: cudaMalloc failed\n");
    return 1;
  }
  cudaMemset(d, 0, n * sizeof(float));
  for (int it = 0; it < iters; ++it) {
    add<<<(n + 255) / 256, 256>>>(d, 1.0f, n);
    add<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  }
  static float h[n];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  for (int i = 0; i < n; ++i)
    if (h[i] != 3.0f * iters) {
      std::printf("consumer: wrong result h[%d]=%g\n", i, h[i]);
      return 1;
    }
  std::printf("consumer: ok\n");
  return 0;
}
