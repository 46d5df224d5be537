// Given as both -fplugin= and -fpass-plugin=, the pass is registered once.
// RUN: %cuda_host -O2 -fplugin=%plugin -fpass-plugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// -fpass-plugin= alone works too.
// RUN: %cuda_host -O2 -fpass-plugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
__global__ void k(int *p) {}
void f(int *p) { k<<<1, 1>>>(p); }
// CHECK: double-load.cu:[[@LINE-1]]:18: remark: launch of 'k(int*)'
// CHECK-NOT: remark: launch of
