// threads.cu - the same launch loop run by several host threads at once, each
// on its own stream and buffers: a region entered concurrently must stay
// correct (each thread gets its own graph state for the region).
#include "common.h"

#include <thread>

__global__ void axpby(const float *x, float *y, int n, float a, float b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b * y[i];
}

__global__ void shift(const float *y, float *x, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = y[(i + 1) % n] * 0.5f + s;
}

// Called by every thread: one region, entered concurrently.
static void run_steps(float *x, float *y, int n, long iters, int tid, cudaStream_t s) {
  for (long it = 0; it < iters; ++it) {
    const float a = 0.5f + 0.001f * (float)(it % 16) + 0.01f * (float)tid;
    axpby<<<(n + 255) / 256, 256, 0, s>>>(x, y, n, a, 0.25f);
    CHECK_LAUNCH();
    shift<<<(n + 255) / 256, 256, 0, s>>>(y, x, n, 0.001f * (float)it);
    CHECK_LAUNCH();
    axpby<<<(n + 255) / 256, 256, 0, s>>>(y, x, n, 0.75f, 0.125f);
    CHECK_LAUNCH();
  }
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 20000);
  const int nthreads = (int)arg_long(argc, argv, 2, 4);
  const int n = 4096;
  std::vector<float *> xs(nthreads), ys(nthreads);
  std::vector<cudaStream_t> streams(nthreads);
  std::vector<float> init(n);
  for (int i = 0; i < n; ++i) init[i] = (float)(i % 97) / 97.0f;
  for (int t = 0; t < nthreads; ++t) {
    CHECK(cudaMalloc(&xs[t], n * sizeof(float)));
    CHECK(cudaMalloc(&ys[t], n * sizeof(float)));
    CHECK(cudaMemcpy(xs[t], init.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(ys[t], init.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaStreamCreateWithFlags(&streams[t], cudaStreamNonBlocking));
  }
  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  std::vector<std::thread> pool;
  for (int t = 0; t < nthreads; ++t)
    pool.emplace_back(run_steps, xs[t], ys[t], n, iters, t, streams[t]);
  for (auto &th : pool) th.join();
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();
  Fnv1a64 f;
  for (int t = 0; t < nthreads; ++t) {
    f.add_device(xs[t], n);
    f.add_device(ys[t], n);
  }
  printf("threads: %d threads x %ld iterations\n", nthreads, iters);
  f.print();
  print_loop_ms(t1 - t0);
  return 0;
}
