// alloc_loop.cu - issue 18: a loop that allocates its scratch memory every
// iteration, as much ordinary CUDA code does, and frees it at the end:
//
//   cudaMalloc(&tmp)                        n floats
//   smooth<<<...>>>(tmp, x, it)             tmp from x
//   cudaMalloc(&partial)                    one float per block
//   block_sums<<<...>>>(partial, tmp)       per-block sums of tmp
//   relax<<<...>>>(x, tmp, partial)         x from tmp and the block sums
//   cudaFree(partial); cudaFree(tmp)
//
// Without pygraph each iteration pays two allocations, two frees (which
// may wait for the device) and three launches; the allocations also hand
// the kernels new addresses.  pygraph's pool answers both allocations with
// the same blocks every iteration and takes the frees back with no CUDA
// call, so the loop is one region and its iterations replay as a graph.
// Every 500th iteration also keeps a buffer it allocated (a history
// snapshot of x, freed after the loop): a block kept past its iteration is
// the program's, never handed out again.  Everything runs on the legacy
// default stream.  The checksum hashes x and every snapshot.
//
//   usage: alloc_loop [iterations=20000] [elements=65536]
#include "common.h"

constexpr int T = 256;
constexpr int kKeepEvery = 500;

// tmp[i] = 0.5 x[i] + 0.25 (x[i-1] + x[i+1]) (periodic) + 0.001 (it % 11)
__global__ void smooth(float *tmp, const float *x, int n, int it) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    tmp[i] = 0.5f * x[i] + 0.25f * (x[i == 0 ? n - 1 : i - 1] + x[i + 1 == n ? 0 : i + 1]) +
             0.001f * (float)(it % 11);
}

// partial[b] = sum of tmp over block b (a fixed-order tree: deterministic)
__global__ void block_sums(float *partial, const float *tmp, int n) {
  __shared__ float s[T];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? tmp[i] : 0.0f;
  __syncthreads();
  for (int w = T / 2; w > 0; w >>= 1) {
    if ((int)threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

// x[i] = tmp[i] - mean of its block, kept in [-4, 4)
__global__ void relax(float *x, const float *tmp, const float *partial, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = tmp[i] - partial[blockIdx.x] * (1.0f / T) + 0.01f;
    x[i] = v - 8.0f * floorf((v + 4.0f) * 0.125f);
  }
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 20000);
  const int n = (int)arg_long(argc, argv, 2, 65536);
  std::vector<float> h(n);
  Rng rng(2718);
  for (int i = 0; i < n; ++i) h[i] = rng.uniform(-1.0f, 1.0f);
  float *x;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const int blocks = (n + T - 1) / T;
  std::vector<float *> kept;               // snapshots, freed after the loop

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    float *tmp, *partial;
    CHECK(cudaMalloc(&tmp, n * sizeof(float)));
    smooth<<<blocks, T>>>(tmp, x, n, (int)it);
    CHECK(cudaMalloc(&partial, blocks * sizeof(float)));
    block_sums<<<blocks, T>>>(partial, tmp, n);
    relax<<<blocks, T>>>(x, tmp, partial, n);
    if (it % kKeepEvery == 0) {
      float *snap;
      CHECK(cudaMalloc(&snap, n * sizeof(float)));
      CHECK(cudaMemcpy(snap, x, n * sizeof(float), cudaMemcpyDeviceToDevice));
      kept.push_back(snap);
    }
    CHECK(cudaFree(partial));
    CHECK(cudaFree(tmp));
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  Fnv1a64 f;
  f.add_device(x, n);
  for (float *snap : kept) f.add_device(snap, n);
  printf("alloc_loop: %ld iterations on %d elements, %zu snapshots kept\n", iters, n, kept.size());
  f.print();
  print_loop_ms(t1 - t0);

  for (float *snap : kept) CHECK(cudaFree(snap));
  CHECK(cudaFree(x));
  return 0;
}
