// alternating.cu - a launch-bound loop whose topology alternates with a short
// period: 1-D advection-diffusion of a small periodic signal with a slowly
// relaxing "memory" field.
//
// Hot loop (user-created stream, error check after each launch): 6 small
// kernels every iteration, plus
//   * an extra kernel only when it % 3 == 0 (the memory field is refreshed),
//   * a grid size that alternates between two values on even/odd iterations
//     for the two element-wise kernels (grid-stride loops, so the arithmetic
//     per element does not depend on the grid: results are deterministic),
// so the launch sequence repeats with period 6 but no two consecutive
// iterations launch the same sequence.  The scalars change every iteration.
//
//   usage: alternating [iterations=40000]
#include "common.h"

#include <cmath>

constexpr int N = 4096;          // elements (small: launch-bound)
constexpr int T = 256;           // threads per block
constexpr int GRID_EVEN = 8;     // blocks of the element-wise kernels, even iterations
constexpr int GRID_ODD = 16;     // ... odd iterations
constexpr int RED_BLOCKS = 16;

// v = u + c * (u[i+1] - u[i-1])   (periodic, central difference)
__global__ void advect(const float *__restrict__ u, float *__restrict__ v, int n, float c) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int l = i == 0 ? n - 1 : i - 1, r = i == n - 1 ? 0 : i + 1;
    v[i] = u[i] + c * (u[r] - u[l]);
  }
}

// v *= d
__global__ void damp(float *v, int n, float d) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    v[i] *= d;
}

// u = s*v + (1-s)*w   (convex mix with the memory field)
__global__ void mix(const float *__restrict__ v, const float *__restrict__ w,
                    float *__restrict__ u, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) u[i] = s * v[i] + (1.0f - s) * w[i];
}

// u = 0.999 u + 0.001 sin(phase + 0.01 i)   (bounded forcing)
__global__ void force(float *u, int n, float phase) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) u[i] = 0.999f * u[i] + 0.001f * sinf(phase + 0.01f * (float)i);
}

// extra (it % 3 == 0): w = 0.5 w + 0.5 u
__global__ void refresh_memory(const float *__restrict__ u, float *__restrict__ w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) w[i] = 0.5f * w[i] + 0.5f * u[i];
}

// partial[b] = sum of u^2 over a grid-stride slice, fixed-order tree.
__global__ void energy_partial(const float *u, int n, float *partial) {
  __shared__ float sh[T];
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    s += u[i] * u[i];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (unsigned w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sh[0];
}

__global__ void energy_record(const float *partial, int nparts, float *hist, int it) {
  if (threadIdx.x != 0) return;
  float s = 0.0f;
  for (int k = 0; k < nparts; ++k) s += partial[k];
  hist[it] = s;
}

static float courant_at(long it) { return 0.02f + 0.005f * (float)(it % 7); }   // 0.02 .. 0.05
static float damp_at(long it) { return 0.995f - 0.001f * (float)(it % 5); }     // 0.991 .. 0.995
static float mix_at(long it) { return 0.90f + 0.01f * (float)(it % 4); }        // 0.90 .. 0.93

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 40000);

  std::vector<float> h_u(N), h_w(N);
  Rng rng(4242);
  for (int i = 0; i < N; ++i) h_u[i] = rng.uniform(-1.0f, 1.0f);
  for (int i = 0; i < N; ++i) h_w[i] = rng.uniform(-0.5f, 0.5f);

  float *d_u, *d_v, *d_w, *d_partial, *d_hist;
  CHECK(cudaMalloc(&d_u, N * sizeof(float)));
  CHECK(cudaMalloc(&d_v, N * sizeof(float)));
  CHECK(cudaMalloc(&d_w, N * sizeof(float)));
  CHECK(cudaMalloc(&d_partial, RED_BLOCKS * sizeof(float)));
  CHECK(cudaMalloc(&d_hist, iters * sizeof(float)));
  CHECK(cudaMemcpy(d_u, h_u.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_w, h_w.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_v, 0, N * sizeof(float)));
  CHECK(cudaMemset(d_hist, 0, iters * sizeof(float)));

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const int B = (N + T - 1) / T;
  long extra_launches = 0;

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    const int g = (it & 1) ? GRID_ODD : GRID_EVEN;
    advect<<<g, T, 0, s>>>(d_u, d_v, N, courant_at(it));
    CHECK(cudaGetLastError());
    damp<<<g, T, 0, s>>>(d_v, N, damp_at(it));
    CHECK(cudaGetLastError());
    mix<<<B, T, 0, s>>>(d_v, d_w, d_u, N, mix_at(it));
    CHECK(cudaGetLastError());
    force<<<B, T, 0, s>>>(d_u, N, 0.01f * (float)it);
    CHECK(cudaGetLastError());
    if (it % 3 == 0) {
      refresh_memory<<<B, T, 0, s>>>(d_u, d_w, N);
      CHECK(cudaGetLastError());
      ++extra_launches;
    }
    energy_partial<<<RED_BLOCKS, T, 0, s>>>(d_u, N, d_partial);
    CHECK(cudaGetLastError());
    energy_record<<<1, 32, 0, s>>>(d_partial, RED_BLOCKS, d_hist, (int)it);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  std::vector<float> h_hist(iters);
  CHECK(cudaMemcpy(h_u.data(), d_u, N * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_w.data(), d_w, N * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_hist.data(), d_hist, iters * sizeof(float), cudaMemcpyDeviceToHost));

  // Self-check: everything finite and bounded (the scheme is damped and the
  // forcing is small, so |u| and |w| stay below the initial range).
  bool ok = true;
  for (int i = 0; i < N; ++i)
    if (!std::isfinite(h_u[i]) || !std::isfinite(h_w[i]) || std::fabs(h_u[i]) > 2.0f ||
        std::fabs(h_w[i]) > 2.0f)
      ok = false;
  for (float e : h_hist)
    if (!std::isfinite(e)) ok = false;
  printf("alternating: %d elements, %ld iterations, %ld launches, energy %.6e -> %.6e\n", N,
         iters, 6 * iters + extra_launches, (double)h_hist[0], (double)h_hist[iters - 1]);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");

  Fnv1a64 f;
  f.add_host(h_u);
  f.add_host(h_w);
  f.add_host(h_hist);
  f.print();
  print_loop_ms(t1 - t0);

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_u));
  CHECK(cudaFree(d_v));
  CHECK(cudaFree(d_w));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_hist));
  return ok ? 0 : 1;
}
