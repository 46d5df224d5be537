// multi_gpu_loop.cu - issue 20: one host thread drives two GPUs, the usual
// way: each iteration sets each device in turn and launches that device's
// small kernels on its own stream (data parallel, no communication).  With
// pygraph the region is the whole iteration; cudaSetDevice is no barrier,
// and the runtime keeps one graph per device, each captured and replayed on
// its device's stream, the device the program set last current again after
// each iteration.
//
// Each device rotates 256 points by a per-thread angle and shifts them by
// the iteration's scalar (as tiny_loop.cu), then damps and adds a
// per-device offset: every iteration's scalar stays in the final state, so
// a lost, duplicated or reordered launch changes the checksum.
//
//   usage: multi_gpu_loop [iterations=20000]
//   With fewer than 2 GPUs it prints a "skip:" line and exits 0.
#include "common.h"

constexpr int N = 256;
constexpr int DEVICES = 2;

__global__ void rotate(float *x, int n, float s) {
  int k = threadIdx.x;
  if (k >= n) return;
  float sn, cs;
  sincosf(0.05f + 0.003f * (float)k, &sn, &cs);
  float u = x[k], v = x[n + k];
  x[k] = cs * u - sn * v + s;
  x[n + k] = sn * u + cs * v;
}

__global__ void damp(float *x, int n, float offset) {
  int k = threadIdx.x;
  if (k >= n) return;
  x[k] = 0.999f * x[k] + offset;
  x[n + k] = 0.999f * x[n + k] - offset;
}

int main(int argc, char **argv) {
  long iters = arg_long(argc, argv, 1, 20000);
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  if (count < DEVICES) {
    printf("skip: multi_gpu_loop needs %d GPUs, found %d\n", DEVICES, count);
    return 0;
  }
  float *x[DEVICES];
  cudaStream_t s[DEVICES];
  std::vector<float> init(2 * N);
  for (int k = 0; k < 2 * N; ++k) init[k] = 0.001f * (float)k;
  for (int d = 0; d < DEVICES; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaStreamCreateWithFlags(&s[d], cudaStreamNonBlocking));
    CHECK(cudaMalloc(&x[d], 2 * N * sizeof(float)));
    CHECK(cudaMemcpy(x[d], init.data(), 2 * N * sizeof(float), cudaMemcpyHostToDevice));
  }
  for (int d = 0; d < DEVICES; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaDeviceSynchronize());
  }

  double t0 = now_ms();
  for (long i = 0; i < iters; ++i) {
    float scalar = 0.001f * (float)(i % 97);
    for (int d = 0; d < DEVICES; ++d) {
      cudaSetDevice(d);
      rotate<<<1, N, 0, s[d]>>>(x[d], N, scalar + 0.5f * (float)d);
      damp<<<1, N, 0, s[d]>>>(x[d], N, 0.0001f * (float)(d + 1));
      rotate<<<1, N, 0, s[d]>>>(x[d], N, -scalar);
    }
  }
  for (int d = 0; d < DEVICES; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaStreamSynchronize(s[d]));
  }
  double ms = now_ms() - t0;
  CHECK_LAUNCH();

  Fnv1a64 sum;
  for (int d = 0; d < DEVICES; ++d) {
    CHECK(cudaSetDevice(d));
    sum.add_device(x[d], 2 * N);
    CHECK(cudaFree(x[d]));
    CHECK(cudaStreamDestroy(s[d]));
  }
  sum.print();
  print_loop_ms(ms);
  return 0;
}
