// big_grid.cu - big-grid kernels whose arguments change every iteration
// (issue 14 part 2): each iteration launches three 2^22-thread kernels of a
// few microseconds each (16384 blocks of 256: about 16 waves on an H200), the
// shape of a sort benchmark's inner loop (a bitonic step whose (j, k) stage
// changes per launch).  Launch overhead is small next to the GPU work, so
// pygraph can win little here; what it must not do is slow the kernels down
// (programmatic early start of a grid with waves still to run, a loader in
// front of every replay).  Target: kernel_ms within 3% of the plain build.
//
// Prints checksum, loop_ms (host wall time, as every example) and kernel_ms:
// the loop timed with cudaEvents on its stream, the number bench/run_bench.sh
// tabulates for this example.
//
//   usage: big_grid [iterations=1500] [log2 elements=22]
#include "common.h"

constexpr int T = 256;

// y = a * x + b, a and b changing per iteration.
__global__ void axpb(const float *x, float *y, int n, float a, float b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + b;
}

// x = the mean of y and y shifted by a per-iteration stride (n a power of 2).
__global__ void shift_mix(const float *y, float *x, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0.5f * (y[i] + y[(i + stride) & (n - 1)]) - 0.25f;
}

// One compare-exchange stage (j, k) of a bitonic sorting network.
__global__ void bitonic_step(unsigned *keys, int n, int j, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int l = i ^ j;
  if (l <= i) return;
  unsigned a = keys[i], b = keys[l];
  bool up = (i & k) == 0;
  if ((a > b) == up) {
    keys[i] = b;
    keys[l] = a;
  }
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 1500);
  const int log2n = (int)arg_long(argc, argv, 2, 22);
  if (log2n < 8 || log2n > 28) {
    fprintf(stderr, "log2 elements must be 8..28\n");
    return 2;
  }
  const int n = 1 << log2n;
  // The bitonic network's stages in order: log2n (log2n + 1) / 2 of them
  // (253 for 2^22), cycled through by the iterations.
  std::vector<std::pair<int, int>> stages;
  for (int k = 2; k <= n; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) stages.push_back({j, k});

  std::vector<float> hx(n);
  std::vector<unsigned> hk(n);
  Rng rng(2024);
  for (float &v : hx) v = rng.uniform(-1.0f, 1.0f);
  for (unsigned &v : hk) v = (unsigned)(rng.uniform(0.0f, 1.0f) * 4294967040.0f);
  float *x, *y;
  unsigned *keys;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&keys, n * sizeof(unsigned)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(keys, hk.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const int blocks = (n + T - 1) / T;

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  CHECK(cudaEventRecord(start, s));
  for (long it = 0; it < iters; ++it) {
    const std::pair<int, int> &st = stages[it % (long)stages.size()];
    const float a = 0.75f + 0.125f * (float)(it % 5);
    axpb<<<blocks, T, 0, s>>>(x, y, n, a, 0.01f * (float)(it % 7));
    CHECK(cudaGetLastError());
    shift_mix<<<blocks, T, 0, s>>>(y, x, n, 1 << (it % log2n));
    CHECK(cudaGetLastError());
    bitonic_step<<<blocks, T, 0, s>>>(keys, n, st.first, st.second);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaEventRecord(stop, s));
  CHECK(cudaEventSynchronize(stop));
  const double t1 = now_ms();
  float kernel_ms = 0.0f;
  CHECK(cudaEventElapsedTime(&kernel_ms, start, stop));

  Fnv1a64 sum;
  sum.add_device(x, n);
  sum.add_device(keys, n);
  sum.print();
  print_loop_ms(t1 - t0);
  printf("kernel_ms: %.3f\n", kernel_ms);
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(keys));
  return 0;
}
