// With C++ cleanups in scope, an inlined stub calls the launch API through
// invoke; it must be rerouted too (a launch left direct inside a region would
// run ahead of the deferred ones).
// RUN: %cuda_host -O2 -fexceptions -fcxx-exceptions -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
#include <vector>
__global__ void k(float *p, int i) {}
struct Guard { ~Guard(); };
void f(float *p, int n) {
  Guard g;
  std::vector<int> v(4);
  for (int t = 0; t < n; ++t) {
    k<<<1, 1>>>(p, t);
    k<<<1, 1>>>(p, v[t % 4]);
  }
}
// CHECK-LABEL: define {{.*}}@_Z1fPfi(
// CHECK: call void @__pygraph_region_begin(
// CHECK: invoke {{.*}}i32 @__pygraph_cudaLaunchKernel(
// CHECK-NOT: @cudaLaunchKernel(
// CHECK: declare
