// md_step.cu - 2-D molecular dynamics with a soft repulsive pair potential:
// per step forces (over a Verlet neighbour list), integrate, periodic
// boundary, kinetic-energy reduction; the neighbour list is rebuilt every
// REBUILD steps (a launch that is only in some iterations).
//
//   usage: md_step [steps=10000]
//   build with -DHAND_GRAPH for the hand-written CUDA-graph reference (two
//   graphs: one step with the neighbour-list rebuild, one without).
#include "common.h"

#include <cmath>

constexpr int NSIDE = 64, N = NSIDE * NSIDE;
constexpr float BOX = 64.0f, RC = 1.2f, SKIN = 0.6f, DT = 0.005f, KSPRING = 20.0f;
constexpr int MAXNB = 48, REBUILD = 10, T = 128, RED_BLOCKS = 32;

__device__ __forceinline__ float wrapd(float d) {  // minimum image
  return d - BOX * rintf(d / BOX);
}

// Brute force O(N^2) list build, neighbours in index order (deterministic).
__global__ void build_nlist(const float2 *pos, int *nlist, int *ncount, int *overflow, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 p = pos[i];
  const float r2max = (RC + SKIN) * (RC + SKIN);
  int c = 0;
  for (int j = 0; j < n; ++j) {
    if (j == i) continue;
    float dx = wrapd(pos[j].x - p.x), dy = wrapd(pos[j].y - p.y);
    if (dx * dx + dy * dy < r2max) {
      if (c < MAXNB) nlist[i * MAXNB + c] = j;
      ++c;
    }
  }
  if (c > MAXNB) *overflow = 1;
  ncount[i] = min(c, MAXNB);
}

__global__ void forces(const float2 *pos, const int *nlist, const int *ncount, float2 *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 p = pos[i];
  float fx = 0.0f, fy = 0.0f;
  for (int k = 0; k < ncount[i]; ++k) {
    int j = nlist[i * MAXNB + k];
    float dx = wrapd(p.x - pos[j].x), dy = wrapd(p.y - pos[j].y);
    float r = sqrtf(dx * dx + dy * dy);
    if (r < RC && r > 0.0f) {
      float mag = KSPRING * (RC - r) / r;
      fx += mag * dx;
      fy += mag * dy;
    }
  }
  f[i] = make_float2(fx, fy);
}

__global__ void integrate(float2 *pos, float2 *vel, const float2 *f, int n, float dt, float damp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 v = vel[i];
  v.x = (v.x + dt * f[i].x) * damp;
  v.y = (v.y + dt * f[i].y) * damp;
  vel[i] = v;
  pos[i].x += dt * v.x;
  pos[i].y += dt * v.y;
}

__global__ void wrap_box(float2 *pos, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float2 p = pos[i];
  p.x -= BOX * floorf(p.x / BOX);
  p.y -= BOX * floorf(p.y / BOX);
  pos[i] = p;
}

__global__ void ke_partial(const float2 *vel, int n, float *partial) {
  __shared__ float sh[T];
  float s = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    s += 0.5f * (vel[i].x * vel[i].x + vel[i].y * vel[i].y);
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sh[0];
}

__global__ void ke_final(const float *partial, int nparts, float *hist, int step) {
  if (threadIdx.x != 0) return;
  float s = 0.0f;
  for (int k = 0; k < nparts; ++k) s += partial[k];
  hist[step] = s;
}

