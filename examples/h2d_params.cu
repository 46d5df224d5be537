// h2d_params.cu - issue 18: a time-stepping loop that hands its per-step
// parameters to the device the way ordinary CUDA code does: a small host
// struct copied with a synchronous cudaMemcpy, and coefficients copied into
// __constant__ memory with cudaMemcpyToSymbol, each right before the kernel
// that reads them.  Such a copy reads its source before it returns and
// waits only for its stream (CUDA's "API synchronization behavior"), so
// pygraph reads the bytes at the call and delivers them in stream order
// inside the loop's graph (a kernel node whose parameters are the bytes,
// updated on each replay where they changed): the loop is one region of 3
// launches, where each launch would otherwise sit alone between two copies
// and stay eager.  Every iteration:
//
//   cudaMemcpy(d_step, &step, H2D)             {dt, a, b, step}: new every iteration
//   advance<<<...>>>(x, v, d_step)             x += dt v
//   cudaMemcpyToSymbol(c_coef, coef)           8 coefficients, new every iteration
//   force<<<...>>>(v, x, table)                v from x through c_coef and the table
//   cudaMemcpyToSymbol(c_step, &step)          the same struct, in __constant__ memory
//   relax<<<...>>>(x, v, hist)                 x damped by c_step; hist[step % H] = x[probe]
//
// The host overwrites `step` and `coef` right after their last copy (the
// call's contract allows it): a graph that read them later than the call
// would deliver the poison.  Every 500th iteration the host also rewrites
// and uploads a table larger than pygraph reads at the call (8 KiB by
// default, a size the compiler does not see): the runtime makes that copy
// the real, synchronous call.  The checksum hashes x, v, the probe history,
// the last step struct and coefficients as the device holds them.
//
//   usage: h2d_params [iterations=20000] [elements=16384] [table floats=2048]
//                     [table every=500]
// `h2d_params 20000 16384 N 1` uploads 4N bytes every iteration: plain
// against pygraph over N measures what a copy read at the call costs by
// size (up to 1024 floats, 4 KiB, the runtime's limit; above, it makes the
// real call).
#include "common.h"

#include <algorithm>
#include <cmath>

constexpr int T = 256;
constexpr int kHist = 64;          // probe history (a ring)

struct StepParams {
  float dt, a, b;
  int step;
};

__constant__ StepParams c_step;
__constant__ float c_coef[8];

// Keeps a value in [-4, 4).
__device__ inline float wrap4(float v) { return v - 8.0f * floorf((v + 4.0f) * 0.125f); }

// x[i] += dt v[i], dt from the struct in global memory.
__global__ void advance(float *x, const float *v, const StepParams *step, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = wrap4(x[i] + step->dt * v[i]);
}

// v[i] = c7 v[i] - (c0 + c1 x + c2 x^2 + c3 x^3 + c4 x[i+1] + c5 x[i-1] + c6 table[i % tn])
__global__ void force(float *v, const float *x, const float *table, int n, int tn) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float xi = x[i];
    float f = c_coef[0] + xi * (c_coef[1] + xi * (c_coef[2] + xi * c_coef[3]));
    f += c_coef[4] * x[i + 1 == n ? 0 : i + 1] + c_coef[5] * x[i == 0 ? n - 1 : i - 1];
    f += c_coef[6] * table[i % tn];
    v[i] = wrap4(c_coef[7] * v[i] - f);
  }
}

// x[i] = (1 - b) x[i] + a dt v[i], from the struct in __constant__ memory;
// the probe element's value goes to hist[step % kHist].
__global__ void relax(float *x, const float *v, float *hist, int n, int probe) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float xi = wrap4((1.0f - c_step.b) * x[i] + c_step.a * c_step.dt * v[i]);
    x[i] = xi;
    if (i == probe) hist[c_step.step % kHist] = xi;
  }
}

