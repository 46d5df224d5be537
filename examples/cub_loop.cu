// cub_loop.cu - issue 18: a loop that mixes small kernels with CUB's
// device-wide algorithms and a Thrust algorithm, all on a stream of its own,
// as sorting, compaction and statistics loops do:
//
//   fill<<<...>>>(a, it)                    a[i] = hash(i, it) % 1000
//   cub::DeviceReduce::Sum(a -> sums[it])   two launches inside CUB
//   cub::DeviceScan::ExclusiveSum(a -> b)   two launches inside CUB
//   thrust::transform(par_nosync.on(s))     c = 3 b + 1 (no synchronization)
//   mix<<<...>>>(a, c, sums, it)            a from c and the running sum
//
// CUB and Thrust launch through a kernel pointer (triple_chevron), ask for
// occupancy and the device's PTX version (a cache behind a host-only lock),
// open an NVTX range around each algorithm and have throw paths for CUDA
// errors: none of that waits for the device, so with pygraph the whole
// iteration is one region.  Temporary storage is allocated once, before the
// loop.  The checksum hashes a, b, c and the sums after the loop.
//
//   usage: cub_loop [iterations=2000] [n=65536]
#include "common.h"

#include <cub/cub.cuh>
#include <thrust/execution_policy.h>
#include <thrust/transform.h>

constexpr int T = 256;
constexpr int kSums = 64;

__global__ void fill(int *a, int n, int it) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned h = (unsigned)i * 2654435761u ^ (unsigned)it * 40503u;
    a[i] = (int)(h % 1000u);
  }
}

// a = c mod 997 + the iteration's sum mod 13
__global__ void mix(int *a, const int *c, const long long *sums, int n, int it) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = c[i] % 997 + (int)(sums[it % kSums] % 13);
}

struct affine {
  __host__ __device__ int operator()(int b) const { return 3 * b + 1; }
};

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 2000);
  const int n = (int)arg_long(argc, argv, 2, 65536);
  const int blocks = (n + T - 1) / T;
  int *a, *b, *c;
  long long *sums;
  CHECK(cudaMalloc(&a, n * sizeof(int)));
  CHECK(cudaMalloc(&b, n * sizeof(int)));
  CHECK(cudaMalloc(&c, n * sizeof(int)));
  CHECK(cudaMalloc(&sums, kSums * sizeof(long long)));
  CHECK(cudaMemset(sums, 0, kSums * sizeof(long long)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  size_t reduce_bytes = 0, scan_bytes = 0;
  CHECK(cub::DeviceReduce::Sum(nullptr, reduce_bytes, a, sums, n, s));
  CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, a, b, n, s));
  void *reduce_tmp, *scan_tmp;
  CHECK(cudaMalloc(&reduce_tmp, reduce_bytes));
  CHECK(cudaMalloc(&scan_tmp, scan_bytes));

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    fill<<<blocks, T, 0, s>>>(a, n, (int)it);
    CHECK(cub::DeviceReduce::Sum(reduce_tmp, reduce_bytes, a, sums + it % kSums, n, s));
    CHECK(cub::DeviceScan::ExclusiveSum(scan_tmp, scan_bytes, a, b, n, s));
    thrust::transform(thrust::cuda::par_nosync.on(s), b, b + n, c, affine());
    mix<<<blocks, T, 0, s>>>(a, c, sums, n, (int)it);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));
  const double t1 = now_ms();

  Fnv1a64 f;
  f.add_device(a, n);
  f.add_device(b, n);
  f.add_device(c, n);
  f.add_device(sums, kSums);
  printf("cub_loop: %ld iterations, a reduction, a scan and a transform of %d ints between 2 "
         "kernels\n", iters, n);
  f.print();
  print_loop_ms(t1 - t0);

  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  CHECK(cudaFree(sums));
  CHECK(cudaFree(reduce_tmp));
  CHECK(cudaFree(scan_tmp));
  return 0;
}
