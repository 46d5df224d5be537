// while_bench_body.h - the converge-shaped WHILE body both whole-loop benches
// run (while_body_bench.cu, while_vs_pygraph.cu): a status struct and four
// kernels over n floats (clear the status, a Jacobi sweep, measure the
// change into the status, judge it), each able to start with the
// programmatic launch prologue pygraph's twins start with (pdl, off by
// default); and the benches' error check.
#ifndef PYGRAPH_WHILE_BENCH_BODY_H
#define PYGRAPH_WHILE_BENCH_BODY_H

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime.h>

#define CHECK(x)                                                                    \
  do {                                                                              \
    cudaError_t e_ = (x);                                                           \
    if (e_ != cudaSuccess) {                                                        \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

struct Status {
  int notconv, above;
  unsigned maxdiff;
  int pad;
};

// What pygraph's twins start with (while_body_bench's pdl variants): the
// programmatic launch prologue.
__device__ __forceinline__ void prologue(int pdl) {
  if (pdl) {
    asm volatile("griddepcontrol.launch_dependents;");
    asm volatile("griddepcontrol.wait;" ::: "memory");
  }
}

__global__ void clear_status(Status *st, int pdl = 0) {
  prologue(pdl);
  st->notconv = st->above = 0;
  st->maxdiff = 0;
}
__global__ void relax(float *out, const float *in, int n, int pdl = 0) {
  prologue(pdl);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i == 0 || i == n - 1 ? in[i] : 0.5f * in[i] + 0.25f * (in[i - 1] + in[i + 1]);
}
__global__ void measure(const float *out, const float *in, Status *st, int n, int pdl = 0) {
  prologue(pdl);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && fabsf(out[i] - in[i]) > 1e-6f)
    atomicAdd(&st->above, 1);
}
__global__ void judge(Status *st, int pdl = 0) {
  prologue(pdl);
  st->notconv = st->above > 0;
}

#endif // PYGRAPH_WHILE_BENCH_BODY_H
