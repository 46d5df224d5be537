// cg_solver.cu - implicit heat equation on a 2-D grid: every time step solves
// (I + a*L) x = x_prev + dt*source(t) with conjugate gradients.
//
// Hot loop (CG iteration): spmv, two dot products (fixed-order two-kernel
// reductions), two axpy-style updates, scalars kept on the device, pointer
// swap of the rr/rr_new scalars, and a cudaMemcpy of the residual norm to the
// host every iteration to test for convergence (with a max-iterations cap).
//
// With -fplugin-arg-pygraph-whole-loops=2 (the line below asks the example
// builds for it) the CG loop carries the whole-loop protocol: its exit test
// right after the residual copy, with the updates after it, makes the WHILE
// body an IF node's (issue 17); auto keeps it only where timed faster.
// pygraph-plugin-args: whole-loops=2
//
//   usage: cg_solver [time_steps=400]
//   build with -DHAND_GRAPH for the hand-written CUDA-graph reference.
#include "common.h"

#include <algorithm>
#include <cmath>

constexpr int NX = 256, NY = 256, N = NX * NY;
constexpr float A_COEF = 2.0f;      // a in  (1 + 4a) x_c - a * sum(neighbours)
constexpr float DT = 0.05f;
constexpr int RED_THREADS = 256;
constexpr int RED_BLOCKS = 128;
constexpr int MAX_CG_ITERS = 200;
constexpr float REL_TOL = 1e-5f;

__device__ __forceinline__ float stencil_apply(const float *v, int i, int j, int nx, int ny,
                                               float a) {
  int c = j * nx + i;
  float nb = 0.0f;
  if (i > 0) nb += v[c - 1];
  if (i < nx - 1) nb += v[c + 1];
  if (j > 0) nb += v[c - nx];
  if (j < ny - 1) nb += v[c + nx];
  return (1.0f + 4.0f * a) * v[c] - a * nb;
}

__global__ void spmv(const float *__restrict__ p, float *__restrict__ ap, int nx, int ny,
                     float a) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nx * ny) return;
  ap[k] = stencil_apply(p, k % nx, k / nx, nx, ny, a);
}

__global__ void make_rhs(const float *__restrict__ x, float *__restrict__ b, int nx, int ny,
                         float t, float dt) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nx * ny) return;
  float cx = 0.5f * nx + 0.3f * nx * cosf(t), cy = 0.5f * ny + 0.3f * ny * sinf(t);
  float dx = (float)(k % nx) - cx, dy = (float)(k / nx) - cy;
  b[k] = x[k] + dt * expf(-(dx * dx + dy * dy) * (1.0f / 64.0f));
}

// r = b - A x ; p = r
__global__ void residual_init(const float *__restrict__ b, const float *__restrict__ x,
                              float *__restrict__ r, float *__restrict__ p, int nx, int ny,
                              float a) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= nx * ny) return;
  float v = b[k] - stencil_apply(x, k % nx, k / nx, nx, ny, a);
  r[k] = v;
  p[k] = v;
}

__global__ void dot_partial(const float *a, const float *b, int n, float *partial) {
  __shared__ float sh[RED_THREADS];
  float s = 0.0f;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x)
    s += a[k] * b[k];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sh[0];
}

__global__ void dot_final(const float *partial, int nparts, float *out) {
  __shared__ float sh[RED_THREADS];
  float s = 0.0f;
  for (int k = threadIdx.x; k < nparts; k += blockDim.x) s += partial[k];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = sh[0];
}

// alpha = rr / pAp ; x += alpha p ; r -= alpha Ap
__global__ void update_xr(float *__restrict__ x, float *__restrict__ r, const float *__restrict__ p,
                          const float *__restrict__ ap, const float *rr, const float *pap, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float alpha = *rr / *pap;
  x[k] += alpha * p[k];
  r[k] -= alpha * ap[k];
}

// beta = rr_new / rr ; p = r + beta p
__global__ void update_p(float *__restrict__ p, const float *__restrict__ r, const float *rr_new,
                         const float *rr, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float beta = *rr_new / *rr;
  p[k] = r[k] + beta * p[k];
}

