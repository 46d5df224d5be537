// big_loop.cu - issue 16's "must not hurt" case: one big-grid kernel per
// iteration whose scalar changes every iteration, GPU bound.  Each launch is
// 2^22 threads (16384 blocks of 256: about 16 waves on an H200) that each
// rotate a point in the plane `inner` times (default 400: ~6.7e9 FP32
// operations, estimated 200-300 us on an H200, against ~4.4 us of CPU per
// eager launch), then shift it by the iteration's scalar.  Batched (32
// iterations per graph) the launches cost the host almost nothing, but the
// GPU is the bottleneck anyway: what batching must not do is slow the
// kernels down (a gap at every batch boundary while the host records the
// next batch, early start of a grid with waves still to run, a loader in
// front of every replay).  Target: kernel_ms of every pygraph variant within
// 3% of the plain build.  With batch=0 the single launch per iteration stays
// eager.
//
// Prints checksum, loop_ms (host wall time, as every example) and kernel_ms:
// the loop timed with cudaEvents on its stream, the number bench/run_bench.sh
// tabulates for this example (as for big_grid).
//
//   usage: big_loop [iterations=1200] [log2 threads=22] [inner rotations=400]
#include "common.h"

#include <cmath>

constexpr int T = 256;

// Point i, (x[i], x[n + i]), rotated `inner` times by a small angle that
// depends on i, then shifted by s along x.
__global__ void spin(float *x, int n, float s, int inner) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float sn, cs;
  sincosf(0.001f + 0.0001f * (float)(i & 1023), &sn, &cs);
  float u = x[i], v = x[n + i];
  for (int r = 0; r < inner; ++r) {
    float u2 = cs * u - sn * v;
    v = sn * u + cs * v;
    u = u2;
  }
  x[i] = u + s;
  x[n + i] = v;
}

// In [-0.05, 0.05], changing every iteration (period 97).
static float scalar(long it) { return 0.001f * (float)((it * 13) % 97 - 48); }

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 1200);
  const int log2n = (int)arg_long(argc, argv, 2, 22);
  const int inner = (int)arg_long(argc, argv, 3, 400);
  if (log2n < 8 || log2n > 27) {
    fprintf(stderr, "log2 threads must be 8..27\n");
    return 2;
  }
  const int n = 1 << log2n;

  std::vector<float> h(2 * (size_t)n);
  Rng rng(1717);
  for (float &v : h) v = rng.uniform(-1.0f, 1.0f);
  float *x;
  CHECK(cudaMalloc(&x, 2 * (size_t)n * sizeof(float)));
  CHECK(cudaMemcpy(x, h.data(), 2 * (size_t)n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  const int blocks = (n + T - 1) / T;

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  CHECK(cudaEventRecord(start, s));
  for (long it = 0; it < iters; ++it) spin<<<blocks, T, 0, s>>>(x, n, scalar(it), inner);
  CHECK(cudaEventRecord(stop, s));
  CHECK(cudaEventSynchronize(stop));
  const double t1 = now_ms();
  CHECK(cudaGetLastError());
  float kernel_ms = 0.0f;
  CHECK(cudaEventElapsedTime(&kernel_ms, start, stop));

  CHECK(cudaMemcpy(h.data(), x, 2 * (size_t)n * sizeof(float), cudaMemcpyDeviceToHost));
  // Self-check: finite, and bounded (a rotation keeps the size up to
  // rounding; the shifts add at most iters * 0.05).
  bool ok = true;
  const double bound = 2.0 + 0.05 * (double)iters;
  for (float v : h)
    if (!std::isfinite(v) || std::fabs(v) > bound) ok = false;
  printf("big_loop: %ld iterations of 1 kernel, %d threads x %d rotations, %.1f us per kernel\n",
         iters, n, inner, 1000.0 * kernel_ms / (double)iters);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  Fnv1a64 f;
  f.add_host(h);
  f.print();
  print_loop_ms(t1 - t0);
  printf("kernel_ms: %.3f\n", kernel_ms);

  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(x));
  return ok ? 0 : 1;
}
