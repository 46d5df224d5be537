// early_exit.cu - issue 16: a batchable loop that ends in the middle of a
// batch.  Its trip bound comes from argv (known only at run time) and it
// leaves through a `break` on a host-side, data-independent condition
// (it == stop_at, stop_at from argv) placed BETWEEN its two kernels: the
// last iteration launches only the first one.  With the defaults (bound
// 50000, stop_at 37777) the loop runs 37778 iterations of `advance` and
// 37777 of `couple`: 1180 whole batches of 32 and a partial one of 18
// iterations, the last of them half an iteration, which must be flushed
// when the loop exits, exactly once and before anything that follows.
// (With stop_at >= bound the loop runs to its bound instead: e.g.
// `early_exit 50000 60000` leaves through the loop condition, 50000 = 1562 *
// 32 + 16.)  Right after it, without a synchronization, a second, different
// loop (one kernel per iteration, default 1001 iterations: 31 batches and 9)
// works on the same buffers.
//
// Every iteration is non-idempotent and order dependent: `advance` steps an
// integer hash chain per element, h = (h ^ (it * 2654435761 + i)) *
// 16777619, a bijection of h that depends on the iteration number, and
// feeds it into x = a x + (h >> 8) / 2^24; `couple` mixes x into y; the
// second loop steps h again, h = (h + j) * 2246822519, and mixes y back into
// x.  The self-check recomputes h on the host: a lost, duplicated or
// reordered iteration of either loop, or a partial batch flushed late (after
// the second loop's kernels), fails it and changes the checksum.  Two
// launches per iteration, so with batch=0 the first loop gets today's
// one-iteration regions.
//
//   usage: early_exit [bound=50000] [stop_at=37777] [second_iters=1001]
#include "common.h"

#include <cmath>

constexpr int N = 4096;   // elements: 16 blocks of 256
constexpr int T = 256;

__global__ void advance(unsigned *h, float *x, int n, unsigned it, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = (h[i] ^ (it * 2654435761u + (unsigned)i)) * 16777619u;
  h[i] = v;
  x[i] = a * x[i] + (float)(v >> 8) * (1.0f / 16777216.0f);
}

__global__ void couple(const float *x, float *y, int n, int shift, float c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = c * y[i] + (1.0f - c) * x[(i + shift) % n];
}

// The second loop's kernel.
__global__ void settle(unsigned *h, float *x, const float *y, int n, unsigned j) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  h[i] = (h[i] + j) * 2246822519u;
  x[i] = 0.75f * x[i] + 0.25f * y[n - 1 - i] + 0.001f * (float)(j % 13);
}

static float a_at(long it) { return 0.5f + 0.0625f * (float)(it % 7); }   // 0.5 .. 0.875
static float c_at(long it) { return 0.25f + 0.125f * (float)(it % 5); }   // 0.25 .. 0.75

int main(int argc, char **argv) {
  const long bound = arg_long(argc, argv, 1, 50000);
  const long stop_at = arg_long(argc, argv, 2, 37777);
  const long second = arg_long(argc, argv, 3, 1001);
  const int n = N;
  const int blocks = (n + T - 1) / T;
  // What the first loop runs: it leaves at it == stop_at, after `advance`.
  const long advances = stop_at < bound ? stop_at + 1 : bound;
  const long couples = stop_at < bound ? stop_at : bound;

  std::vector<unsigned> hh(n), h0(n);
  std::vector<float> hx(n), hy(n);
  Rng rng(3777);
  for (int i = 0; i < n; ++i) {
    h0[i] = (unsigned)rng.next();
    hx[i] = rng.uniform(0.0f, 1.0f);
    hy[i] = rng.uniform(0.0f, 1.0f);
  }
  unsigned *d_h;
  float *d_x, *d_y;
  CHECK(cudaMalloc(&d_h, n * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_x, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK(cudaMemcpy(d_h, h0.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_x, hx.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y, hy.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < bound; ++it) {
    advance<<<blocks, T, 0, s>>>(d_h, d_x, n, (unsigned)it, a_at(it));
    if (it == stop_at) break;   // leaves with this iteration's second kernel not launched
    couple<<<blocks, T, 0, s>>>(d_x, d_y, n, (int)(it % n), c_at(it));
  }
  for (long j = 0; j < second; ++j) settle<<<blocks, T, 0, s>>>(d_h, d_x, d_y, n, (unsigned)j);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  CHECK(cudaMemcpy(hh.data(), d_h, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hx.data(), d_x, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hy.data(), d_y, n * sizeof(float), cudaMemcpyDeviceToHost));

  // Self-check: the hash chains recomputed on the host, both loops, in order
  // (every 8th element: each iteration steps them all).
  long bad = 0;
  for (int i = 0; i < n; i += 8) {
    unsigned v = h0[i];
    for (long k = 0; k < advances; ++k)
      v = (v ^ ((unsigned)k * 2654435761u + (unsigned)i)) * 16777619u;
    for (long j = 0; j < second; ++j) v = (v + (unsigned)j) * 2246822519u;
    if (v != hh[i]) ++bad;
  }
  bool ok = bad == 0;
  for (int i = 0; i < n; ++i)
    if (!std::isfinite(hx[i]) || !std::isfinite(hy[i]) || std::fabs(hx[i]) > 16.0f ||
        std::fabs(hy[i]) > 16.0f)
      ok = false;
  printf("early_exit: bound %ld, stop_at %ld: %ld x advance, %ld x couple, then %ld x settle\n",
         bound, stop_at, advances, couples, second);
  printf("self-check: %s", ok ? "OK" : "FAILED");
  if (bad) printf(" (%ld of %d hash chains checked differ from the host's)", bad, n / 8);
  printf("\n");
  Fnv1a64 f;
  f.add_host(hh);
  f.add_host(hx);
  f.add_host(hy);
  f.print();
  print_loop_ms(t1 - t0);

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_h));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  return ok ? 0 : 1;
}
