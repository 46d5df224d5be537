// The synchronous cudaMemset and device-to-device cudaMemcpy do not make the
// host wait on device memory (CUDA's "API synchronization behavior"): they
// join the region of the launches around them and are routed to the runtime,
// which checks the pointers at each call.  Each shape beside its twin that
// stays a barrier: a copy to the host, or one whose kind is no constant.
// In a loop of one launch, they are judged as their asynchronous forms: the
// loop stays batchable; a host copy splits it.
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// Per-thread default stream (nvcc --default-stream per-thread defines the
// macro): the synchronous calls are their _ptds forms.
// RUN: %cuda_host -O2 -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=PTDS
#include <cuda_runtime.h>
__global__ void k(float *p, int i) {}
__global__ void k2(float *p) {}

// A memset between two launches: one region of both.
void memset_joins(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p, i);
    // CHECK-DAG: sync-deferred.cu:[[@LINE-1]]:5: remark: formed graph region in 'memset_joins(float*, int)': loop iteration (lines [[#@LINE-2]]-[[#@LINE+4]]), 2 launch sites
    cudaMemset(p, 0, 64);
    // CHECK-DAG: sync-deferred.cu:[[@LINE-1]]:5: remark: cudaMemset inside a loop does not make the host wait on device memory: deferred in a region, a barrier at run time when its memory is not device memory
    k2<<<1, 32>>>(p);
  }
}
// IR-LABEL: define {{.*}}@_Z12memset_joinsPfi(
// IR: call {{.*}}i32 @__pygraph_cudaMemset(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}, i32 0, i64 64)
// IR-NOT: call {{.*}}@cudaMemset(
// PTDS-LABEL: define {{.*}}@_Z12memset_joinsPfi(
// PTDS: call {{.*}}i32 @__pygraph_cudaMemset_ptds(ptr @.pygraph.site{{[.0-9]*}}, ptr

// A device-to-device copy, and one of the default kind (the runtime asks
// the pointers): one region.
void d2d_joins(float *p, float *q, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p, i);
    // CHECK-DAG: sync-deferred.cu:[[@LINE-1]]:5: remark: formed graph region in 'd2d_joins(float*, float*, int)': loop iteration (lines [[#@LINE-2]]-[[#@LINE+5]]), 3 launch sites
    cudaMemcpy(q, p, 64, cudaMemcpyDeviceToDevice);
    k2<<<1, 32>>>(q);
    cudaMemcpy(p, q, 64, cudaMemcpyDefault);
    k2<<<1, 32>>>(p);
  }
}
// IR-LABEL: define {{.*}}@_Z9d2d_joinsPfS_i(
// IR: call {{.*}}i32 @__pygraph_cudaMemcpy(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}, ptr {{.*}}, i64 64, i32 3)
// IR: call {{.*}}i32 @__pygraph_cudaMemcpy(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}, ptr {{.*}}, i64 64, i32 4)
// PTDS-LABEL: define {{.*}}@_Z9d2d_joinsPfS_i(
// PTDS: call {{.*}}i32 @__pygraph_cudaMemcpy_ptds(ptr @.pygraph.site{{[.0-9]*}}, ptr

// Device-to-host: the host waits for the copy's result: the loop splits,
// the call stays.  (Host-to-device copies: h2d-snapshot.cu.)
void d2h_splits(float *p, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p, i);
    // CHECK-DAG: sync-deferred.cu:[[@LINE-1]]:5: remark: launch of 'k(float*, int)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier (cudaMemcpy synchronizes (a device-to-host copy) at sync-deferred.cu:[[@LINE+1]]); a graph region needs at least 2 (min-launches) [cuda-sync]
    cudaMemcpy(h, p, 64, cudaMemcpyDeviceToHost);
    // CHECK-DAG: sync-deferred.cu:[[@LINE-1]]:5: remark: cudaMemcpy inside a loop synchronizes (a device-to-host copy)
    k2<<<1, 32>>>(p);
    // CHECK-DAG: sync-deferred.cu:[[@LINE-1]]:5: remark: launch of 'k2(float*)' stays eager: only 1 launch site after cudaMemcpy synchronizes (a device-to-host copy) at sync-deferred.cu:[[@LINE-3]]
  }
}
// IR-LABEL: define {{.*}}@_Z10d2h_splitsPfS_i(
// IR-NOT: __pygraph_cudaMemcpy
// IR: call {{.*}}i32 @cudaMemcpy(ptr {{.*}}, ptr {{.*}}, i64 noundef 64, i32 noundef 2)

// A kind that is no constant: a barrier too (the pass cannot tell a host
// copy, which would cut the region at run time every iteration).
void unknown_kind_splits(float *p, float *q, cudaMemcpyKind kind, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p, i);
    // CHECK-DAG: sync-deferred.cu:[[@LINE-1]]:5: remark: launch of 'k(float*, int)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier (cudaMemcpy synchronizes (its kind is not a constant) at sync-deferred.cu:[[@LINE+1]])
    cudaMemcpy(q, p, 64, kind);
    k2<<<1, 32>>>(q);
  }
}

// Batchable loops: one launch and a memset or device copy, as with
// cudaMemsetAsync; a device-to-host copy makes two segments.
void batch_memset(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    cudaMemset(p, 0, 64);
    k<<<1, 32>>>(p, i);
    // CHECK-DAG: sync-deferred.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-3]]-[[#@LINE+1]]): up to 32 iterations per graph
  }
}
void batch_d2d(float *p, float *q, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p, i);
    // CHECK-DAG: sync-deferred.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-2]]-[[#@LINE+2]]): up to 32 iterations per graph
    cudaMemcpy(q, p, 64, cudaMemcpyDeviceToDevice);
  }
}
void batch_d2h(float *p, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p, i);
    cudaMemcpy(h, p, 64, cudaMemcpyDeviceToHost);
    // CHECK-DAG: sync-deferred.cu:[[@LINE-1]]:5: remark: loop (lines [[#@LINE-3]]-[[#@LINE+1]]) not batchable: barrier 'cudaMemcpy' in the loop
  }
}
