// pingpong.cu - issue 16: one kernel per iteration that reads one buffer and
// writes the other, then std::swap of the two pointers: the loop's only host
// state is the pair of pointers (private stack slots), and the launch's
// arguments alternate between two sets.  An ODD trip count (default 50001 =
// 1562 * 32 + 17) leaves a tail that is not a whole batch and ends with the
// result in the buffer that was the input of the first iteration's kernel.
// With batch=0 the single launch per iteration stays eager; batched, a graph
// of 32 iterations (an even number: both pointer sets, in the same order
// every batch) replays without updates.
//
// relax: a damped 3-point smoothing on a ring of 64K elements plus a forcing
// wave driven by an iteration counter stored in the buffer itself (element
// n: the input's count, the output gets count + 1).  So the final buffer
// says how many iterations ran (the self-check compares it with the trip
// count) and a lost iteration, or the result read from the wrong buffer,
// changes the checksum.
//
// Each launch is 256 blocks of 256 threads (one wave), a few microseconds of
// GPU work: host bound in the plain build (~4.4 us per launch on an H200).
//
//   usage: pingpong [iterations=50001] [elements=65536]
#include "common.h"

#include <algorithm>
#include <cmath>

constexpr int T = 256;

// b[i] = 0.98 * smooth(a)[i] + 0.02 * sin(0.001 t + 0.01 i), t = a[n];
// b[n] = t + 1.
__global__ void relax(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float t = a[n];
  if (i < n) {
    float l = a[i == 0 ? n - 1 : i - 1], c = a[i], r = a[i == n - 1 ? 0 : i + 1];
    b[i] = 0.98f * (0.25f * l + 0.5f * c + 0.25f * r) +
           0.02f * sinf(0.001f * t + 0.01f * (float)i);
  } else if (i == n) {
    b[n] = t + 1.0f;
  }
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 50001);
  const int n = (int)arg_long(argc, argv, 2, 65536);
  if (iters > (1L << 24) || n > (1 << 28)) {
    fprintf(stderr, "pingpong: at most 2^24 iterations (the float counter) and 2^28 elements\n");
    return 2;
  }

  std::vector<float> h(n + 1);
  Rng rng(4242);
  for (int i = 0; i < n; ++i) h[i] = rng.uniform(-1.0f, 1.0f);
  h[n] = 0.0f;
  float *d0, *d1;
  CHECK(cudaMalloc(&d0, (n + 1) * sizeof(float)));
  CHECK(cudaMalloc(&d1, (n + 1) * sizeof(float)));
  CHECK(cudaMemcpy(d0, h.data(), (n + 1) * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d1, 0, (n + 1) * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const int blocks = (n + 1 + T - 1) / T;   // one thread more: the counter

  float *a = d0, *b = d1;
  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    relax<<<blocks, T, 0, s>>>(a, b, n);
    std::swap(a, b);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  // `a` holds the last iteration's output.
  CHECK(cudaMemcpy(h.data(), a, (n + 1) * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = h[n] == (float)iters;
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(h[i]) || std::fabs(h[i]) > 1.01f) ok = false;
  printf("pingpong: %ld iterations on %d elements, counter %.0f, result in buffer %d\n", iters, n,
         (double)h[n], a == d0 ? 0 : 1);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  Fnv1a64 f;
  f.add_host(h);
  f.print();
  print_loop_ms(t1 - t0);

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d0));
  CHECK(cudaFree(d1));
  return ok ? 0 : 1;
}
