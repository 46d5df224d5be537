// cuSPARSE calls inside a loop of launches (issue 18): cusparseSpMV and
// cusparseSpMM are routed to __pygraph_<symbol> with the call's own
// arguments and do not end the region (they count like launches toward
// min-launches); the destruction of a handle or descriptor and the
// preprocessing calls stay barriers but are routed, so that the runtime
// never replays a graph captured before them; the handle's stream and
// pointer mode and the descriptors' setters need no routing (the runtime
// reads them at each call) and stay barriers like every other cuSPARSE
// call, named as a cuSPARSE call pygraph does not record.
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <cusparse.h>
#include <cuda_runtime.h>

// IR: @.pygraph.library_refs = private constant [2 x ptr] [ptr @cusparseSpMV, ptr @cusparseSpMM]

__global__ void k1(float *p, int n) {}
__global__ void k2(float *p, int n) {}

// IR-NOT: @__pygraph_cusparseSetStream
// IR-NOT: @__pygraph_cusparseCreate
// IR-LABEL: define {{.*}}void @_Z9spmv_loop
// IR: call i32 @cusparseCreate(
// IR: call i32 @cusparseSetStream(
// IR: call i32 @__pygraph_cusparseSpMV_preprocess(ptr @.pygraph.site.{{[0-9]+}}, ptr
// IR: call i32 @__pygraph_cusparseDestroyDnVec(ptr @.pygraph.site.{{[0-9]+}}, ptr %2)
// IR: call i32 @__pygraph_cusparseDestroy(ptr @.pygraph.site.{{[0-9]+}}, ptr
// IR: call i32 @__pygraph_cusparseSpMV(ptr @.pygraph.site.{{[0-9]+}}, ptr {{%[0-9]+}}, i32 0, ptr {{%[0-9]+}}, ptr %0, ptr %1, ptr {{%[0-9]+}}, ptr %2, i32 0, i32 0, ptr %6)
// IR: call i32 @__pygraph_cusparseSpMM(ptr @.pygraph.site.{{[0-9]+}}, ptr {{%[0-9]+}}, i32 0, i32 0, ptr {{%[0-9]+}}, ptr %0, ptr %3, ptr {{%[0-9]+}}, ptr %4, i32 0, i32 0, ptr %6)
void spmv_loop(cusparseSpMatDescr_t a, cusparseDnVecDescr_t x, cusparseDnVecDescr_t y,
               cusparseDnMatDescr_t b, cusparseDnMatDescr_t c, float *v, void *buf, int n,
               int iters, cudaStream_t s) {
  cusparseHandle_t h;
  cusparseCreate(&h);
  cusparseSetStream(h, s);
  float alpha = 1.0f, beta = 0.0f;
  cusparseSpMV_preprocess(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, x, &beta, y,
                          CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, buf);
  for (int i = 0; i < iters; ++i) {
    k1<<<1, 32, 0, s>>>(v, n);
    // CHECK-DAG: library-cusparse.cu:[[@LINE-1]]:5: remark: formed graph region in 'spmv_loop({{.*}})': loop iteration (lines [[#@LINE-2]]-[[#@LINE+7]]), 2 launch sites, 2 library calls
    cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, x, &beta, y, CUDA_R_32F,
                 CUSPARSE_SPMV_ALG_DEFAULT, buf);
    // CHECK-DAG: library-cusparse.cu:[[@LINE-2]]:5: remark: cusparseSpMV inside a loop: a cuSPARSE call recorded in a region as one graph node (a graph captured from the library), not a barrier
    k2<<<1, 32, 0, s>>>(v, n);
    cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                 a, b, &beta, c, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buf);
  }
  cusparseDestroyDnVec(y);
  cusparseDestroy(h);
}

// A descriptor setter (not routed: the runtime reads the descriptors at
// each call) ends the region like every cuSPARSE call pygraph does not
// record; the call after it starts another (the descriptor's values are
// part of its recorded signature).
void setter(cusparseHandle_t h, cusparseSpMatDescr_t a, cusparseDnVecDescr_t x,
            cusparseDnVecDescr_t y, float *v, float **ys, void *buf, int n, int iters) {
  float alpha = 1.0f, beta = 0.0f;
  for (int i = 0; i < iters; ++i) {
    k1<<<1, 32>>>(v, n);
    // CHECK-DAG: library-cusparse.cu:[[@LINE-1]]:5: remark: launch of 'k1(float*, int)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier (cuSPARSE call 'cusparseDnVecSetValues' that pygraph does not record at library-cusparse.cu:[[@LINE+1]]){{.*}} [library-call]
    cusparseDnVecSetValues(y, ys[i & 1]);
    cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, a, x, &beta, y, CUDA_R_32F,
                 CUSPARSE_SPMV_ALG_DEFAULT, buf);
    k2<<<1, 32>>>(v, n);
    // CHECK-DAG: library-cusparse.cu:[[@LINE-1]]:5: remark: formed graph region in 'setter({{.*}})': loop iteration (lines [[#@LINE-7]]-[[#@LINE+1]]), 1 launch site, 1 library call
  }
}
