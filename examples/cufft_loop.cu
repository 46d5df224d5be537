// cufft_loop.cu - issue 18: a spectral filter loop, kernels around cuFFT
// executions on a stream of its own, as spectral solvers and signal
// processing loops are written:
//
//   excite<<<...>>>(x, it)            a source term added to the signal
//   cufftExecC2C(x -> X, forward)
//   damp<<<...>>>(X)                  low-pass: high frequencies scaled down
//   cufftExecC2C(X -> x, inverse)
//   normalize<<<...>>>(x)             divide by n (cuFFT is unnormalised)
//
// The plan is made and given the stream once, before the loop.  Without
// pygraph each iteration is three launches and two cuFFT executions (each
// one or more launches); with it the loop is one region: each execution is
// recorded and becomes one node of the loop's graph, a graph captured from
// cuFFT.  The checksum hashes the signal after the loop.
//
//   usage: cufft_loop [iterations=2000] [n=16384] [passes=1]
// example-libs: cufft
//
// With -fplugin-arg-pygraph-whole-loops=2 (the line below asks the example
// builds for it) the counted loop also carries the whole-loop protocol: the
// library calls are operations of the iteration, and its WHILE graph's body
// holds each as the graph captured from the call.
// pygraph-plugin-args: whole-loops=2
#include "common.h"

#include <cufft.h>

#define CUFFT_CHECK(call)                                                      \
  do {                                                                         \
    cufftResult r_ = (call);                                                   \
    if (r_ != CUFFT_SUCCESS) {                                                 \
      fprintf(stderr, "cuFFT error %d at %s:%d in %s\n", (int)r_, __FILE__,   \
              __LINE__, #call);                                                \
      exit(1);                                                                 \
    }                                                                          \
  } while (0)

constexpr int T = 256;

__global__ void excite(cufftComplex *x, int n, int it) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && i % 97 == it % 97) x[i].x += 1.0f;
}

// Frequencies above n/8 (both ends of the spectrum) scaled by 0.5.
__global__ void damp(cufftComplex *f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int k = i < n / 2 ? i : n - i;
    if (k > n / 8) {
      f[i].x *= 0.5f;
      f[i].y *= 0.5f;
    }
  }
}

__global__ void normalize(cufftComplex *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i].x /= (float)n;
    x[i].y /= (float)n;
  }
}

// One pass of the filter: `iters` iterations from the signal x.  A function
// of its own (noinline): with passes > 1 a whole loop runs from its second
// pass on (a loop inside another loop's region is not run whole).
static __attribute__((noinline)) void filter(cufftHandle plan, cufftComplex *x, cufftComplex *f,
                                             int n, int blocks, long iters, cudaStream_t s) {
  for (long it = 0; it < iters; ++it) {
    excite<<<blocks, T, 0, s>>>(x, n, (int)it);
    CUFFT_CHECK(cufftExecC2C(plan, x, f, CUFFT_FORWARD));
    damp<<<blocks, T, 0, s>>>(f, n);
    CUFFT_CHECK(cufftExecC2C(plan, f, x, CUFFT_INVERSE));
    normalize<<<blocks, T, 0, s>>>(x, n);
  }
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 2000);
  const int n = (int)arg_long(argc, argv, 2, 16384);
  const long passes = arg_long(argc, argv, 3, 1);
  const int blocks = (n + T - 1) / T;
  std::vector<cufftComplex> hx(n);
  Rng rng(2718);
  for (int i = 0; i < n; ++i) hx[i] = {rng.uniform(-1.0f, 1.0f), 0.0f};
  cufftComplex *x, *f;
  CHECK(cudaMalloc(&x, n * sizeof(cufftComplex)));
  CHECK(cudaMalloc(&f, n * sizeof(cufftComplex)));
  CHECK(cudaMemcpy(x, hx.data(), n * sizeof(cufftComplex), cudaMemcpyHostToDevice));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cufftHandle plan;
  CUFFT_CHECK(cufftPlan1d(&plan, n, CUFFT_C2C, 1));
  CUFFT_CHECK(cufftSetStream(plan, s));

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long p = 0; p < passes; ++p)
    filter(plan, x, f, n, blocks, iters, s);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(s));
  const double t1 = now_ms();

  Fnv1a64 h;
  h.add_device(x, n);
  printf("cufft_loop: %ld iterations x %ld passes, two %d-point FFTs between 3 kernels\n", iters,
         passes, n);
  h.print();
  print_loop_ms(t1 - t0);

  CUFFT_CHECK(cufftDestroy(plan));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(x));
  CHECK(cudaFree(f));
  return 0;
}
