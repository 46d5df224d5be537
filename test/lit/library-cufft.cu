// cuFFT executions inside a loop of launches (issue 18): cufftExec* are
// routed to __pygraph_<symbol> with the call's own arguments and do not end
// the region (they count like launches toward min-launches); the calls that
// make a plan, set its stream and destroy it stay barriers but are routed,
// so that the runtime keeps each plan's stream; every other cuFFT call is a
// barrier named as a cuFFT call pygraph does not record.
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <cufft.h>
#include <cuda_runtime.h>

// IR: @.pygraph.library_refs = private constant [1 x ptr] [ptr @cufftExecC2C]

__global__ void k1(cufftComplex *p, int n) {}
__global__ void k2(cufftComplex *p, int n) {}

// IR-LABEL: define {{.*}}void @_Z8fft_loopP6float2S0_iiP11CUstream_st(
// IR: call i32 @__pygraph_cufftPlan1d(ptr @.pygraph.site.{{[0-9]+}}, ptr
// IR: call i32 @__pygraph_cufftSetStream(ptr @.pygraph.site.{{[0-9]+}}, i32
// IR: call i32 @__pygraph_cufftDestroy(
// IR: call i32 @__pygraph_cufftExecC2C(ptr @.pygraph.site.{{[0-9]+}}, i32 {{%[0-9]+}}, ptr %0, ptr %1, i32 -1)
// IR: call i32 @__pygraph_cufftExecC2C(ptr @.pygraph.site.{{[0-9]+}}, i32 {{%[0-9]+}}, ptr %1, ptr %0, i32 1)
void fft_loop(cufftComplex *a, cufftComplex *b, int n, int iters, cudaStream_t s) {
  cufftHandle plan;
  cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  cufftSetStream(plan, s);
  for (int i = 0; i < iters; ++i) {
    k1<<<1, 32, 0, s>>>(a, n);
    // CHECK-DAG: library-cufft.cu:[[@LINE-1]]:5: remark: formed graph region in 'fft_loop(float2*, float2*, int, int, CUstream_st*)': loop iteration (lines [[#@LINE-2]]-[[#@LINE+5]]), 2 launch sites, 2 library calls
    cufftExecC2C(plan, a, b, CUFFT_FORWARD);
    // CHECK-DAG: library-cufft.cu:[[@LINE-1]]:5: remark: cufftExecC2C inside a loop: a cuFFT call recorded in a region as one graph node (a graph captured from the library), not a barrier
    k2<<<1, 32, 0, s>>>(b, n);
    cufftExecC2C(plan, b, a, CUFFT_INVERSE);
  }
  cufftDestroy(plan);
}

// A cuFFT call pygraph does not record ends the region.
void sizes(cufftComplex *a, int n, int iters) {
  cufftHandle plan;
  cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  for (int i = 0; i < iters; ++i) {
    k1<<<1, 32>>>(a, n);
    // CHECK-DAG: library-cufft.cu:[[@LINE-1]]:5: remark: launch of 'k1(float2*, int)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier (cuFFT call 'cufftGetSize' that pygraph does not record at library-cufft.cu:[[@LINE+2]]){{.*}} [library-call]
    size_t ws;
    cufftGetSize(plan, &ws);
    k2<<<1, 32>>>(a, n);
  }
}