int main(int argc, char **argv) {
  const long steps = arg_long(argc, argv, 1, 10000);
  std::vector<float2> hp(N), hv(N);
  Rng rng(8080);
  for (int j = 0; j < NSIDE; ++j)
    for (int i = 0; i < NSIDE; ++i) {
      int k = j * NSIDE + i;
      hp[k] = make_float2(i + 0.5f + rng.uniform(-0.2f, 0.2f), j + 0.5f + rng.uniform(-0.2f, 0.2f));
      hv[k] = make_float2(rng.uniform(-1.0f, 1.0f), rng.uniform(-1.0f, 1.0f));
    }
  float2 *pos, *vel, *f;
  int *nlist, *ncount, *overflow;
  float *partial, *hist;
  CHECK(cudaMalloc(&pos, N * sizeof(float2)));
  CHECK(cudaMalloc(&vel, N * sizeof(float2)));
  CHECK(cudaMalloc(&f, N * sizeof(float2)));
  CHECK(cudaMalloc(&nlist, N * MAXNB * sizeof(int)));
  CHECK(cudaMalloc(&ncount, N * sizeof(int)));
  CHECK(cudaMalloc(&overflow, sizeof(int)));
  CHECK(cudaMalloc(&partial, RED_BLOCKS * sizeof(float)));
  CHECK(cudaMalloc(&hist, steps * sizeof(float)));
  CHECK(cudaMemcpy(pos, hp.data(), N * sizeof(float2), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(vel, hv.data(), N * sizeof(float2), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(overflow, 0, sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const int B = (N + T - 1) / T;

#ifdef HAND_GRAPH
  // The expert's choice for a launch that is only in some iterations: keep
  // one graph per topology and replay whichever the step needs.
  GraphRec g_rebuild(s), g_plain(s);
#endif

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long step = 0; step < steps; ++step) {
#ifndef HAND_GRAPH
    if (step % REBUILD == 0) {
      build_nlist<<<B, T, 0, s>>>(pos, nlist, ncount, overflow, N);
      CHECK(cudaGetLastError());
    }
    const float damp = step < steps / 2 ? 0.9999f : 1.0f;
    forces<<<B, T, 0, s>>>(pos, nlist, ncount, f, N);
    CHECK(cudaGetLastError());
    integrate<<<B, T, 0, s>>>(pos, vel, f, N, DT, damp);
    CHECK(cudaGetLastError());
    wrap_box<<<B, T, 0, s>>>(pos, N);
    CHECK(cudaGetLastError());
    ke_partial<<<RED_BLOCKS, T, 0, s>>>(vel, N, partial);
    CHECK(cudaGetLastError());
    ke_final<<<1, 32, 0, s>>>(partial, RED_BLOCKS, hist, (int)step);
    CHECK(cudaGetLastError());
#else
    const bool rebuild = step % REBUILD == 0;
    GraphRec &g = rebuild ? g_rebuild : g_plain;
    const float damp = step < steps / 2 ? 0.9999f : 1.0f;
    g.begin();
    if (rebuild)
      g.kernel(build_nlist, dim3(B), dim3(T), 0, s, pos, nlist, ncount, overflow, N);
    g.kernel(forces, dim3(B), dim3(T), 0, s, pos, nlist, ncount, f, N);
    g.kernel(integrate, dim3(B), dim3(T), 0, s, pos, vel, f, N, DT, damp);
    g.kernel(wrap_box, dim3(B), dim3(T), 0, s, pos, N);
    g.kernel(ke_partial, dim3(RED_BLOCKS), dim3(T), 0, s, vel, N, partial);
    g.kernel(ke_final, dim3(1), dim3(32), 0, s, partial, RED_BLOCKS, hist, (int)step);
    g.launch();
#endif
  }
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  int h_over = 0;
  std::vector<float> hh(steps);
  CHECK(cudaMemcpy(&h_over, overflow, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hp.data(), pos, N * sizeof(float2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hv.data(), vel, N * sizeof(float2), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hh.data(), hist, steps * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = !h_over && std::isfinite(hh[steps - 1]);
  for (const float2 &p : hp)
    if (!(p.x >= 0.0f && p.x <= BOX && p.y >= 0.0f && p.y <= BOX)) ok = false;
  printf("md_step: %d particles, %ld steps, kinetic energy %.4f -> %.4f%s\n", N, steps,
         (double)hh[0], (double)hh[steps - 1], h_over ? " (neighbour list overflow)" : "");
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  Fnv1a64 fh;
  fh.add_host(hp);
  fh.add_host(hv);
  fh.add_host(hh);
  fh.print();
  print_loop_ms(t1 - t0);
  CHECK(cudaStreamDestroy(s));
  return ok ? 0 : 1;
}
