// sync_copies.cu - issue 18: a loop whose launches are separated by the
// synchronous cudaMemset and cudaMemcpy that ordinary CUDA code writes
// between kernels.  On device memory neither makes the host wait (CUDA's
// "API synchronization behavior"), so pygraph defers them into the loop's
// graph: the loop is one region of 3 launches, where each launch would
// otherwise sit alone between two barriers and stay eager.  Every iteration:
//
//   scatter<<<..., s>>>(acc, x, prev, it)       acc += f(x, prev, it)
//   cudaMemcpy(snap + slot, acc + off, D2D)     a device-to-device snapshot: deferred
//   combine<<<..., s>>>(x, acc, it)             x from acc
//   cudaMemset(acc, 0)                          device memory: deferred
//   cudaMemcpy(prev, x, cudaMemcpyDefault)      both device memory: deferred
//   damp<<<..., s>>>(x, prev)                   x from x and the copy just made
//
// The kernels run on a created (blocking) stream, the synchronous calls on
// the legacy default stream, which orders them with the kernels both ways:
// a graph must keep that order.  Every 997th iteration the same two calls
// also go to pinned host memory, which the host reads right after them (a
// memset of pinned memory and a copy to it are synchronous): pygraph must
// find that out at run time and make them the real, synchronous calls, or
// the host reads stale bytes (the self-check and the checksum, which hashes
// what the host read, both catch that).
//
//   usage: sync_copies [iterations=20000] [elements=16384]
#include "common.h"

constexpr int T = 256;
constexpr int kSnap = 32;      // elements per snapshot
constexpr int kSlots = 64;     // snapshots kept (a ring)
constexpr int kHostEvery = 997;

// acc[i] += 0.5 x[i] + 0.25 prev[(i + 1) % n] + 0.125 (it % 7): acc is what
// the last iteration's memset left (zeros, unless it was lost or came late).
__global__ void scatter(float *acc, const float *x, const float *prev, int n, int it) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    acc[i] += 0.5f * x[i] + 0.25f * prev[i + 1 == n ? 0 : i + 1] + 0.125f * (float)(it % 7);
}

// x[i] = 0.75 acc[i] - 0.25 acc[(i + n - 1) % n] + 0.001 (it % 16), kept in [-4, 4)
__global__ void combine(float *x, const float *acc, int n, int it) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = 0.75f * acc[i] - 0.25f * acc[i == 0 ? n - 1 : i - 1] + 0.001f * (float)(it & 15);
    x[i] = v - 8.0f * floorf((v + 4.0f) * 0.125f);
  }
}

// x[i] = 0.875 x[i] + 0.125 prev[(i + n - 1) % n]: prev is the copy of x
// made just before (a copy that came late would leave the older x there).
__global__ void damp(float *x, const float *prev, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 0.875f * x[i] + 0.125f * prev[i == 0 ? n - 1 : i - 1];
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 20000);
  const int n = (int)arg_long(argc, argv, 2, 16384);
  if (n < kSnap) {
    fprintf(stderr, "sync_copies: at least %d elements\n", kSnap);
    return 2;
  }
  std::vector<float> h(n);
  Rng rng(1818);
  for (int i = 0; i < n; ++i) h[i] = rng.uniform(-1.0f, 1.0f);
  float *x, *acc, *prev, *snap;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&acc, n * sizeof(float)));
  CHECK(cudaMalloc(&prev, n * sizeof(float)));
  CHECK(cudaMalloc(&snap, kSlots * kSnap * sizeof(float)));
  CHECK(cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(prev, x, n * sizeof(float), cudaMemcpyDeviceToDevice));
  CHECK(cudaMemset(snap, 0, kSlots * kSnap * sizeof(float)));
  CHECK(cudaMemset(acc, 0, n * sizeof(float)));
  unsigned char *pinned;   // 16 bytes set by cudaMemset, 4 floats copied from x
  CHECK(cudaMallocHost(&pinned, 16 + 4 * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const int blocks = (n + T - 1) / T;

  std::vector<unsigned char> host_read;   // what the host read from pinned memory
  bool ok = true;
  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    scatter<<<blocks, T, 0, s>>>(acc, x, prev, n, (int)it);
    CHECK(cudaMemcpy(snap + (it % kSlots) * kSnap, acc + (it * 131) % (n - kSnap + 1),
                     kSnap * sizeof(float), cudaMemcpyDeviceToDevice));
    combine<<<blocks, T, 0, s>>>(x, acc, n, (int)it);
    CHECK(cudaMemset(acc, 0, n * sizeof(float)));
    CHECK(cudaMemcpy(prev, x, n * sizeof(float), cudaMemcpyDefault));
    damp<<<blocks, T, 0, s>>>(x, prev, n);
    if (it % kHostEvery == 0) {
      const int v = (int)(it / kHostEvery) & 0x7f;
      CHECK(cudaMemset(pinned, v, 16));
      for (int b = 0; b < 16; ++b) ok = ok && pinned[b] == v;
      CHECK(cudaMemcpy(pinned + 16, x, 4 * sizeof(float), cudaMemcpyDefault));
      host_read.insert(host_read.end(), pinned, pinned + 16 + 4 * sizeof(float));
    }
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  Fnv1a64 f;
  f.add_device(x, n);
  f.add_device(prev, n);
  f.add_device(snap, kSlots * kSnap);
  f.add_host(host_read);
  printf("sync_copies: %ld iterations on %d elements, %zu host reads of pinned memory\n", iters, n,
         host_read.size() / (16 + 4 * sizeof(float)));
  printf("self-check: %s\n",
         ok ? "OK" : "FAILED (a memset of pinned memory was not done when it returned)");
  f.print();
  print_loop_ms(t1 - t0);

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(x));
  CHECK(cudaFree(acc));
  CHECK(cudaFree(prev));
  CHECK(cudaFree(snap));
  return ok ? 0 : 1;
}
