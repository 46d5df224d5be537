// Across files (external_calls.h): a call of an external function that
// another file compiled with pygraph may define stays inside the loop's
// region, after a hook naming the region, the segment reserved for a split
// there, and the callee's marker (a weak reference).  exit (noreturn,
// nounwind) is checked too: no marker, so the runtime always splits (runs
// what was deferred) there; a noreturn call that may throw and a library's
// call stay barriers.  Every barrier of every host function gets
// a barrier point (after the region's end), every external function a
// marker, and a function without a region still has its launches routed.
// across-files=0 keeps the external call a barrier.
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -Rpass-missed=pygraph -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -Rpass-missed=pygraph -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=WRAP
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFFIR
#include <cuda_runtime.h>
#include <cstdlib>

__global__ void k(float *x) { x[threadIdx.x] += 1; }
void step(float *x);                    // defined in another file
[[noreturn]] void fail_hard(const char *why); // may throw
extern "C" int MPI_Barrier(void *comm); // a library's

// CHECK-DAG: @__pygraph_aware._Z4stepPf = extern_weak global i8
// CHECK-DAG: @__pygraph_aware._Z3runPfi = constant i8 0
// CHECK-DAG: @__pygraph_aware._Z6helperPf = constant i8 0
// CHECK-NOT: @__pygraph_aware._ZL12local_helperPf =
// OFFIR-NOT: __pygraph_aware
// OFFIR-NOT: __pygraph_barrier_point

// REMARK: across-files.cu:[[@LINE+19]]:5: remark: formed graph region in 'run(float*, int)': loop iteration (lines [[@LINE+18]]-[[@LINE+25]]), 2 launch sites
// REMARK: across-files.cu:[[@LINE+19]]:5: remark: call of 'step(float*)' stays inside the region: if no file compiled with pygraph defines it, the runtime splits the region there
// OFF: across-files.cu:[[@LINE+17]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier (external call 'step(float*)'
// CHECK-LABEL: define {{.*}}void @_Z3runPfi(
// CHECK: call {{.*}}@__pygraph_cudaLaunchKernel(
// CHECK: call void @__pygraph_external_call(ptr @.pygraph.region, i32 1, ptr @__pygraph_aware._Z4stepPf)
// CHECK-NEXT: call void @_Z4stepPf(
// CHECK: call {{.*}}@__pygraph_cudaLaunchKernel(
// CHECK: call void @__pygraph_region_end(ptr @.pygraph.region)
// CHECK-NEXT: call void @__pygraph_external_call(ptr null, i32 0, ptr @__pygraph_aware.exit)
// CHECK-NEXT: call void @exit(
// CHECK: call void @__pygraph_region_end(ptr @.pygraph.region)
// CHECK-NEXT: call void @__pygraph_barrier_point()
// CHECK-NEXT: call {{.*}}@MPI_Barrier(
// CHECK: call void @__pygraph_region_end(ptr @.pygraph.region)
// CHECK-NEXT: call void @__pygraph_barrier_point()
// CHECK-NEXT: call void @_Z9fail_hardPKc(
void run(float *x, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(x);
    step(x);
    k<<<1, 32>>>(x);
    if (x == nullptr) exit(1);
    MPI_Barrier(nullptr);
    if (i == 7) fail_hard("i");
  }
}

// Outside any region: a barrier point before the sync, the launch routed.
// CHECK-LABEL: define {{.*}}void @_Z6helperPf(
// CHECK: call {{.*}}@__pygraph_cudaLaunchKernel(
// CHECK: call void @__pygraph_barrier_point()
// CHECK-NEXT: call {{.*}}@cudaDeviceSynchronize(
// CHECK: call void @__pygraph_external_call(ptr null, i32 0, ptr @__pygraph_aware._Z4stepPf)
// CHECK-NEXT: call void @_Z4stepPf(
// OFFIR-LABEL: define {{.*}}void @_Z6helperPf(
// OFFIR: call {{.*}}@cudaLaunchKernel(
void helper(float *x) {
  k<<<1, 32>>>(x);
  cudaDeviceSynchronize();
  step(x);
}

static void local_helper(float *x) { k<<<1, 32>>>(x); }
void (*keep)(float *) = local_helper;

// A module function whose only barriers are checked calls is checked like
// them (the hook passes the function itself: pygraph code by construction,
// its own hook splits the caller's region where needed); one with a real
// barrier stays a barrier.
// WRAP: across-files.cu:[[@LINE+8]]:5: remark: formed graph region in 'run_wrapped(float*, int)': loop iteration
// WRAP: across-files.cu:[[@LINE+8]]:5: remark: call of 'wrap(float*)' stays inside the region: the runtime splits the region inside it where an external function it calls is not pygraph code
// CHECK-LABEL: define {{.*}}void @_Z11run_wrappedPfi(
// CHECK: call void @__pygraph_external_call(ptr @.pygraph.region.{{[0-9]+}}, i32 1, ptr @_ZL4wrapPf)
// CHECK-NEXT: call {{.*}}void @_ZL4wrapPf(
__attribute__((noinline)) static void wrap(float *x) { step(x); }
void run_wrapped(float *x, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(x);
    wrap(x);
    k<<<1, 32>>>(x);
  }
}

// WRAP: across-files.cu:[[@LINE+4]]:5: remark: launch of 'k(float*)' stays eager: {{.*}}call of 'sync_wrap(float*)' at across-files.cu:[[@LINE+5]], which may synchronize (cudaDeviceSynchronize
__attribute__((noinline)) static void sync_wrap(float *x) { step(x); cudaDeviceSynchronize(); }
void run_sync_wrapped(float *x, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(x);
    sync_wrap(x);
    k<<<1, 32>>>(x);
  }
}
