// Which loop becomes the region: the outermost launching loop whose inner
// launching loops run a small constant number of times (the same launch
// sequence every iteration); otherwise its inner loops, with the outer
// loop's own launches in straight-line segments around them.
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
#include <cstdio>
#include <cstdlib>
__global__ void k(float *p, int i) {}
#define CHECK(x) do { if ((x) != cudaSuccess) { fprintf(stderr, "error\n"); exit(1); } } while (0)

// Per-token loop around a 4-layer loop (with an error check that may exit):
// one region per token.
void decode(float *p, int steps) {
  for (int t = 0; t < steps; ++t) {
    k<<<1, 1>>>(p, t);
    // CHECK: region-loop-choice.cu:[[@LINE-1]]:5: remark: formed graph region in 'decode(float*, int)': loop iteration (lines [[#@LINE-2]]-[[#@LINE+6]]), 3 launch sites
    for (int l = 0; l < 4; ++l) {
      k<<<1, 1>>>(p, l);
      CHECK(cudaGetLastError());
      k<<<1, 1>>>(p, l);
    }
  }
}
// CHECK-NOT: formed graph region in 'decode

// Per-prompt loop around a per-token loop of unknown length around the
// layers: the token loop is the region, the prompt loop's own launches run as
// straight-line runs.
void prompts(float *p, int n, int *len) {
  for (int q = 0; q < n; ++q) {
    k<<<1, 1>>>(p, q);
    k<<<1, 1>>>(p, q);
    for (int t = 0; t < len[q]; ++t) {
      k<<<1, 1>>>(p, t);
      // CHECK-DAG: region-loop-choice.cu:[[@LINE-1]]:7: remark: formed graph region in 'prompts(float*, int, int*)': loop iteration (lines [[#@LINE-2]]-[[#@LINE+4]]), 2 launch sites
#pragma nounroll
      for (int l = 0; l < 4; ++l)
        k<<<1, 1>>>(p, l);
    }
  }
}
// CHECK-DAG: remark: formed graph region in 'prompts(float*, int, int*)': straight-line run

// An innermost loop of unknown length (a chain of K kernels) stays inside
// the iteration of the loop around it: one region per outer iteration.
void chain(float *p, long iters, int kernels) {
  for (long it = 0; it < iters; ++it) {
    for (int j = 0; j < kernels; ++j)
      k<<<1, 1>>>(p, j);
    // CHECK-DAG: region-loop-choice.cu:[[@LINE-1]]:7: remark: formed graph region in 'chain(float*, long, int)': loop iteration (lines [[#@LINE-3]]-[[#@LINE+2]]), 2 launch sites
    k<<<1, 1>>>(p, -1);
  }
}