int main(int argc, char **argv) {
  const long steps = arg_long(argc, argv, 1, 400);

  float *d_x, *d_b, *d_r, *d_p, *d_ap, *d_partial, *d_scal;
  CHECK(cudaMalloc(&d_x, N * sizeof(float)));
  CHECK(cudaMalloc(&d_b, N * sizeof(float)));
  CHECK(cudaMalloc(&d_r, N * sizeof(float)));
  CHECK(cudaMalloc(&d_p, N * sizeof(float)));
  CHECK(cudaMalloc(&d_ap, N * sizeof(float)));
  CHECK(cudaMalloc(&d_partial, RED_BLOCKS * sizeof(float)));
  CHECK(cudaMalloc(&d_scal, 4 * sizeof(float)));

  std::vector<float> h_x0(N);
  Rng rng(2024);
  for (int k = 0; k < N; ++k) h_x0[k] = rng.uniform(0.0f, 0.1f);
  CHECK(cudaMemcpy(d_x, h_x0.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_scal, 0, 4 * sizeof(float)));

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const int T = 256, B = (N + T - 1) / T;
  std::vector<int> cg_iters(steps, 0);
  float *rr = d_scal + 0, *rr_new = d_scal + 1, *pap = d_scal + 2;

#ifdef HAND_GRAPH
  GraphRec g_setup(s), g_iter(s), g_dir(s);
  float *h_pinned;
  CHECK(cudaMallocHost(&h_pinned, sizeof(float)));
#endif

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long step = 0; step < steps; ++step) {
    const float t = DT * (float)step;
    float h_rr0 = 0.0f, h_rr = 0.0f;
#ifndef HAND_GRAPH
    make_rhs<<<B, T, 0, s>>>(d_x, d_b, NX, NY, t, DT);
    CHECK(cudaGetLastError());
    residual_init<<<B, T, 0, s>>>(d_b, d_x, d_r, d_p, NX, NY, A_COEF);
    CHECK(cudaGetLastError());
    dot_partial<<<RED_BLOCKS, RED_THREADS, 0, s>>>(d_r, d_r, N, d_partial);
    CHECK(cudaGetLastError());
    dot_final<<<1, RED_THREADS, 0, s>>>(d_partial, RED_BLOCKS, rr);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(&h_rr0, rr, sizeof(float), cudaMemcpyDeviceToHost));
#else
    g_setup.begin();
    g_setup.kernel(make_rhs, dim3(B), dim3(T), 0, s, d_x, d_b, NX, NY, t, DT);
    g_setup.kernel(residual_init, dim3(B), dim3(T), 0, s, d_b, d_x, d_r, d_p, NX, NY, A_COEF);
    g_setup.kernel(dot_partial, dim3(RED_BLOCKS), dim3(RED_THREADS), 0, s, d_r, d_r, N, d_partial);
    g_setup.kernel(dot_final, dim3(1), dim3(RED_THREADS), 0, s, d_partial, RED_BLOCKS, rr);
    g_setup.launch();
    CHECK(cudaMemcpyAsync(h_pinned, rr, sizeof(float), cudaMemcpyDeviceToHost, s));
    CHECK(cudaStreamSynchronize(s));
    h_rr0 = *h_pinned;
