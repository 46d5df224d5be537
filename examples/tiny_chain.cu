// tiny_chain.cu - the worst case for launch overhead: every iteration runs a
// chain of K tiny one-block kernels (K selectable at run time, default 32)
// whose pointer arguments rotate through a ring of buffers and whose scalar
// changes at every launch.
//
//   usage: tiny_chain [iterations=6000] [kernels_per_iteration=32]
//   build with -DHAND_GRAPH for the hand-written CUDA-graph reference.
#include "common.h"

#include <cmath>

constexpr int LEN = 256;   // elements per buffer: one block
constexpr int RING = 5;    // buffers in the ring

// c = s*a + (1-s)*b  (a convex mix, stays bounded)
__global__ void mix(const float *__restrict__ a, const float *__restrict__ b,
                    float *__restrict__ c, int n, float s) {
  int k = threadIdx.x;
  if (k < n) c[k] = s * a[k] + (1.0f - s) * b[k];
}

// c = a + 0.1*s*sin(a)
__global__ void wobble(const float *__restrict__ a, float *__restrict__ c, int n, float s) {
  int k = threadIdx.x;
  if (k < n) c[k] = a[k] + 0.1f * s * sinf(a[k]);
}

static float scalar_at(long it, int j) { return 0.3f + 0.004f * (float)((it * 31 + j) % 101); }

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 6000);
  const int K = (int)arg_long(argc, argv, 2, 32);

  float *ring[RING];
  Rng rng(99);
  std::vector<float> h(LEN);
  for (int r = 0; r < RING; ++r) {
    CHECK(cudaMalloc(&ring[r], LEN * sizeof(float)));
    for (float &x : h) x = rng.uniform(-1.0f, 1.0f);
    CHECK(cudaMemcpy(ring[r], h.data(), LEN * sizeof(float), cudaMemcpyHostToDevice));
  }
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
#ifdef HAND_GRAPH
  GraphRec g(s);
#endif

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
#ifdef HAND_GRAPH
    g.begin();
#endif
    for (int j = 0; j < K; ++j) {
      float *a = ring[(it + j) % RING];
      float *b = ring[(it + j + 1) % RING];
      float *c = ring[(it + j + 2) % RING];
      const float sc = scalar_at(it, j);
#ifndef HAND_GRAPH
      if (j % 2 == 0)
        mix<<<1, LEN, 0, s>>>(a, b, c, LEN, sc);
      else
        wobble<<<1, LEN, 0, s>>>(a, c, LEN, sc);
#else
      if (j % 2 == 0)
        g.kernel(mix, dim3(1), dim3(LEN), 0, s, a, b, c, LEN, sc);
      else
        g.kernel(wobble, dim3(1), dim3(LEN), 0, s, a, c, LEN, sc);
#endif
    }
#ifndef HAND_GRAPH
    CHECK(cudaGetLastError());
#else
    g.launch();
#endif
  }
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  Fnv1a64 f;
  bool ok = true;
  for (int r = 0; r < RING; ++r) {
    CHECK(cudaMemcpy(h.data(), ring[r], LEN * sizeof(float), cudaMemcpyDeviceToHost));
    for (float x : h)
      if (!std::isfinite(x) || std::fabs(x) > 100.0f) ok = false;
    f.add_host(h);
  }
  printf("tiny_chain: %ld iterations x %d kernels = %ld launches\n", iters, K, iters * K);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  f.print();
  print_loop_ms(t1 - t0);

  CHECK(cudaStreamDestroy(s));
  for (int r = 0; r < RING; ++r) CHECK(cudaFree(ring[r]));
  return ok ? 0 : 1;
}
