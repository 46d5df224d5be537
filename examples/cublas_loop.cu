// cublas_loop.cu - issue 18: a loop that mixes small kernels with cuBLAS
// calls on a stream of its own, as solvers and training loops do:
//
//   prepare<<<...>>>(A, X, it)                A from X
//   cublasSgemm(C = A B)                      n x n, host pointer mode
//   activate<<<...>>>(C)                      C = tanh(C)
//   cublasSaxpy(Y += a C)                     a alternates between two values
//   mix<<<...>>>(X, Y, C)                     X from C and Y; Y halved
//
// cublasSetStream is called once, before the loop.  Without pygraph each
// iteration is three launches and two cuBLAS calls (each one or more
// launches); with it the loop is one region: each cuBLAS call is recorded
// and becomes one node of the loop's graph, a graph captured from cuBLAS,
// and the saxpy's two alphas are two graph variants (or one graph of an
// even number of iterations, when the loop batches).  The checksum hashes
// X, Y and C after the loop.
//
//   usage: cublas_loop [iterations=2000] [n=256]
// Links the shared cuBLAS (test/gpu/run_gpu.sh finds libcublas.so.N, in a
// pip wheel too).
// example-libs: cublas
#include "common.h"

#include <cublas_v2.h>

#define CUBLAS_CHECK(call)                                                    \
  do {                                                                       \
    cublasStatus_t st_ = (call);                                             \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                      \
      fprintf(stderr, "cuBLAS error %d at %s:%d in %s\n", (int)st_, __FILE__, \
              __LINE__, #call);                                              \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

constexpr int T = 256;

// A = 0.5 X + 0.01 (it % 7), element-wise over n x n
__global__ void prepare(float *a, const float *x, int nn, int it) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nn) a[i] = 0.5f * x[i] + 0.01f * (float)(it % 7);
}

// C = tanh(C): keeps every value in (-1, 1)
__global__ void activate(float *c, int nn) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nn) c[i] = tanhf(c[i]);
}

// X = 0.75 C + 0.25 Y, then Y halved
__global__ void mix(float *x, float *y, const float *c, int nn) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nn) {
    x[i] = 0.75f * c[i] + 0.25f * y[i];
    y[i] *= 0.5f;
  }
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 2000);
  const int n = (int)arg_long(argc, argv, 2, 256);
  const int nn = n * n, blocks = (nn + T - 1) / T;
  std::vector<float> hx(nn), hb(nn);
  Rng rng(1818);
  for (int i = 0; i < nn; ++i) hx[i] = rng.uniform(-1.0f, 1.0f);
  for (int i = 0; i < nn; ++i) hb[i] = rng.uniform(-1.0f, 1.0f) / (float)n;
  float *X, *A, *B, *C, *Y;
  CHECK(cudaMalloc(&X, nn * sizeof(float)));
  CHECK(cudaMalloc(&A, nn * sizeof(float)));
  CHECK(cudaMalloc(&B, nn * sizeof(float)));
  CHECK(cudaMalloc(&C, nn * sizeof(float)));
  CHECK(cudaMalloc(&Y, nn * sizeof(float)));
  CHECK(cudaMemcpy(X, hx.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(B, hb.data(), nn * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(C, 0, nn * sizeof(float)));
  CHECK(cudaMemset(Y, 0, nn * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cublasHandle_t h;
  CUBLAS_CHECK(cublasCreate(&h));
  CUBLAS_CHECK(cublasSetStream(h, s));
  const float one = 1.0f, zero = 0.0f;

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    prepare<<<blocks, T, 0, s>>>(A, X, nn, (int)it);
    CUBLAS_CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, n, B, n, &zero, C, n));
    activate<<<blocks, T, 0, s>>>(C, nn);
    const float a = (it & 1) ? 0.25f : 0.5f;
    CUBLAS_CHECK(cublasSaxpy(h, nn, &a, C, 1, Y, 1));
    mix<<<blocks, T, 0, s>>>(X, Y, C, nn);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));
  const double t1 = now_ms();

  Fnv1a64 f;
  f.add_device(X, nn);
  f.add_device(Y, nn);
  f.add_device(C, nn);
  printf("cublas_loop: %ld iterations, %d x %d sgemm and a saxpy of %d between 3 kernels\n",
         iters, n, n, nn);
  f.print();
  print_loop_ms(t1 - t0);

  CUBLAS_CHECK(cublasDestroy(h));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(X));
  CHECK(cudaFree(A));
  CHECK(cudaFree(B));
  CHECK(cudaFree(C));
  CHECK(cudaFree(Y));
  return 0;
}
