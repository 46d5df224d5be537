// Throw points (throw_points.h): a throw waits for nothing on the device,
// so it is no barrier; a throw point right before each raise (__cxa_throw,
// std::__throw_*, `resume`) and before an __cxa_allocate_exception whose
// every path ends in a throw lets the runtime end the live iteration there.
// What runs only after a throw point (the exception's constructor,
// cudaGetErrorString, __cxa_free_exception) is no barrier either; a real
// barrier on a path without a throw still is, and an exception allocated
// without a throw (std::make_exception_ptr) is no throw point.
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=KEEP
#include <cuda_runtime.h>
#include <exception>
#include <stdexcept>
#include <vector>

__global__ void ka(float *x) { x[threadIdx.x] += 1; }
__global__ void kc(float *x) { x[threadIdx.x] -= 1; }

static void check(cudaError_t e) {
  if (e != cudaSuccess)
    throw std::runtime_error(cudaGetErrorString(e));
}

// REMARK: throw-points.cu:[[@LINE+13]]:3: remark: formed graph region in 'step(float*)': straight-line run, 2 launch sites
// CHECK-LABEL: define {{.*}}void @_Z4stepPf(
// CHECK: call {{.*}}@__pygraph_cudaLaunchKernel(
// CHECK: call void @__pygraph_throw_point()
// CHECK-NEXT: call ptr @__cxa_allocate_exception(
// CHECK-NOT: @__pygraph_region_end
// CHECK: call void @__pygraph_throw_point()
// CHECK-NEXT: call void @__cxa_throw(
// CHECK: landingpad
// CHECK: call void @__cxa_free_exception(
// CHECK: call void @__pygraph_throw_point()
// CHECK-NEXT: resume
__attribute__((noinline)) void step(float *x) {
  ka<<<1, 32>>>(x);
  check(cudaGetLastError());
  kc<<<1, 32>>>(x);
}

// The callee's throw path and push_back's (std::__throw_length_error) keep
// no launch out of the loop's region.
// REMARK: throw-points.cu:[[@LINE+6]]:5: remark: formed graph region in 'run(float*, int, std::vector<int, std::allocator<int>>&)': loop iteration (lines [[@LINE+5]]-[[@LINE+9]]), 3 launch sites
// CHECK-LABEL: define {{.*}}void @_Z3runPfiRSt6vectorIiSaIiEE(
// CHECK: call void @__pygraph_throw_point()
// CHECK-NEXT: call void @_ZSt20__throw_length_errorPKc(
void run(float *x, int n, std::vector<int> &log) {
  for (int i = 0; i < n; ++i) {
    step(x);
    ka<<<1, 32>>>(x);
    log.push_back(i);
  }
}

// A synchronization on the way that throws nothing is still a barrier.
// REMARK: throw-points.cu:[[@LINE+5]]:3: remark: launch of 'ka(float*)' stays eager: only 1 launch site outside loops before the next barrier (cudaDeviceSynchronize synchronizes at throw-points.cu:[[@LINE+7]])
// REMARK: throw-points.cu:[[@LINE+7]]:3: remark: launch of 'kc(float*)' stays eager: only 1 launch site after cudaDeviceSynchronize synchronizes at throw-points.cu:[[@LINE+6]] before the next barrier
__attribute__((noinline)) void synced(float *x, bool fail) {
  if (fail)
    throw std::runtime_error("asked to");
  ka<<<1, 32>>>(x);
  check(cudaGetLastError());
  cudaDeviceSynchronize();
  kc<<<1, 32>>>(x);
}

// std::make_exception_ptr allocates an exception and returns: no throw
// point, and what follows it is classified as usual.
// KEEP: throw-points.cu:[[@LINE+14]]:5: remark: formed graph region in 'keep(float*, int)': loop iteration (lines [[@LINE+13]]-[[@LINE+16]]), 2 launch sites
// CHECK-LABEL: define {{.*}}void @_Z4keepPfi(
// CHECK-NOT: __pygraph_throw_point
// CHECK: call ptr @__cxa_allocate_exception(
// CHECK-NOT: __pygraph_throw_point
// CHECK: call ptr @__cxa_init_primary_exception(
// CHECK: call void @__pygraph_throw_point()
// CHECK-NEXT: call ptr @__cxa_allocate_exception(
std::exception_ptr g_error;
void keep(float *x, int n) {
  g_error = std::make_exception_ptr(std::runtime_error("kept"));
  if (n < 0)
    throw std::invalid_argument("negative");
  for (int i = 0; i < n; ++i) {
    ka<<<1, 32>>>(x);
    kc<<<1, 32>>>(x);
  }
}
