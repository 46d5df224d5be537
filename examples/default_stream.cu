// default_stream.cu - Gray-Scott reaction-diffusion, written the way a lot of
// simple CUDA code is: every launch on the legacy default stream
// (<<<grid, block>>> with no stream), the launches inside a helper function
// that the main loop calls, and a printf progress line every N iterations.
//
// 7 kernels per iteration; the seeding position and the iteration index
// change every iteration, and the helper swaps the state's grid pointers.
//
//   usage: default_stream [iterations=20000]
//   build with -DHAND_GRAPH for the hand-written CUDA-graph reference.
#include "common.h"

#include <algorithm>
#include <cmath>

constexpr int W = 192, H = 192, N = W * H;
constexpr int RED_THREADS = 256, RED_BLOCKS = 32;
constexpr int PROGRESS_EVERY = 2500;

__global__ void laplacian(const float *__restrict__ f, float *__restrict__ lf, int w, int h) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= w * h) return;
  int i = k % w, j = k / w;
  int l = j * w + (i + w - 1) % w, r = j * w + (i + 1) % w;
  int u = ((j + h - 1) % h) * w + i, d = ((j + 1) % h) * w + i;
  lf[k] = f[l] + f[r] + f[u] + f[d] - 4.0f * f[k];
}

__global__ void react(const float *__restrict__ u, const float *__restrict__ v,
                      const float *__restrict__ lu, const float *__restrict__ lv,
                      float *__restrict__ u2, float *__restrict__ v2, int n, float feed,
                      float kill, float dt) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  float uvv = u[k] * v[k] * v[k];
  u2[k] = u[k] + dt * (0.16f * lu[k] - uvv + feed * (1.0f - u[k]));
  v2[k] = v[k] + dt * (0.08f * lv[k] + uvv - (feed + kill) * v[k]);
}

__global__ void inject(float *v, int w, int h, int cx, int cy, float amount) {
  int di = (int)threadIdx.x % 3 - 1, dj = (int)threadIdx.x / 3 - 1;
  if (threadIdx.x >= 9) return;
  int i = (cx + di + w) % w, j = (cy + dj + h) % h;
  v[j * w + i] += amount;
}

__global__ void clamp01(float *u, float *v, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  u[k] = fminf(fmaxf(u[k], 0.0f), 1.0f);
  v[k] = fminf(fmaxf(v[k], 0.0f), 1.0f);
}

__global__ void sum_partial(const float *a, int n, float *partial) {
  __shared__ float sh[RED_THREADS];
  float s = 0.0f;
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x)
    s += a[k];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sh[0];
}

__global__ void sum_final(const float *partial, int nparts, float *hist, int it) {
  __shared__ float sh[RED_THREADS];
  float s = 0.0f;
  for (int k = threadIdx.x; k < nparts; k += blockDim.x) s += partial[k];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) hist[it] = sh[0];
}

struct State {
  float *u, *v, *u2, *v2, *lu, *lv, *partial, *hist;
};

static const float FEED = 0.035f, KILL = 0.065f, DT = 1.0f;

