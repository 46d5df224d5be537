// driver_launch.cu - issue 18: a loop that launches its kernels through the
// driver API, as programs that load modules or JIT their kernels do:
//
//   cuLaunchKernel(scale, {y, x, a(it), n})          kernelParams reused every iteration
//   cuLaunchKernelEx(shift, {x, y, n}, priority 0)   a launch attribute a node holds
//   smooth<<<...>>>(x, n)                             a runtime-API launch among them
//
// The CUfunctions come from cudaGetFuncBySymbol (the driver handle of a
// kernel of this file), on a stream of the program's own.  Before
// pygraph's issue-18 work every driver launch ended the region; now each
// is a recorded op, a kernel node of the loop's graph updated when `a`
// changes.  The checksum hashes x after the loop.
//
//   usage: driver_launch [iterations=20000] [elements=65536]
// Links the driver's libcuda (the toolkit's stub at link time).
// example-libs: cuda
#include "common.h"

#include <cuda.h>

constexpr int T = 256;

#define CU_CHECK(call)                                                                \
  do {                                                                                \
    CUresult r_ = (call);                                                             \
    if (r_ != CUDA_SUCCESS) {                                                         \
      fprintf(stderr, "CUDA driver error %d at %s:%d: %s\n", (int)r_, __FILE__,       \
              __LINE__, #call);                                                       \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

// y[i] = a x[i] + 0.25
__global__ void scale(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + 0.25f;
}

// x[i] = y[i] - y[(i + 1) % n], kept in [-4, 4)
__global__ void shift(float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = y[i] - y[(i + 1) % n];
    x[i] = v - 8.0f * floorf((v + 4.0f) * 0.125f);
  }
}

// x[i] = 0.75 x[i] + 0.125 (x[i - 1] + x[i + 1]) within each block
__global__ void smooth(float *x, int n) {
  __shared__ float s[T];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? x[i] : 0.0f;
  __syncthreads();
  int l = threadIdx.x > 0 ? threadIdx.x - 1 : threadIdx.x;
  int r = threadIdx.x + 1 < T ? threadIdx.x + 1 : threadIdx.x;
  if (i < n) x[i] = 0.75f * s[threadIdx.x] + 0.125f * (s[l] + s[r]);
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 20000);
  const int n = (int)arg_long(argc, argv, 2, 65536);
  std::vector<float> h(n);
  Rng rng(2718);
  for (int i = 0; i < n; ++i) h[i] = rng.uniform(-1.0f, 1.0f);
  float *x, *y;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaFunction_t f_scale, f_shift;
  CHECK(cudaGetFuncBySymbol(&f_scale, (const void *)scale));
  CHECK(cudaGetFuncBySymbol(&f_shift, (const void *)shift));
  const unsigned blocks = (unsigned)((n + T - 1) / T);

  float a = 0.0f;
  void *scale_params[] = {&y, &x, &a, (void *)&n};
  void *shift_params[] = {&x, &y, (void *)&n};
  CUlaunchAttribute prio;
  prio.id = CU_LAUNCH_ATTRIBUTE_PRIORITY;
  prio.value.priority = 0;
  CUlaunchConfig cfg = {};
  cfg.gridDimX = blocks;
  cfg.gridDimY = cfg.gridDimZ = 1;
  cfg.blockDimX = T;
  cfg.blockDimY = cfg.blockDimZ = 1;
  cfg.hStream = (CUstream)s;
  cfg.attrs = &prio;
  cfg.numAttrs = 1;

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    a = 0.5f + 0.001f * (float)(it % 17);     // the launch reads it now; a node update
    CU_CHECK(cuLaunchKernel((CUfunction)f_scale, blocks, 1, 1, T, 1, 1, 0, (CUstream)s,
                            scale_params, nullptr));
    CU_CHECK(cuLaunchKernelEx(&cfg, (CUfunction)f_shift, shift_params, nullptr));
    smooth<<<blocks, T, 0, s>>>(x, n);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));
  const double t1 = now_ms();

  Fnv1a64 f;
  f.add_device(x, n);
  printf("driver_launch: %ld iterations on %d elements\n", iters, n);
  f.print();
  print_loop_ms(t1 - t0);
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  return 0;
}
