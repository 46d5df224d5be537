// cuBLAS calls inside a loop of launches (issue 18): the calls the runtime
// records (runtime/include/pygraph_library.def) are routed to
// __pygraph_<symbol> with the call's own arguments and do not end the
// region; they count like launches toward min-launches, and the loop
// stays batchable (host scalars are read at the call).  Every other
// cuBLAS call is a barrier named as a cuBLAS call pygraph does not
// record; cublasSetStream, cublasSetWorkspace and cublasDestroy stay
// barriers but are routed, so that the runtime sees the handle's state.
// The library functions whose calls were routed stay referenced by the
// object (the runtime refers to them weakly).
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %cuda_host -O0 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-batch=0 -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=B0
#include <cublas_v2.h>
#include <cuda_runtime.h>

// The routed library functions stay referenced by the object.
// IR: @.pygraph.library_refs = private constant [3 x ptr] [ptr @cublasSgemm_v2, ptr @cublasSaxpy_v2, ptr @cublasSdot_v2]
// IR: @llvm.compiler.used = appending global {{.*}}@.pygraph.library_refs

__global__ void k1(float *p, int n) {}
__global__ void k2(float *p, int n) {}

// Two kernels, a gemm and an axpy in host pointer mode: one region of 2
// launch sites and 2 library calls, batchable.
void gemm_loop(cublasHandle_t h, float *a, float *b, float *c, int n, int iters) {
  const float alpha = 1.0f, beta = 0.5f;
  for (int i = 0; i < iters; ++i) {
    k1<<<1, 32>>>(a, n);
    // CHECK-DAG: library-cublas.cu:[[@LINE-1]]:5: remark: formed graph region in 'gemm_loop(cublasContext*, float*, float*, float*, int, int)': loop iteration (lines [[#@LINE-2]]-[[#@LINE+8]]), 2 launch sites, 2 library calls
    // CHECK-DAG: library-cublas.cu:[[@LINE-2]]:5: remark: batchable loop (lines [[#@LINE-3]]-[[#@LINE+7]]): up to 32 iterations per graph
    // O0-DAG: library-cublas.cu:[[@LINE-3]]:5: remark: formed graph region in 'gemm_loop(cublasContext*, float*, float*, float*, int, int)': loop iteration (lines [[#@LINE-4]]-[[#@LINE+6]]), 2 launch sites, 2 library calls
    cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, a, n, b, n, &beta, c, n);
    // CHECK-DAG: library-cublas.cu:[[@LINE-1]]:5: remark: cublasSgemm_v2 inside a loop: a cuBLAS call recorded in a region as one graph node (a graph captured from the library), not a barrier [-Rpass-analysis=pygraph]
    cublasSaxpy(h, n * n, &alpha, c, 1, b, 1);
    // CHECK-DAG: library-cublas.cu:[[@LINE-1]]:5: remark: cublasSaxpy_v2 inside a loop: a cuBLAS call recorded in a region as one graph node (a graph captured from the library), not a barrier [-Rpass-analysis=pygraph]
    k2<<<1, 32>>>(c, n);
  }
}
// IR-LABEL: define {{.*}}@_Z9gemm_loopP13cublasContextPfS1_S1_ii(
// IR: call {{.*}}@__pygraph_region_begin(
// IR: call {{.*}}i32 @__pygraph_cublasSgemm_v2(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}, i32 0, i32 0,
// IR: call {{.*}}i32 @__pygraph_cublasSaxpy_v2(ptr @.pygraph.site{{[.0-9]*}}, ptr
// IR-NOT: call {{.*}}@cublasS