#ifndef HAND_GRAPH
static void step(State &st, long it) {
  const int T = 256, B = (N + T - 1) / T;
  laplacian<<<B, T>>>(st.u, st.lu, W, H);
  CHECK(cudaGetLastError());
  laplacian<<<B, T>>>(st.v, st.lv, W, H);
  CHECK(cudaGetLastError());
  react<<<B, T>>>(st.u, st.v, st.lu, st.lv, st.u2, st.v2, N, FEED, KILL, DT);
  CHECK(cudaGetLastError());
  inject<<<1, 32>>>(st.v2, W, H, (int)((it * 37) % W), (int)((it * 53) % H), 0.002f);
  CHECK(cudaGetLastError());
  clamp01<<<B, T>>>(st.u2, st.v2, N);
  CHECK(cudaGetLastError());
  sum_partial<<<RED_BLOCKS, RED_THREADS>>>(st.v2, N, st.partial);
  CHECK(cudaGetLastError());
  sum_final<<<1, RED_THREADS>>>(st.partial, RED_BLOCKS, st.hist, (int)it);
  CHECK(cudaGetLastError());
  std::swap(st.u, st.u2);
  std::swap(st.v, st.v2);
}
#else
// The same step, captured once on a stream and patched per iteration.
static void step(GraphRec &g, State &st, long it) {
  const int T = 256, B = (N + T - 1) / T;
  cudaStream_t s = g.stream;
  g.begin();
  g.kernel(laplacian, dim3(B), dim3(T), 0, s, st.u, st.lu, W, H);
  g.kernel(laplacian, dim3(B), dim3(T), 0, s, st.v, st.lv, W, H);
  g.kernel(react, dim3(B), dim3(T), 0, s, st.u, st.v, st.lu, st.lv, st.u2, st.v2, N, FEED,
           KILL, DT);
  g.kernel(inject, dim3(1), dim3(32), 0, s, st.v2, W, H, (int)((it * 37) % W),
           (int)((it * 53) % H), 0.002f);
  g.kernel(clamp01, dim3(B), dim3(T), 0, s, st.u2, st.v2, N);
  g.kernel(sum_partial, dim3(RED_BLOCKS), dim3(RED_THREADS), 0, s, st.v2, N, st.partial);
  g.kernel(sum_final, dim3(1), dim3(RED_THREADS), 0, s, st.partial, RED_BLOCKS, st.hist, (int)it);
  g.launch();
  std::swap(st.u, st.u2);
  std::swap(st.v, st.v2);
}
#endif

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 20000);

  std::vector<float> h_u(N, 1.0f), h_v(N, 0.0f);
  Rng rng(7);
  for (int j = H / 2 - 10; j < H / 2 + 10; ++j)
    for (int i = W / 2 - 10; i < W / 2 + 10; ++i) {
      h_u[j * W + i] = 0.5f + rng.uniform(-0.05f, 0.05f);
      h_v[j * W + i] = 0.25f + rng.uniform(-0.05f, 0.05f);
    }

  State st;
  float **bufs[] = {&st.u, &st.v, &st.u2, &st.v2, &st.lu, &st.lv};
  for (float **b : bufs) CHECK(cudaMalloc(b, N * sizeof(float)));
  CHECK(cudaMalloc(&st.partial, RED_BLOCKS * sizeof(float)));
  CHECK(cudaMalloc(&st.hist, iters * sizeof(float)));
  CHECK(cudaMemcpy(st.u, h_u.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(st.v, h_v.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  float *u0 = st.u, *v0 = st.v, *u1 = st.u2, *v1 = st.v2;  // for freeing

#ifdef HAND_GRAPH
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  GraphRec g(s);
#endif

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
#ifndef HAND_GRAPH
    step(st, it);
#else
    step(g, st, it);
#endif
    if ((it + 1) % PROGRESS_EVERY == 0) printf("progress: %ld / %ld iterations\n", it + 1, iters);
  }
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  std::vector<float> fu(N), fv(N), hist(iters);
  CHECK(cudaMemcpy(fu.data(), st.u, N * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(fv.data(), st.v, N * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hist.data(), st.hist, iters * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = true;
  for (int k = 0; k < N; ++k)
    if (!(fu[k] >= 0.0f && fu[k] <= 1.0f && fv[k] >= 0.0f && fv[k] <= 1.0f)) ok = false;
  printf("default_stream: %dx%d Gray-Scott, %ld iterations, sum(v) %.4f\n", W, H, iters,
         (double)hist[iters - 1]);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");

  Fnv1a64 f;
  f.add_host(fu);
  f.add_host(fv);
  f.add_host(hist);
  f.print();
  print_loop_ms(t1 - t0);

#ifdef HAND_GRAPH
  CHECK(cudaStreamDestroy(s));
#endif
  CHECK(cudaFree(u0));
  CHECK(cudaFree(v0));
  CHECK(cudaFree(u1));
  CHECK(cudaFree(v1));
  CHECK(cudaFree(st.lu));
  CHECK(cudaFree(st.lv));
  CHECK(cudaFree(st.partial));
  CHECK(cudaFree(st.hist));
  return ok ? 0 : 1;
}