static StepParams step_of(long it) {
  StepParams s;
  s.dt = 1e-3f * (float)(1 + it % 5);
  s.a = 0.25f + 0.01f * (float)(it % 13);
  s.b = 0.01f * (float)(1 + it % 3);
  s.step = (int)it;
  return s;
}

static void coefficients(long it, std::vector<float> &coef) {
  for (int k = 0; k < 8; ++k) coef[k] = 0.001f * (float)((it * 7 + k * 3) % 11) - 0.004f;
  coef[7] = 0.9f + 0.001f * (float)(it % 17);
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 20000);
  const int n = (int)arg_long(argc, argv, 2, 16384);
  const int tn = (int)arg_long(argc, argv, 3, 2048);
  const long table_every = arg_long(argc, argv, 4, 500);
  std::vector<float> h(n), table(tn), coef(8);
  Rng rng(1819);
  for (int i = 0; i < n; ++i) h[i] = rng.uniform(-1.0f, 1.0f);
  for (int i = 0; i < tn; ++i) table[i] = rng.uniform(-1.0f, 1.0f);
  float *x, *v, *hist, *d_table;
  StepParams *d_step;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&v, n * sizeof(float)));
  CHECK(cudaMalloc(&hist, kHist * sizeof(float)));
  CHECK(cudaMalloc(&d_table, tn * sizeof(float)));
  CHECK(cudaMalloc(&d_step, sizeof(StepParams)));
  CHECK(cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(v, 0, n * sizeof(float)));
  CHECK(cudaMemset(hist, 0, kHist * sizeof(float)));
  const size_t table_bytes = (size_t)tn * sizeof(float);
  const int blocks = (n + T - 1) / T, probe = n / 3;

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    if (it % table_every == 0) {
      for (int i = 0; i < tn; ++i) table[i] = 0.5f * table[i] + 0.001f * (float)((it + i) % 7);
      CHECK(cudaMemcpy(d_table, table.data(), table_bytes, cudaMemcpyHostToDevice));
    }
    StepParams step = step_of(it);
    CHECK(cudaMemcpy(d_step, &step, sizeof step, cudaMemcpyHostToDevice));
    advance<<<blocks, T>>>(x, v, d_step, n);
    coefficients(it, coef);
    CHECK(cudaMemcpyToSymbol(c_coef, coef.data(), 8 * sizeof(float)));
    std::fill(coef.begin(), coef.end(), NAN);          // the host may reuse it at once
    force<<<blocks, T>>>(v, x, d_table, n, tn);
    CHECK(cudaMemcpyToSymbol(c_step, &step, sizeof step));
    step = StepParams{NAN, NAN, NAN, -1};             // likewise
    relax<<<blocks, T>>>(x, v, hist, n, probe);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  StepParams last;
  std::vector<float> last_coef(8);
  CHECK(cudaMemcpyFromSymbol(&last, c_step, sizeof last));
  CHECK(cudaMemcpyFromSymbol(last_coef.data(), c_coef, 8 * sizeof(float)));
  StepParams expect = step_of(iters - 1);
  bool ok = memcmp(&last, &expect, sizeof last) == 0;
  Fnv1a64 f;
  f.add_device(x, n);
  f.add_device(v, n);
  f.add_device(hist, kHist);
  f.add_device(d_step, 1);
  f.add(&last, sizeof last);
  f.add_host(last_coef);
  printf("h2d_params: %ld iterations on %d elements, table of %d floats every %ld\n", iters, n,
         tn, table_every);
  printf("self-check: %s\n", ok ? "OK" : "FAILED (c_step does not hold the last step's bytes)");
  f.print();
  print_loop_ms(t1 - t0);

  CHECK(cudaFree(x));
  CHECK(cudaFree(v));
  CHECK(cudaFree(hist));
  CHECK(cudaFree(d_table));
  CHECK(cudaFree(d_step));
  return ok ? 0 : 1;
}
