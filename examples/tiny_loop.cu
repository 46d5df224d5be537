// tiny_loop.cu - issue 16's first case for multi-iteration graphs: a loop of
// ONE tiny one-block kernel per iteration whose float scalar changes at every
// iteration, and nothing else in the loop (no barrier, no host state but the
// counter).  One launch per iteration is below the two launch sites a
// one-iteration region needs, so with batch=0 the loop stays eager (the
// launch costs the CPU ~4.4 us on an H200, the kernel runs ~2-3 us: host
// bound); batched (plugin default batch=32) the loop is recorded across
// iterations and replayed as one graph of 32 kernel nodes per 32 iterations,
// the 32 scalars updated per replay.
//
// The kernel rotates each of 256 points in the plane by a fixed per-thread
// angle and adds the iteration's scalar: a rotation keeps its input's size,
// so every iteration's scalar stays in the final state (nothing is damped
// away) and, the angle being far from 0, so does their order: a lost,
// duplicated or reordered iteration changes the checksum.
//
//   usage: tiny_loop [iterations=60000]
//   build with -DHAND_GRAPH for the hand-written reference: 32 iterations
//   captured into one graph (stream capture), the 32 scalars patched per
//   replay with cudaGraphExecKernelNodeSetParams (GraphRec), the tail
//   (iterations % 32) launched eagerly.
#include "common.h"

#include <cmath>

constexpr int N = 256;   // points: one block of 256 threads
#ifdef HAND_GRAPH
constexpr int K = 32;    // iterations per graph
#endif

// Point k, (x[k], x[n + k]), rotated by 0.05 + 0.003 k radians, then shifted
// by s along x.
__global__ void step(float *x, int n, float s) {
  int k = threadIdx.x;
  if (k >= n) return;
  float sn, cs;
  sincosf(0.05f + 0.003f * (float)k, &sn, &cs);
  float u = x[k], v = x[n + k];
  x[k] = cs * u - sn * v + s;
  x[n + k] = sn * u + cs * v;
}

// In [-0.01, 0.01], period 2003 (prime, so no batch of 32 repeats another's).
static float scalar(long it) { return 0.00001f * (float)((it * 7919) % 2003 - 1001); }

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 60000);
  const int n = N;

  std::vector<float> h(2 * N);
  Rng rng(1616);
  for (float &v : h) v = rng.uniform(-1.0f, 1.0f);
  float *x;
  CHECK(cudaMalloc(&x, 2 * N * sizeof(float)));
  CHECK(cudaMemcpy(x, h.data(), 2 * N * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
#ifndef HAND_GRAPH
  for (long it = 0; it < iters; ++it) step<<<1, 256, 0, s>>>(x, n, scalar(it));
#else
  {
    GraphRec g(s);
    long it = 0;
    for (; it + K <= iters; it += K) {
      g.begin();
      for (int j = 0; j < K; ++j) g.kernel(step, dim3(1), dim3(256), 0, s, x, n, scalar(it + j));
      g.launch();
    }
    for (; it < iters; ++it) step<<<1, 256, 0, s>>>(x, n, scalar(it));
    CHECK(cudaStreamSynchronize(s));   // before ~GraphRec destroys the exec
  }
#endif
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  CHECK(cudaMemcpy(h.data(), x, 2 * N * sizeof(float), cudaMemcpyDeviceToHost));
  // Self-check: finite and bounded (rotations keep the size; the scalars
  // have mean 0 over their period, and their rotated sum stays within 4 at
  // the default trip count).
  bool ok = true;
  for (float v : h)
    if (!std::isfinite(v) || std::fabs(v) > 1000.0f) ok = false;
  printf("tiny_loop: %ld iterations of 1 kernel, x[0] = (%.6f, %.6f)\n", iters, (double)h[0],
         (double)h[N]);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  Fnv1a64 f;
  f.add_host(h);
  f.print();
  print_loop_ms(t1 - t0);

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(x));
  return ok ? 0 : 1;
}
