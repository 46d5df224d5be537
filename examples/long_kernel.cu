// long_kernel.cu - a control case where CUDA graphs cannot help: a few
// long-running kernels per iteration (tens of milliseconds each), so launch
// overhead is noise.  pygraph should leave it alone or at least not slow it.
//
//   usage: long_kernel [iterations=12] [inner=150000]
#include "common.h"

#include <cmath>

constexpr int N = 1 << 20, T = 256, RED_BLOCKS = 64;

// Iterate a bounded nonlinear map `inner` times per element.
__global__ void burn(float *x, int n, int inner, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  for (int k = 0; k < inner; ++k) v = a * sinf(v) + 0.5f * v * (1.0f - 0.01f * v * v) * 0.5f;
  x[i] = v;
}

__global__ void neighbour_mix(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 0.5f * x[i] + 0.25f * (x[(i + 1) % n] + x[(i + n - 1) % n]);
}

__global__ void sum_partial(const float *a, int n, float *partial) {
  __shared__ float sh[T];
  float s = 0.0f;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) s += a[k];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sh[0];
}

__global__ void sum_final(const float *partial, int nparts, float *hist, int it) {
  if (threadIdx.x != 0) return;
  float s = 0.0f;
  for (int k = 0; k < nparts; ++k) s += partial[k];
  hist[it] = s;
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 12);
  const int inner = (int)arg_long(argc, argv, 2, 150000);
  std::vector<float> h(N);
  Rng rng(17);
  for (float &v : h) v = rng.uniform(-2.0f, 2.0f);
  float *x, *y, *partial, *hist;
  CHECK(cudaMalloc(&x, N * sizeof(float)));
  CHECK(cudaMalloc(&y, N * sizeof(float)));
  CHECK(cudaMalloc(&partial, RED_BLOCKS * sizeof(float)));
  CHECK(cudaMalloc(&hist, iters * sizeof(float)));
  CHECK(cudaMemcpy(x, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const int B = (N + T - 1) / T;

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
#ifndef HAND_GRAPH
  for (long it = 0; it < iters; ++it) {
    const float a = 1.0f + 0.05f * (float)(it % 4);
    burn<<<B, T, 0, s>>>(x, N, inner, a);
    CHECK(cudaGetLastError());
    neighbour_mix<<<B, T, 0, s>>>(x, y, N);
    CHECK(cudaGetLastError());
    sum_partial<<<RED_BLOCKS, T, 0, s>>>(y, N, partial);
    CHECK(cudaGetLastError());
    sum_final<<<1, 32, 0, s>>>(partial, RED_BLOCKS, hist, (int)it);
    CHECK(cudaGetLastError());
    std::swap(x, y);
  }
#else
  GraphRec g(s);
  for (long it = 0; it < iters; ++it) {
    const float a = 1.0f + 0.05f * (float)(it % 4);
    g.begin();
    g.kernel(burn, dim3(B), dim3(T), 0, s, x, N, inner, a);
    g.kernel(neighbour_mix, dim3(B), dim3(T), 0, s, x, y, N);
    g.kernel(sum_partial, dim3(RED_BLOCKS), dim3(T), 0, s, y, N, partial);
    g.kernel(sum_final, dim3(1), dim3(32), 0, s, partial, RED_BLOCKS, hist, (int)it);
    g.launch();
    std::swap(x, y);
  }
#endif
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  std::vector<float> hh(iters);
  CHECK(cudaMemcpy(h.data(), x, N * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hh.data(), hist, iters * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (float v : h)
    if (!std::isfinite(v)) ok = false;
  printf("long_kernel: %ld iterations, %d inner steps per element, sum %.4f\n", iters, inner,
         (double)hh[iters - 1]);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  Fnv1a64 f;
  f.add_host(h);
  f.add_host(hh);
  f.print();
  print_loop_ms(t1 - t0);
  CHECK(cudaStreamDestroy(s));
  return ok ? 0 : 1;
}