// One kernel and a dot into a result pointer (device pointer mode: the
// result is device memory; the runtime decides at the call): the dot is
// routed, and with it the loop of one kernel is a region.
void dot_loop(cublasHandle_t h, float *x, float *result, int n, int iters) {
  for (int i = 0; i < iters; ++i) {
    k1<<<1, 32>>>(x, n);
    // CHECK-DAG: library-cublas.cu:[[@LINE-1]]:5: remark: formed graph region in 'dot_loop(cublasContext*, float*, float*, int, int)': loop iteration (lines [[#@LINE-2]]-[[#@LINE+4]]), 1 launch site, 1 library call
    // O0-DAG: library-cublas.cu:[[@LINE-2]]:5: remark: formed graph region in 'dot_loop(cublasContext*, float*, float*, int, int)': loop iteration (lines [[#@LINE-3]]-[[#@LINE+3]]), 1 launch site, 1 library call
    cublasSdot(h, n, x, 1, x, 1, result);
    // CHECK-DAG: library-cublas.cu:[[@LINE-1]]:5: remark: cublasSdot_v2 inside a loop: a cuBLAS call recorded in a region as one graph node (a graph captured from the library), not a barrier; in host pointer mode its result goes to host memory: a real synchronization, which ends the region at run time [-Rpass-analysis=pygraph]
  }
}
// Without batching a loop needs 2 launch sites (min-launches): the dot
// counts as one.
// B0: library-cublas.cu:[[#@LINE-9]]:5: remark: formed graph region in 'dot_loop(cublasContext*, float*, float*, int, int)': loop iteration (lines [[#@LINE-10]]-[[#@LINE-4]]), 1 launch site, 1 library call
// IR-LABEL: define {{.*}}@_Z8dot_loopP13cublasContextPfS1_ii(
// IR: call {{.*}}i32 @__pygraph_cublasSdot_v2(ptr @.pygraph.site{{[.0-9]*}}, ptr
// IR-NOT: call {{.*}}@cublasSdot_v2(

// An alpha the host computes every iteration: cuBLAS reads it at the call
// (host pointer mode), and so does the runtime, so the local holding it is
// private to the host and the loop batches.
void scalar_loop(cublasHandle_t h, float *x, float *y, int n, int iters) {
  for (int i = 0; i < iters; ++i) {
    float a = 0.5f * (float)(i & 3);
    cublasSaxpy(h, n, &a, x, 1, y, 1);
    k1<<<1, 32>>>(y, n);
    // CHECK-DAG: library-cublas.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-4]]-[[#@LINE+1]]): up to 32 iterations per graph
  }
}

// A cuBLAS call pygraph does not record ends the region: the launches on
// either side of it stay eager, the barrier named.  cublasSetStream is
// routed to be observed (the runtime forgets the handle's workspace there),
// the copy to the device is not routed.
void barrier_loop(cublasHandle_t h, float *x, const float *host, cudaStream_t s, int n,
                  int iters) {
  for (int i = 0; i < iters; ++i) {
    k1<<<1, 32>>>(x, n);
    // CHECK-DAG: library-cublas.cu:[[@LINE-1]]:5: remark: launch of 'k1(float*, int)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier (cuBLAS call 'cublasSetVector' that pygraph does not record at library-cublas.cu:[[#@LINE+2]]); a graph region needs at least 2 (min-launches) [library-call]
    // CHECK-DAG: library-cublas.cu:[[#@LINE+1]]:5: remark: loop (lines [[#@LINE-3]]-[[#@LINE+7]]) not batchable: barrier 'cublasSetVector' in the loop
    cublasSetVector(n, sizeof(float), host, 1, x, 1);
    // CHECK-DAG: library-cublas.cu:[[@LINE-1]]:5: remark: cublasSetVector inside a loop: a cuBLAS call that pygraph does not record, a barrier [-Rpass-analysis=pygraph]
    k2<<<1, 32>>>(x, n);
    // CHECK-DAG: library-cublas.cu:[[@LINE-1]]:5: remark: launch of 'k2(float*, int)' stays eager: only 1 launch site after cuBLAS call 'cublasSetVector' that pygraph does not record at library-cublas.cu:[[#@LINE-3]] before the next barrier (cuBLAS call 'cublasSetStream_v2' that pygraph does not record at library-cublas.cu:[[#@LINE+1]]); a graph region needs at least 2 (min-launches) [library-call]
    cublasSetStream(h, s);
    // CHECK-DAG: library-cublas.cu:[[@LINE-1]]:5: remark: cublasSetStream_v2 inside a loop: a cuBLAS call that pygraph does not record, a barrier [-Rpass-analysis=pygraph]
  }
}
// IR-LABEL: define {{.*}}@_Z12barrier_loopP13cublasContextPfPKfP11CUstream_stii(
// IR-NOT: @__pygraph_region_begin(
// IR: call {{.*}}i32 @cublasSetVector(
// IR: call {{.*}}i32 @__pygraph_cublasSetStream_v2(ptr @.pygraph.site{{[.0-9]*}}, ptr
