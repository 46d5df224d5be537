// counted_loop.cu - issue 17, "also for counted loops": a time-step loop
// with a trip count known at its entry and no status copy,
//   for (int t = 0; t < steps; ++t) { advance<<<>>>(b, a, t, n); relax<<<>>>(a, b, n); swap(a, b); }
// two small kernels per iteration on ping-pong buffers, the step number an
// argument (affine in the counter), the pointers rotating.  A batchable
// loop: pygraph batches it (up to 32 iterations per graph); built with
// whole-loops=2 it is also a whole-loop candidate, and the runtime runs each
// execution after the first as iteration 0 plus one WHILE graph (O(1) host
// work per execution), in auto mode only where that was timed faster than
// the batched graphs.  The loop runs `runs` times from fresh data with a
// trip count that changes between runs (odd and even: the buffer the
// result ends in changes), so the counter and the rotated pointers the
// runtime restores after a WHILE graph are checked by the checksum.
//
// advance: b[i] = a[i] + 0.001 * sin(0.01 t + 0.001 i); relax: a 3-point
// smoothing of b back into a; then the pointers swap, so each kernel's
// roles alternate between the buffers every step.  Element n counts the
// steps (the self-check).
//
// pygraph-plugin-args: whole-loops=2
//
// usage: counted_loop [steps=2001] [n=16384] [runs=6]
#include <cmath>
#include <utility>

#include "common.h"

constexpr int T = 256;

__global__ void advance(float *out, const float *in, int t, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = in[i] + 0.001f * sinf(0.01f * (float)t + 0.001f * (float)i);
  else if (i == n)
    out[n] = in[n] + 1.0f;
}

__global__ void relax(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float l = in[i == 0 ? n - 1 : i - 1], c = in[i], r = in[i == n - 1 ? 0 : i + 1];
    out[i] = 0.25f * l + 0.5f * c + 0.25f * r;
  } else if (i == n) {
    out[n] = in[n];
  }
}

// The loop pygraph runs whole: returns the buffer the last step wrote.
static float *time_steps(float *a, float *b, int steps, int n, cudaStream_t s) {
  const int blocks = (n + 1 + T - 1) / T;
  for (int t = 0; t < steps; ++t) {
    advance<<<blocks, T, 0, s>>>(b, a, t, n);
    relax<<<blocks, T, 0, s>>>(a, b, n);
    std::swap(a, b);
  }
  return a;
}

int main(int argc, char **argv) {
  const int steps = (int)arg_long(argc, argv, 1, 2001);
  const int n = (int)arg_long(argc, argv, 2, 16384);
  const int runs = (int)arg_long(argc, argv, 3, 6);
  if (steps < 1 || steps > (1 << 22) || n < 1 || n > (1 << 26) || runs < 1) {
    fprintf(stderr, "counted_loop: 1 <= steps <= 2^22, 1 <= n <= 2^26, runs >= 1\n");
    return 2;
  }
  std::vector<float> init(n + 1), h(n + 1);
  Rng rng(1717);
  for (int i = 0; i < n; ++i) init[i] = rng.uniform(-1.0f, 1.0f);
  init[n] = 0.0f;
  float *d0, *d1;
  CHECK(cudaMalloc(&d0, (n + 1) * sizeof(float)));
  CHECK(cudaMalloc(&d1, (n + 1) * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  Fnv1a64 f;
  bool ok = true;
  double ms = 0.0;
  for (int r = 0; r < runs; ++r) {
    const int k = steps + r % 2;           // odd and even trip counts
    CHECK(cudaMemcpy(d0, init.data(), (n + 1) * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d1, 0, (n + 1) * sizeof(float)));
    CHECK(cudaDeviceSynchronize());
    const double t0 = now_ms();
    float *out = time_steps(d0, d1, k, n, s);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
    ms += now_ms() - t0;
    CHECK(cudaMemcpy(h.data(), out, (n + 1) * sizeof(float), cudaMemcpyDeviceToHost));
    if (h[n] != (float)k) ok = false;
    for (int i = 0; i < n; ++i)
      if (!std::isfinite(h[i])) ok = false;
    printf("run %d: %d steps, counter %.0f, result in buffer %d\n", r, k, (double)h[n],
           out == d0 ? 0 : 1);
    f.add_host(h);
  }
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  f.print();
  print_loop_ms(ms);

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d0));
  CHECK(cudaFree(d1));
  return ok ? 0 : 1;
}
