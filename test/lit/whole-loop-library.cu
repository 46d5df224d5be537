// Library calls in whole loops: a cuFFT, cuBLAS or cuSPARSE call the
// runtime records is one operation of the iteration, which the WHILE body
// holds as the graph captured from the call: every operand must be
// invariant (loads of stack slots the loop never writes count, escaped or
// not), and host memory an operand points into (a scalar the call reads)
// written by nothing else in the loop.  A call whose operand changes, or
// whose scalar the loop writes, keeps the loop from being a candidate, with
// the operand named; a host result the call writes and the exit test reads
// is host memory the loop writes.  An NCCL collective's kernels may span
// devices, which a conditional body cannot hold.
// RUN: %cuda_host -O2 -g -fplugin=%plugin -Rpass-analysis=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-whole-loops=2 -S -emit-llvm %s -o %t.ll
// RUN: opt -passes=verify -disable-output %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
#include <cublas_v2.h>
#include <cufft.h>
#include <cuda_runtime.h>

extern "C" {
typedef struct ncclComm *ncclComm_t;
typedef enum { ncclSuccess = 0 } ncclResult_t;
typedef enum { ncclFloat32 = 7 } ncclDataType_t;
typedef enum { ncclSum = 0 } ncclRedOp_t;
ncclResult_t ncclAllReduce(const void *sendbuff, void *recvbuff, size_t count,
                           ncclDataType_t datatype, ncclRedOp_t op, ncclComm_t comm,
                           cudaStream_t stream);
}

__global__ void excite(cufftComplex *x, int n, int t) {}
__global__ void scale(float *y, int n) {}
__global__ void residual(float *r, const float *y, int n) {}

// A counted loop: the kernel's step an affine argument, the transform's
// operands all invariant.
// IR-LABEL: define {{.*}}@_Z11fft_counted
// IR: call void @__pygraph_whole_loop_enter(
// IR: call i32 @__pygraph_whole_loop_try(
// IR: call i32 @__pygraph_cufftExecC2C(
void fft_counted(cufftComplex *x, int n, int steps, cudaStream_t s) {
  cufftHandle plan;
  cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  cufftSetStream(plan, s);
  for (int t = 0; t < steps; ++t) {
    // CHECK: whole-loop-library.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: {{.*}}; 2 operations, counted: no status copy; operands: {{[0-9]+}} invariant, 1 affine, 0 rotating)
    excite<<<n / 256, 256, 0, s>>>(x, n, t);
    cufftExecC2C(plan, x, x, CUFFT_FORWARD);
  }
  cufftDestroy(plan);
}

// The transform's buffers swap every iteration: the graph captured from
// one call cannot follow.
void fft_pingpong(cufftComplex *a, cufftComplex *b, int n, int steps, cudaStream_t s) {
  cufftHandle plan;
  cufftPlan1d(&plan, n, CUFFT_C2C, 1);
  cufftSetStream(plan, s);
  for (int t = 0; t < steps; ++t) {
    // CHECK: whole-loop-library.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+6]]) not a whole-loop candidate: operand 1 of 'cufftExecC2C' at whole-loop-library.cu:[[#@LINE+2]] changes from iteration to iteration, which the graph captured from the call cannot follow
    excite<<<n / 256, 256, 0, s>>>(a, n, 0);
    cufftExecC2C(plan, a, b, CUFFT_FORWARD);
    cufftComplex *tmp = a;
    a = b;
    b = tmp;
  }
  cufftDestroy(plan);
}

// The scalar cuBLAS reads is written by the loop.
void saxpy_alpha(cublasHandle_t h, float *x, float *y, int n, int steps) {
  for (int t = 0; t < steps; ++t) {
    // CHECK: whole-loop-library.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+4]]) not a whole-loop candidate: operand 2 of 'cublasSaxpy_v2' at whole-loop-library.cu:[[#@LINE+2]] leads to host memory the loop writes, which the graph captured from the call cannot follow
    const float a = (t & 1) ? 0.25f : 0.5f;
    cublasSaxpy(h, n, &a, x, 1, y, 1);
    scale<<<n / 256, 256>>>(y, n);
  }
}

// A convergence loop around a GEMM whose scalars are constants: a
// candidate with its status copy.
void gemm_converge(cublasHandle_t h, const float *A, float *x, float *y, float *r, int n,
                   float tol, int maxit) {
  const float one = 1.0f, zero = 0.0f;
  float res = 1.0f;
  int it = 0;
  do {
    // CHECK: whole-loop-library.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: {{.*}}status copy of 4 bytes{{.*}})
    cublasSgemv(h, CUBLAS_OP_N, n, n, &one, A, n, x, 1, &zero, y, 1);
    residual<<<n / 256, 256>>>(r, y, n);
    cudaMemcpy(&res, r, sizeof res, cudaMemcpyDeviceToHost);
  } while (res > tol && ++it < maxit);
}

// A dot product into host memory the exit test reads: host memory the
// loop writes.
float dot_converge(cublasHandle_t h, float *x, int n, float tol) {
  float d = 0.0f;
  do {
    // CHECK: whole-loop-library.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+3]]) not a whole-loop candidate: exit test at whole-loop-library.cu:[[#@LINE+3]] reads host memory the loop writes
    scale<<<n / 256, 256>>>(x, n);
    cublasSdot(h, n, x, 1, x, 1, &d);
  } while (d > tol);
  return d;
}

// A collective in the iteration.
void allreduce_steps(float *g, int n, int steps, ncclComm_t comm, cudaStream_t s) {
  for (int t = 0; t < steps; ++t) {
    // CHECK: whole-loop-library.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+3]]) not a whole-loop candidate: ncclAllReduce at whole-loop-library.cu:[[#@LINE+2]] in the iteration, which a conditional graph's body cannot hold
    scale<<<n / 256, 256, 0, s>>>(g, n);
    ncclAllReduce(g, g, n, ncclFloat32, ncclSum, comm, s);
  }
}
