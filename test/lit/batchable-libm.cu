// Host math in a launch loop (bitonic-sort computes its step sizes with
// pow) neither splits a region nor keeps the loop from batching: libm
// functions write no memory a kernel reads and, being C, cannot throw, even
// where LLVM made the call up without nounwind (pow(2, n) becomes exp2).
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// No <math.h>: pow comes from the CUDA headers' overloads, as in bitonic-sort, and
// exp2 is used nowhere else (a declaration from a header would carry nounwind).
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <cuda.h>
__global__ void step(float *p, int j) {}

void sort_steps(float *p, int stages) {
  for (int s = 0; s < stages; ++s) {
    int j = (int)cbrt((double)s) + (int)log10f((float)(s + 1));   // no exp2 here: see below
    step<<<1, 32>>>(p, j);
  }
}

void bitonic_steps(float *p, int n) {
  for (int s = 0; s < n; s++) {
    for (int stage = s; stage >= 0; stage--) {
      int seq_len = pow(2, stage + 1);
      step<<<1, 32>>>(p, seq_len);
    }
  }
}
// CHECK: @.pygraph.region = internal global {{.*}} { i32 4, i32 2, i32 1, i32 1,
// CHECK: @.pygraph.region.{{[0-9]+}} = internal global {{.*}} { i32 4, i32 2, i32 1, i32 2,
// CHECK-LABEL: define {{.*}}@_Z10sort_stepsPfi(
// CHECK: call void @__pygraph_region_loop_enter(
// CHECK: call void @__pygraph_region_begin(
// CHECK: call void @__pygraph_region_end(
// CHECK-LABEL: define {{.*}}@_Z13bitonic_stepsPfi(
// CHECK: call void @__pygraph_region_loop_enter(
// CHECK: call {{.*}}@exp2(
// REMARK: batchable-libm.cu:18:{{[0-9]+}}: remark: batchable loop (lines 16-19): up to 32 iterations per graph
// REMARK: batchable-libm.cu:26:{{[0-9]+}}: remark: batchable loop (lines 23-28): up to 32 iterations per graph
// REMARK-NOT: not batchable
