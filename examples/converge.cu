// converge.cu - a convergence loop (issue 17): per solve, 4 kernels an
// iteration over 16K floats (clear the status, a Jacobi sweep from one
// buffer into the other, measure the change into a status struct, judge
// it), the buffers swapped, the 16-byte status copied to the host, and
// `while (st.notconv && it < maxit)`: about 1200 iterations to converge.
// The loop runs 5 times from fresh data; the last solve stops at its
// cap.  Prints each solve's iterations, then the checksum of every
// solve's result and iteration count.
//
// With -fplugin-arg-pygraph-whole-loops=2 (the line below asks the example
// builds for it) the loop carries the whole-loop protocol: pygraph checks
// the first solve as written, then runs each later one as its first
// iteration plus one WHILE graph.  PYGRAPH_WHOLE_LOOPS=0 runs the same
// binary with per-iteration graphs.  The solve is a function of its own
// (noinline): a loop inside another loop's region is not run whole yet.
// pygraph-plugin-args: whole-loops=2
//
// usage: converge [n=16384] [solves=5] [maxit=4000]
#include <utility>

#include "common.h"

struct Status {
  int notconv;       // some element still changes by more than the tolerance
  int above;         // how many
  unsigned maxdiff;  // the largest change, as float bits (non-negative: ordered as integers)
  int pad;
};

__global__ void clear_status(Status *st) {
  st->notconv = 0;
  st->above = 0;
  st->maxdiff = 0u;
}

// out = the Jacobi sweep of in; the two ends stay fixed.
__global__ void relax(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  out[i] = i == 0 || i == n - 1 ? in[i] : 0.5f * in[i] + 0.25f * (in[i - 1] + in[i + 1]);
}

// Per block: how many elements changed by more than tol, and the largest
// change; one atomic each per block (max and sum: order-independent).
__global__ void measure(const float *out, const float *in, Status *st, int n, float tol) {
  __shared__ unsigned maxd[256];
  __shared__ int above[256];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  float d = i < n ? fabsf(out[i] - in[i]) : 0.0f;
  maxd[t] = __float_as_uint(d);
  above[t] = d > tol;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) {
      maxd[t] = max(maxd[t], maxd[t + s]);
      above[t] += above[t + s];
    }
    __syncthreads();
  }
  if (t == 0) {
    atomicMax(&st->maxdiff, maxd[0]);
    atomicAdd(&st->above, above[0]);
  }
}

__global__ void judge(Status *st) { st->notconv = st->above > 0; }

// Fresh data for solve `seed`: hashed values in [0, 1), the ends 0.
__global__ void init(float *a, float *b, int n, unsigned seed) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  unsigned h = ((unsigned)i * 2654435761u + seed * 977u) >> 8 & 0xffffu;
  float v = i == 0 || i == n - 1 ? 0.0f : (float)h / 65536.0f;
  a[i] = v;
  b[i] = v;
}

// Runs the loop to convergence or maxit; returns the buffer holding the
// result and the iterations in *iters.
__attribute__((noinline)) static float *solve(float *a, float *b, Status *d_st, int n,
                                              int maxit, float tol, int *iters) {
  const int blocks = (n + 255) / 256;
  Status st;
  int it = 0;
  do {
    clear_status<<<1, 1>>>(d_st);
    relax<<<blocks, 256>>>(b, a, n);
    measure<<<blocks, 256>>>(b, a, d_st, n, tol);
    judge<<<1, 1>>>(d_st);
    std::swap(a, b);
    CHECK(cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost));
    ++it;
  } while (st.notconv && it < maxit);
  *iters = it;
  return a;
}

int main(int argc, char **argv) {
  const int n = (int)arg_long(argc, argv, 1, 16384);
  const int solves = (int)arg_long(argc, argv, 2, 5);
  const int maxit = (int)arg_long(argc, argv, 3, 4000);
  float *a, *b;
  Status *d_st;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMalloc(&d_st, sizeof(Status)));
  Fnv1a64 sum;
  std::vector<float> result(n);
  double ms = 0.0;
  for (int s = 0; s < solves; ++s) {
    init<<<(n + 255) / 256, 256>>>(a, b, n, (unsigned)s);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());
    int iters = 0;
    const float tol = s % 2 ? 1.2e-4f : 1.0e-4f;
    const int cap = s == solves - 1 ? maxit / 8 : maxit;   // the last solve stops at its cap
    double t0 = now_ms();
    float *x = solve(a, b, d_st, n, cap, tol, &iters);
    CHECK(cudaDeviceSynchronize());
    ms += now_ms() - t0;
    printf("solve %d: %d iterations\n", s, iters);
    CHECK(cudaMemcpy(result.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
    sum.add_host(result);
    sum.add(&iters, sizeof iters);
  }
  print_loop_ms(ms);
  sum.print();
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(d_st));
  return 0;
}