#endif
    const float threshold = REL_TOL * REL_TOL * h_rr0;
    int k = 0;
    while (k < MAX_CG_ITERS) {
      ++k;
#ifndef HAND_GRAPH
      spmv<<<B, T, 0, s>>>(d_p, d_ap, NX, NY, A_COEF);
      CHECK(cudaGetLastError());
      dot_partial<<<RED_BLOCKS, RED_THREADS, 0, s>>>(d_p, d_ap, N, d_partial);
      CHECK(cudaGetLastError());
      dot_final<<<1, RED_THREADS, 0, s>>>(d_partial, RED_BLOCKS, pap);
      CHECK(cudaGetLastError());
      update_xr<<<B, T, 0, s>>>(d_x, d_r, d_p, d_ap, rr, pap, N);
      CHECK(cudaGetLastError());
      dot_partial<<<RED_BLOCKS, RED_THREADS, 0, s>>>(d_r, d_r, N, d_partial);
      CHECK(cudaGetLastError());
      dot_final<<<1, RED_THREADS, 0, s>>>(d_partial, RED_BLOCKS, rr_new);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy(&h_rr, rr_new, sizeof(float), cudaMemcpyDeviceToHost));
      if (h_rr <= threshold) break;
      update_p<<<B, T, 0, s>>>(d_p, d_r, rr_new, rr, N);
      CHECK(cudaGetLastError());
#else
      g_iter.begin();
      g_iter.kernel(spmv, dim3(B), dim3(T), 0, s, d_p, d_ap, NX, NY, A_COEF);
      g_iter.kernel(dot_partial, dim3(RED_BLOCKS), dim3(RED_THREADS), 0, s, d_p, d_ap, N,
                    d_partial);
      g_iter.kernel(dot_final, dim3(1), dim3(RED_THREADS), 0, s, d_partial, RED_BLOCKS, pap);
      g_iter.kernel(update_xr, dim3(B), dim3(T), 0, s, d_x, d_r, d_p, d_ap, rr, pap, N);
      g_iter.kernel(dot_partial, dim3(RED_BLOCKS), dim3(RED_THREADS), 0, s, d_r, d_r, N,
                    d_partial);
      g_iter.kernel(dot_final, dim3(1), dim3(RED_THREADS), 0, s, d_partial, RED_BLOCKS, rr_new);
      g_iter.launch();
      CHECK(cudaMemcpyAsync(h_pinned, rr_new, sizeof(float), cudaMemcpyDeviceToHost, s));
      CHECK(cudaStreamSynchronize(s));
      h_rr = *h_pinned;
      if (h_rr <= threshold) break;
      g_dir.begin();
      g_dir.kernel(update_p, dim3(B), dim3(T), 0, s, d_p, d_r, rr_new, rr, N);
      g_dir.launch();
#endif
      std::swap(rr, rr_new);
    }
    cg_iters[step] = k;
  }
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  // Self-check: true residual of the last solve, in double on the host.
  std::vector<float> h_x(N), h_b(N);
  CHECK(cudaMemcpy(h_x.data(), d_x, N * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(h_b.data(), d_b, N * sizeof(float), cudaMemcpyDeviceToHost));
  double rn = 0.0, bn = 0.0;
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < NX; ++i) {
      int c = j * NX + i;
      double nb = 0.0;
      if (i > 0) nb += h_x[c - 1];
      if (i < NX - 1) nb += h_x[c + 1];
      if (j > 0) nb += h_x[c - NX];
      if (j < NY - 1) nb += h_x[c + NX];
      double ax = (1.0 + 4.0 * A_COEF) * h_x[c] - A_COEF * nb;
      rn += (h_b[c] - ax) * (h_b[c] - ax);
      bn += (double)h_b[c] * h_b[c];
    }
  const double rel = std::sqrt(rn / bn);
  long total = 0;
  int maxk = 0;
  for (int k : cg_iters) total += k, maxk = std::max(maxk, k);
  const bool ok = rel < 1e-3 && maxk < MAX_CG_ITERS;
  printf("cg_solver: %dx%d grid, %ld time steps, %ld CG iterations (max %d per step), "
         "final relative residual %.3e\n", NX, NY, steps, total, maxk, rel);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");

  Fnv1a64 f;
  f.add_host(h_x);
  f.add_host(cg_iters);
  f.print();
  print_loop_ms(t1 - t0);

#ifdef HAND_GRAPH
  CHECK(cudaFreeHost(h_pinned));
#endif
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_r));
  CHECK(cudaFree(d_p));
  CHECK(cudaFree(d_ap));
  CHECK(cudaFree(d_partial));
  CHECK(cudaFree(d_scal));
  return ok ? 0 : 1;
}
