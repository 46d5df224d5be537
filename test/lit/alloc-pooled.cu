// cudaMalloc and cudaFree inside a loop join the region of the launches
// around them: both are routed to the runtime, whose pool answers them in
// a recording iteration with the same block each time and no CUDA call
// (runtime/src/segment/alloc_pool.h).  A file that makes host memory
// kernels can write (here cudaMallocHost, with -DHOST_VISIBLE) keeps
// cudaFree a barrier: the host may read such memory once cudaFree's own
// synchronization returned.
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %cuda_host -O2 -DHOST_VISIBLE -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=VISIBLE
// RUN: %cuda_host -O2 -DHOST_VISIBLE -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=VISIBLE-IR
#include <cuda_runtime.h>
__global__ void k(float *p, int i) {}
__global__ void k2(float *p) {}

// Allocate, two launches, free: one region of both launches, batchable.
void alloc_free(int n) {
  for (int i = 0; i < n; ++i) {
    float *t;
    cudaMalloc(&t, 256);
    // CHECK-DAG: alloc-pooled.cu:[[@LINE-1]]:5: remark: cudaMalloc inside a loop: served from pygraph's allocation pool in a region (the same block each iteration, no CUDA call)
    k<<<1, 32>>>(t, i);
    // CHECK-DAG: alloc-pooled.cu:[[@LINE-1]]:5: remark: formed graph region in 'alloc_free(int)': loop iteration (lines [[#@LINE-5]]-[[#@LINE+6]]), 2 launch sites
    // CHECK-DAG: alloc-pooled.cu:[[@LINE-2]]:5: remark: batchable loop (lines [[#@LINE-6]]-[[#@LINE+5]]): up to 32 iterations per graph
    // O0-DAG: alloc-pooled.cu:[[@LINE-3]]:5: remark: formed graph region in 'alloc_free(int)': loop iteration (lines [[#@LINE-7]]-[[#@LINE+4]]), 2 launch sites
    k2<<<1, 32>>>(t);
    cudaFree(t);
    // CHECK-DAG: alloc-pooled.cu:[[@LINE-1]]:5: remark: cudaFree inside a loop: served from pygraph's allocation pool in a region (the same block each iteration, no CUDA call)
  }
}
// IR-LABEL: define {{.*}}@_Z10alloc_freei(
// IR: call {{.*}}i32 @__pygraph_cudaMalloc(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}, i64 256)
// IR: call {{.*}}i32 @__pygraph_cudaFree(ptr @.pygraph.site{{[.0-9]*}}, ptr
// IR-NOT: call {{.*}}@cudaFree(

// One launch between the allocation and the free: a one-launch loop that
// batches, as without them.
void one_launch(int n) {
  for (int i = 0; i < n; ++i) {
    float *t;
    cudaMalloc((void **)&t, 1024);
    k<<<1, 32>>>(t, i);
    // CHECK-DAG: alloc-pooled.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-4]]-[[#@LINE+2]]): up to 32 iterations per graph
    cudaFree(t);
  }
}

#ifdef HOST_VISIBLE
void pinned(float **h) { cudaMallocHost((void **)h, 64); }
#endif
// VISIBLE-DAG: alloc-pooled.cu:[[#@LINE-24]]:5: remark: loop (lines [[#@LINE-33]]-[[#@LINE-22]]) not batchable: barrier 'cudaFree' in the loop
// VISIBLE-DAG: alloc-pooled.cu:[[#@LINE-10]]:5: remark: launch of 'k(float*, int)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier (cudaFree frees (and may synchronize), and this file calls cudaMallocHost (host memory kernels can write, which the host may read once the free returns) at alloc-pooled.cu:[[#@LINE-8]])
// VISIBLE-IR-LABEL: define {{.*}}@_Z10alloc_freei(
// VISIBLE-IR: call {{.*}}i32 @__pygraph_cudaMalloc(
// VISIBLE-IR: call {{.*}}i32 @cudaFree(
