// Host math in a launch loop (bitonic-sort computes its step sizes with
// exp2) neither splits a region nor keeps the loop from batching: libm
// functions write no memory a kernel reads.
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
#include <cuda_runtime.h>
#include <math.h>
__global__ void step(float *p, int j) {}

void sort_steps(float *p, int stages) {
  for (int s = 0; s < stages; ++s) {
    int j = (int)exp2((double)s) + (int)log10f((float)(s + 1));
    step<<<1, 32>>>(p, j);
  }
}
// CHECK: @.pygraph.region = internal global {{.*}} { i32 2, i32 2, i32 1, i32 1,
// CHECK-LABEL: define {{.*}}@_Z10sort_stepsPfi(
// CHECK: call void @__pygraph_region_loop_enter(
// CHECK: call void @__pygraph_region_begin(
// CHECK: call {{.*}}@exp2(
// CHECK: call void @__pygraph_region_end(
// REMARK: batchable-libm.cu:13:{{[0-9]+}}: remark: batchable loop (lines 11-14): up to 32 iterations per graph
// REMARK-NOT: not batchable
