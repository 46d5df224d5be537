// Own copies (own_copies.h): a linkonce_odr function the pass put pygraph
// code into (a launching template helper, a pointer launcher, a kernel
// template's stub) becomes internal, so that no copy from a file built
// without pygraph runs in its place; a function whose only pygraph code
// would be a barrier point (a barrier for its callers anyway) keeps its
// linkage.  A weak_odr stub (an explicit instantiation other files link
// against) keeps its linkage and stays out of the kernel-pointer table: a
// launch through a pointer to it splits the region.
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
#include <cuda_runtime.h>

template <class T> __global__ void tk(T *x) { x[threadIdx.x] += 1; }
template __global__ void tk<double>(double *);

// CHECK-DAG: @.pygraph.kernel_stubs = private constant [1 x ptr] [ptr @_Z17__device_stub__tkIfEvPT_]
// CHECK-DAG: define weak_odr dso_local void @_Z17__device_stub__tkIdEvPT_(
// CHECK-DAG: define internal void @_Z17__device_stub__tkIfEvPT_(
// CHECK-DAG: define internal void @_Z6launchIPFvPfEfEvT_PT0_(
// CHECK-DAG: define internal void @_Z6launchIPFvPdEdEvT_PT0_(
// CHECK-DAG: define internal void @_Z6helperIfEvPT_(
// CHECK-DAG: define linkonce_odr dso_local void @_Z6syncedv() {{.*}}comdat
template <class K, class T> __attribute__((noinline)) void launch(K k, T *x) { k<<<1, 32>>>(x); }
template <class T> __attribute__((noinline)) void helper(T *x) { tk<<<1, 32>>>(x); }
__attribute__((noinline)) inline void synced() { cudaDeviceSynchronize(); }

void run(float *x, double *y, int n) {
  for (int i = 0; i < n; ++i) {
    helper(x);
    launch(tk<float>, x);
    launch(tk<double>, y);
  }
  synced();
}
