// multistream.cu - fork/join across two streams inside the hot loop.
//
// Per iteration: a producer kernel on the main stream, a fork
// (cudaEventRecord + cudaStreamWaitEvent) to a side stream, two kernels on
// each stream concurrently, a join back to the main stream, a combining
// kernel and a two-kernel reduction into a history array.  A phase value and
// the history index change every iteration; the state buffers are swapped.
//
//   usage: multistream [iterations=15000]
//   build with -DHAND_GRAPH for the hand-written CUDA-graph reference.
#include "common.h"

#include <algorithm>
#include <cmath>

constexpr int N = 1 << 15;
constexpr int T = 256, B = (N + T - 1) / T;
constexpr int RED_BLOCKS = 32;

__global__ void produce(const float *__restrict__ x, float *__restrict__ y, int n, float phase) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) y[k] = 0.9f * x[k] + 0.1f * sinf(phase + 0.001f * (float)k);
}
__global__ void branch_scale(const float *__restrict__ y, float *__restrict__ a, int n, float s) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) a[k] = s * y[k];
}
__global__ void branch_smooth(float *a, float *tmp, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float l = a[(k + n - 1) % n], r = a[(k + 1) % n];
  tmp[k] = 0.25f * l + 0.5f * a[k] + 0.25f * r;
}
__global__ void combine(const float *__restrict__ a, const float *__restrict__ b,
                        float *__restrict__ xn, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) xn[k] = 0.5f * (a[k] + b[k]);
}
__global__ void absmax_partial(const float *a, int n, float *partial) {
  __shared__ float sh[T];
  float m = 0.0f;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x)
    m = fmaxf(m, fabsf(a[k]));
  sh[threadIdx.x] = m;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) sh[threadIdx.x] = fmaxf(sh[threadIdx.x], sh[threadIdx.x + w]);
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sh[0];
}
__global__ void absmax_final(const float *partial, int nparts, float *hist, int it) {
  if (threadIdx.x != 0) return;
  float m = 0.0f;
  for (int k = 0; k < nparts; ++k) m = fmaxf(m, partial[k]);
  hist[it] = m;
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 15000);

  float *x, *xn, *y, *a, *a2, *b, *b2, *partial, *hist;
  float **bufs[] = {&x, &xn, &y, &a, &a2, &b, &b2};
  for (float **p : bufs) CHECK(cudaMalloc(p, N * sizeof(float)));
  CHECK(cudaMalloc(&partial, RED_BLOCKS * sizeof(float)));
  CHECK(cudaMalloc(&hist, iters * sizeof(float)));
  float *x0 = x, *x1 = xn;
  std::vector<float> h(N);
  Rng rng(31337);
  for (float &v : h) v = rng.uniform(-1.0f, 1.0f);
  CHECK(cudaMemcpy(x, h.data(), N * sizeof(float), cudaMemcpyHostToDevice));

  cudaStream_t s0, s1;
  CHECK(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  cudaEvent_t fork, join;
  CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
#ifdef HAND_GRAPH
  GraphRec g(s0);
#endif

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    const float phase = 0.01f * (float)(it % 628);
    const float sa = 1.0f + 0.01f * (float)(it % 5), sb = 1.0f - 0.01f * (float)(it % 3);
#ifndef HAND_GRAPH
    produce<<<B, T, 0, s0>>>(x, y, N, phase);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(fork, s0));
    CHECK(cudaStreamWaitEvent(s1, fork, 0));
    branch_scale<<<B, T, 0, s1>>>(y, a, N, sa);
    CHECK(cudaGetLastError());
    branch_smooth<<<B, T, 0, s1>>>(a, a2, N);
    CHECK(cudaGetLastError());
    branch_scale<<<B, T, 0, s0>>>(y, b, N, sb);
    CHECK(cudaGetLastError());
    branch_smooth<<<B, T, 0, s0>>>(b, b2, N);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(join, s1));
    CHECK(cudaStreamWaitEvent(s0, join, 0));
    combine<<<B, T, 0, s0>>>(a2, b2, xn, N);
    CHECK(cudaGetLastError());
    absmax_partial<<<RED_BLOCKS, T, 0, s0>>>(xn, N, partial);
    CHECK(cudaGetLastError());
    absmax_final<<<1, 32, 0, s0>>>(partial, RED_BLOCKS, hist, (int)it);
    CHECK(cudaGetLastError());
#else
    g.begin();
    g.kernel(produce, dim3(B), dim3(T), 0, s0, x, y, N, phase);
    if (g.capturing) {  // the fork becomes a graph edge
      CHECK(cudaEventRecord(fork, s0));
      CHECK(cudaStreamWaitEvent(s1, fork, 0));
    }
    g.kernel(branch_scale, dim3(B), dim3(T), 0, s1, y, a, N, sa);
    g.kernel(branch_smooth, dim3(B), dim3(T), 0, s1, a, a2, N);
    g.kernel(branch_scale, dim3(B), dim3(T), 0, s0, y, b, N, sb);
    g.kernel(branch_smooth, dim3(B), dim3(T), 0, s0, b, b2, N);
    if (g.capturing) {  // and so does the join
      CHECK(cudaEventRecord(join, s1));
      CHECK(cudaStreamWaitEvent(s0, join, 0));
    }
    g.kernel(combine, dim3(B), dim3(T), 0, s0, a2, b2, xn, N);
    g.kernel(absmax_partial, dim3(RED_BLOCKS), dim3(T), 0, s0, xn, N, partial);
    g.kernel(absmax_final, dim3(1), dim3(32), 0, s0, partial, RED_BLOCKS, hist, (int)it);
    g.launch();
#endif
    std::swap(x, xn);
  }
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  std::vector<float> hh(iters);
  CHECK(cudaMemcpy(h.data(), x, N * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hh.data(), hist, iters * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (float v : hh)
    if (!std::isfinite(v) || v > 10.0f) ok = false;
  printf("multistream: %ld iterations, 2 streams, final max|x| %.5f\n", iters, (double)hh[iters - 1]);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  Fnv1a64 f;
  f.add_host(h);
  f.add_host(hh);
  f.print();
  print_loop_ms(t1 - t0);

  CHECK(cudaEventDestroy(fork));
  CHECK(cudaEventDestroy(join));
  CHECK(cudaStreamDestroy(s0));
  CHECK(cudaStreamDestroy(s1));
  for (float *p : {x0, x1, y, a, a2, b, b2, partial, hist}) CHECK(cudaFree(p));
  return ok ? 0 : 1;
}
