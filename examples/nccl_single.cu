// nccl_single.cu - issue 20's smoke test of captured collectives on one
// GPU: a communicator of one rank (ncclCommInitAll over device 0) and a
// loop of kernel, all-reduce, kernel.  An all-reduce over one rank copies
// its input, so the result is known; what it checks is that pygraph's
// captured collective (a child-graph node NCCL captured) replays in the
// right place of the stream, with the right buffers, every iteration.
// NVLink SHARP is off (NCCL_NVLS_ENABLE=0, unless set).
//
//   usage: nccl_single [iterations=20000]
//   Without a GPU it prints a "skip:" line and exits 0.
// example-needs: nccl.h
// example-libs: nccl
#include "common.h"

#include "nccl_check.h"

constexpr int N = 4096;

// b[k] = 0.5 a[k] + s (the all-reduce's input).
__global__ void produce(const float *a, float *b, int n, float s) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) b[k] = 0.5f * a[k] + s;
}

// a[k] = c[k] - 0.25 a[k] (reads the all-reduce's output).
__global__ void consume(float *a, const float *c, int n) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) a[k] = c[k] - 0.25f * a[k];
}

int main(int argc, char **argv) {
  long iters = arg_long(argc, argv, 1, 20000);
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
    printf("skip: nccl_single needs a GPU, found none\n");
    return 0;
  }
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  ncclComm_t comm;
  int devs[1] = {0};
  NCCL_CHECK(ncclCommInitAll(&comm, 1, devs));
  CHECK(cudaSetDevice(0));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, N * sizeof(float)));
  CHECK(cudaMalloc(&b, N * sizeof(float)));
  CHECK(cudaMalloc(&c, N * sizeof(float)));
  std::vector<float> init(N);
  for (int k = 0; k < N; ++k) init[k] = 0.001f * (float)(k % 1000);
  CHECK(cudaMemcpy(a, init.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaDeviceSynchronize());

  double t0 = now_ms();
  for (long i = 0; i < iters; ++i) {
    produce<<<N / 256, 256, 0, s>>>(a, b, N, 0.001f * (float)(i % 89));
    ncclAllReduce(b, c, N, ncclFloat32, ncclSum, comm, s);
    consume<<<N / 256, 256, 0, s>>>(a, c, N);
  }
  CHECK(cudaStreamSynchronize(s));
  double ms = now_ms() - t0;
  CHECK_LAUNCH();
  Fnv1a64 sum;
  sum.add_device(a, N);
  NCCL_CHECK(ncclCommDestroy(comm));
  sum.print();
  print_loop_ms(ms);
  return 0;
}
