// host_flag.cu - a host that waits on a flag a kernel sets: every iteration a
// kernel reduces a buffer and writes the result and the iteration number into
// mapped (zero-copy) host memory; the host spins on that number, reads the
// result, picks the next step size from it, and launches a chain of update
// kernels.  No CUDA call synchronizes, yet the spin is a host-device sync: had
// pygraph deferred the first launch into a graph, the spin would never end.
// The pass ends the segment at the volatile load; the update chain after it
// still becomes a graph.
//
//   usage: host_flag [iterations=4000]
#include "common.h"

#include <cmath>

constexpr int LEN = 1024;
constexpr int T = 256;
constexpr int B = LEN / T;
constexpr int CHAIN = 6;    // update kernels after the wait

struct Mailbox {            // in mapped host memory
  float norm;
  int seq;                  // written last: the iteration the norm belongs to
};

// One block: the mean of |x|, then the mailbox (payload first, then seq).
__global__ void report(const float *__restrict__ x, int n, volatile Mailbox *mb, int seq) {
  __shared__ float part[T];
  float s = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) s += fabsf(x[i]);
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    mb->norm = part[0] / (float)n;
    __threadfence_system();
    mb->seq = seq;
  }
}

// x = x + h * (0.5 - x) * (1 + 0.1 sin(x + k))   (relaxes x towards 0.5)
__global__ void relax(float *x, int n, float h, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += h * (0.5f - x[i]) * (1.0f + 0.1f * sinf(x[i] + (float)k));
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 4000);

  CHECK(cudaSetDeviceFlags(cudaDeviceMapHost));
  Mailbox *host_mb;
  CHECK(cudaHostAlloc((void **)&host_mb, sizeof(Mailbox), cudaHostAllocMapped));
  host_mb->norm = 0.0f;
  host_mb->seq = -1;
  Mailbox *dev_mb;
  CHECK(cudaHostGetDevicePointer((void **)&dev_mb, host_mb, 0));
  volatile Mailbox *mb = host_mb;

  float *x;
  CHECK(cudaMalloc(&x, LEN * sizeof(float)));
  Rng rng(4242);
  std::vector<float> h(LEN);
  for (float &v : h) v = rng.uniform(-3.0f, 3.0f);
  CHECK(cudaMemcpy(x, h.data(), LEN * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  double trace = 0.0;  // the norms the host read, in order
  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    report<<<1, T, 0, s>>>(x, LEN, dev_mb, (int)it);
    while (mb->seq != (int)it) {
    }
    const float norm = mb->norm;
    trace = trace * 0.5 + norm;
    // A step size that depends on what the device reported.
    const float step = 0.02f + 0.01f * fminf(norm, 2.0f);
    for (int k = 0; k < CHAIN; ++k)
      relax<<<B, T, 0, s>>>(x, LEN, step, (int)(it + k));
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  CHECK(cudaMemcpy(h.data(), x, LEN * sizeof(float), cudaMemcpyDeviceToHost));
  bool ok = std::isfinite(trace);
  for (float v : h)
    if (!std::isfinite(v) || std::fabs(v) > 4.0f) ok = false;
  Fnv1a64 f;
  f.add_host(h);
  f.add(&trace, sizeof trace);
  printf("host_flag: %ld iterations, %ld launches, trace %.9g\n", iters, iters * (1 + CHAIN),
         trace);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  f.print();
  print_loop_ms(t1 - t0);

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(x));
  CHECK(cudaFreeHost(host_mb));
  return ok ? 0 : 1;
}
