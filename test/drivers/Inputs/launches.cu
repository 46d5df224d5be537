// Two launches a region takes, one left eager after a synchronizing copy.
#include <cuda_runtime.h>
__global__ void k(float *p) { p[threadIdx.x] += 1.0f; }

void step(float *d, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(d);
    k<<<1, 32>>>(d);
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
    k<<<1, 32>>>(d);
  }
}

int main() {
  float *d, h[32];
  cudaMalloc(&d, sizeof h);
  step(d, h, 10);
  return 0;
}
