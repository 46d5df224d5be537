// Loops that can run whole as one conditional WHILE graph (issue 17): each
// qualifying form, with its remark and the descriptor the runtime reads
// (struct pygraph_whole_loop of runtime/include/pygraph_abi.def; the exit
// tests are postfix nodes {op, type, arg, imm, step}, the operands
// {op, operand, evolution, type, base, step_by, count, a, b}).
// Refusals and their positive twins: whole-loop-refusals.cu.
// RUN: %cuda_host -O2 -g -fplugin=%plugin -Rpass-analysis=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not="whole-loop candidate"
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | sed -e 's/{ i32, i32, i32, i64, i64 } {/{/g' -e 's/{ i32, i32, i32, i32, i32, i32, i32, i64, i64 } {/{/g' | FileCheck %s --check-prefix=IR
// examples/cg_solver.cu: its CG loop (the residual copied back every
// iteration, rr and rr_new swapped, update_p after the break, the cap at
// the top) is a candidate; the time-step loop around it is not.
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass-analysis=pygraph -Rpass-missed=pygraph -c %S/../../examples/cg_solver.cu -o /dev/null 2>&1 | FileCheck %s --check-prefix=CG
// CG: cg_solver.cu:{{[0-9]+}}:3: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not a whole-loop candidate: the iteration contains a loop (lines [[#INNER:]]-{{[0-9]+}})
// CG: cg_solver.cu:[[#INNER]]:5: remark: whole loop as one conditional graph: candidate (exit test: at the top, leave when i == 200; after the status copy, leave when status.f32@0 <= inv1; 8 operations, status copy of 4 bytes; operands: 27 invariant, 0 affine, 5 rotating)
// The stage off: no remark, no descriptor.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-whole-loops=0 -Rpass-analysis=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-whole-loops=0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF-IR
// OFF-NOT: remark: whole loop as
// OFF-NOT: not a whole-loop candidate
// OFF-IR-NOT: @.pygraph.whole_loop
// OFF-IR: @.pygraph.region = internal global {{.*}} { i32 4, {{.*}}, ptr null, ptr null }
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <utility>
struct Status {
  int notconv;
  float res;
};
__global__ void relax(float *out, const float *in, int n) {}
__global__ void check(const float *a, Status *st, int n) {}
__global__ void step(float *a, int t, long off) {}
__global__ void residual(const float *a, float *res) {}
__device__ int d_flag;
__global__ void sweep(float *a, int *flag) {}
#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      fprintf(stderr, "%s\n", cudaGetErrorString(e_));                             \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)

// do { ... } while (st.notconv && it < maxit), a buffer ping-pong, error
// checks that exit (taken only on a CUDA error, not exit tests).
int do_while(float *a, float *b, Status *d_st, int n, int maxit) {
  Status st;
  int it = 0;
  do {
    // CHECK: whole-loop-forms.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0 || (1 + i) >= inv1; 3 operations, status copy of 8 bytes; operands: 4 invariant, 0 affine, 3 rotating) [-Rpass-analysis=pygraph]
    relax<<<n / 256, 256>>>(b, a, n);
    check<<<n / 256, 256>>>(b, d_st, n);
    float *t = a;
    a = b;
    b = t;
    CHECK(cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost));
    ++it;
  } while (st.notconv && it < maxit);
  return it;
}
// Invariants: the status (a local: ptr), maxit (i32), the two buffers.
// IR: @.pygraph.invariant_types = private constant [4 x i32] [i32 7, i32 3, i32 7, i32 7]
// FIELD i32 @0, CONST 0, CMP eq; COUNTER i32 1 + 1*i, INVARIANT 1, CMP sge; OR; LEAVE after the copy
// IR-NEXT: @.pygraph.exit_nodes = private constant [8 x {{.*}}] [{ i32 0, i32 3, i32 0, i64 0, i64 0 }, { i32 1, i32 3, i32 0, i64 0, i64 0 }, { i32 4, i32 0, i32 32, i64 0, i64 0 }, { i32 3, i32 3, i32 -1, i64 1, i64 1 }, { i32 2, i32 3, i32 1, i64 0, i64 0 }, { i32 4, i32 0, i32 39, i64 0, i64 0 }, { i32 6, i32 0, i32 0, i64 0, i64 0 }, { i32 9, i32 0, i32 1, i64 0, i64 0 }]
// relax(b, a, n): b and a rotate (set at member 0, count 2, positions 0 and 1);
// check(b, d_st, n); the copy's source d_st: invariant.
// IR-NEXT: @.pygraph.loop_values = private constant [7 x {{.*}}] [{ i32 0, i32 0, i32 2, i32 7, i32 0, i32 -1, i32 2, i64 0, i64 0 }, { i32 0, i32 1, i32 2, i32 7, i32 0, i32 -1, i32 2, i64 1, i64 0 }, { i32 0, i32 2, i32 0, i32 3, i32 -1, i32 -1, i32 0, i64 0, i64 0 }, { i32 1, i32 0, i32 2, i32 7, i32 0, i32 -1, i32 2, i64 0, i64 0 }, { i32 1, i32 1, i32 0, i32 7, i32 -1, i32 -1, i32 0, i64 0, i64 0 }, { i32 1, i32 2, i32 0, i32 3, i32 -1, i32 -1, i32 0, i64 0, i64 0 }, { i32 2, i32 1, i32 0, i32 7, i32 -1, i32 -1, i32 0, i64 0, i64 0 }]
// IR-NEXT: @.pygraph.rotation = private constant [2 x i32] [i32 2, i32 3]
// lines, not nested, 3 ops, copy is op 2 (cudaMemcpy), 8 bytes, dest invariant 0 + 0
// IR-NEXT: @.pygraph.whole_loop = private constant {{.*}} { ptr null, i32 [[#@LINE-21]], i32 [[#@LINE-12]], i32 0, i32 3, i32 2, i32 0, i32 8, i32 [[#@LINE-14]], i32 0, i64 0, i32 4, ptr @.pygraph.invariant_types, i32 8, ptr @.pygraph.exit_nodes, i32 7, ptr @.pygraph.loop_values, i32 2, ptr @.pygraph.rotation }
// IR-NEXT: @.pygraph.region = internal global {{.*}} { i32 4, i32 0, i32 1, i32 2, {{.*}}, ptr null, ptr @.pygraph.whole_loop }

// for (;;) { ...; if (!st.notconv) break; } with std::swap.
int forever(float *a, float *b, Status *d_st, int n) {
  Status st;
  int it = 0;
  for (;;) {
    // CHECK: whole-loop-forms.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0; 3 operations, status copy of 8 bytes; operands: 4 invariant, 0 affine, 3 rotating)
    relax<<<n / 256, 256>>>(b, a, n);
    check<<<n / 256, 256>>>(b, d_st, n);
    CHECK(cudaGetLastError());
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    if (!st.notconv)
      break;
    std::swap(a, b);
    ++it;
  }
  return it;
}
// IR: @.pygraph.exit_nodes.{{[0-9]+}} = private constant [4 x {{.*}}] [{ i32 0, i32 3, i32 0, i64 0, i64 0 }, { i32 1, i32 3, i32 0, i64 0, i64 0 }, { i32 4, i32 0, i32 32, i64 0, i64 0 }, { i32 9, i32 0, i32 1, i64 0, i64 0 }]

// A float residual: while (res > tol) leaves when !(res > tol), NaN included.
float residual_loop(float *a, float *d_res, float tol) {
  float res = 1.0f;
  while (res > tol) {
    // CHECK: whole-loop-forms.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when !(status.f32@0 > inv1); 3 operations, status copy of 4 bytes; operands: 6 invariant, 0 affine, 0 rotating)
    relax<<<64, 256>>>(a, a, 1 << 14);
    residual<<<1, 256>>>(a, d_res);
    cudaMemcpy(&res, d_res, sizeof res, cudaMemcpyDeviceToHost);
  }
  return res;
}
// FIELD f32 @0, INVARIANT 1 (f32), CMP ule (13)
// IR: @.pygraph.invariant_types.{{[0-9]+}} = private constant [2 x i32] [i32 7, i32 5]
// IR-NEXT: @.pygraph.exit_nodes.{{[0-9]+}} = private constant [4 x {{.*}}] [{ i32 0, i32 5, i32 0, i64 0, i64 0 }, { i32 2, i32 5, i32 1, i64 0, i64 0 }, { i32 4, i32 0, i32 13, i64 0, i64 0 }, { i32 9, i32 0, i32 1, i64 0, i64 0 }]

// Triple buffering: a rotation of three.
void triple(float *a, float *b, float *c, Status *d_st) {
  Status st;
  do {
    // CHECK: whole-loop-forms.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0; 3 operations, status copy of 8 bytes; operands: 4 invariant, 0 affine, 3 rotating)
    relax<<<64, 256>>>(c, a, 1 << 14);
    check<<<64, 256>>>(c, d_st, 1 << 14);
    float *t = a;
    a = b;
    b = c;
    c = t;
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv);
}
// relax(c, a): c at position 0, a at position 1 of a set of 3 members
// IR: @.pygraph.loop_values.{{[0-9]+}} = private constant [7 x {{.*}}] [{ i32 0, i32 0, i32 2, i32 7, i32 0, i32 -1, i32 3, i64 0, i64 0 }, { i32 0, i32 1, i32 2, i32 7, i32 0, i32 -1, i32 3, i64 1, i64 0 },
// IR-NEXT: @.pygraph.rotation.{{[0-9]+}} = private constant [3 x i32] [i32 1, i32 2, i32 3]

// Arguments affine in the counter: a + t*n (a stride by an invariant),
// 2*t + 1, t*1000; the test's counter compared unsigned after LLVM's
// rewrite of t < 100.
int affine(float *a, float *d_res, float tol, int n) {
  float res;
  int t = 0;
  do {
    // CHECK: whole-loop-forms.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when !(status.f32@0 > inv1) || i >=u 99; 3 operations, status copy of 4 bytes; operands: 3 invariant, 3 affine, 0 rotating)
    step<<<64, 256>>>(a + (long)t * n, 2 * t + 1, (long)t * 1000);
    residual<<<1, 256>>>(a, d_res);
    cudaMemcpy(&res, d_res, sizeof res, cudaMemcpyDeviceToHost);
    ++t;
  } while (res > tol && t < 100);
  return t;
}
// a: invariant 2 + 4 bytes * invariant 3 (n, widened) per iteration;
// 2*t + 1 (i32); t*1000 (i64)
// IR: @.pygraph.loop_values.{{[0-9]+}} = private constant [6 x {{.*}}] [{ i32 0, i32 0, i32 1, i32 7, i32 2, i32 3, i32 0, i64 0, i64 4 }, { i32 0, i32 1, i32 1, i32 3, i32 -1, i32 -1, i32 0, i64 1, i64 2 }, { i32 0, i32 2, i32 1, i32 4, i32 -1, i32 -1, i32 0, i64 0, i64 1000 },

// cudaMemcpyAsync to pinned memory, then a stream synchronize.
int async_copy(float *a, float *d_res, float *h_res, float tol, cudaStream_t s) {
  int it = 0;
  for (;;) {
    // CHECK: whole-loop-forms.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.f32@0 <= inv1; 3 operations, status copy of 4 bytes; operands: 6 invariant, 0 affine, 0 rotating)
    relax<<<64, 256, 0, s>>>(a, a, 1 << 14);
    residual<<<1, 256, 0, s>>>(a, d_res);
    cudaMemcpyAsync(h_res, d_res, sizeof(float), cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    ++it;
    if (*h_res <= tol)
      break;
  }
  return it;
}
// status_copy 1 (cudaMemcpyAsync + synchronize)
// IR: @.pygraph.whole_loop.{{[0-9]+}} = private constant {{.*}} { ptr null, i32 [[#@LINE-13]], i32 [[#@LINE-4]], i32 0, i32 3, i32 2, i32 1, i32 4, i32 [[#@LINE-9]],

// cudaMemcpyFromSymbol, a memset among the operations; one launch site
// forms no region, so the descriptor has nowhere to go yet.
int from_symbol(float *a, int maxit) {
  int flag = 1, it = 0;
  while (flag && it < maxit) {
    // CHECK: whole-loop-forms.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0 || (1 + i) >= inv1; 3 operations, status copy of 4 bytes; operands: 8 invariant, 0 affine, 0 rotating); not emitted: the loop forms no graph region
    cudaMemsetAsync(a, 0, 4);
    sweep<<<64, 256>>>(a, nullptr);
    cudaMemcpyFromSymbol(&flag, d_flag, sizeof flag);
    ++it;
  }
  return it;
}
// IR-NOT: @.pygraph.whole_loop.{{[0-9]+}} = private

// A status reset by a synchronous cudaMemset, deferred on device memory
// like a stream operation (an operation of the iteration).
int reset_memset(float *a, int *d_flag) {
  int flag;
  do {
    // CHECK: whole-loop-forms.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0; 4 operations, status copy of 4 bytes
    cudaMemset(d_flag, 0, sizeof(int));
    sweep<<<64, 256>>>(a, d_flag);
    sweep<<<64, 256>>>(a, d_flag);
    cudaMemcpy(&flag, d_flag, sizeof flag, cudaMemcpyDeviceToHost);
  } while (flag);
  return 0;
}
// 4 operations, the copy the fourth, 4 bytes
// IR: @.pygraph.whole_loop.{{[0-9]+}} = private constant {{.*}} { ptr null, i32 [[#@LINE-10]], i32 [[#@LINE-4]], i32 0, i32 4, i32 3, i32 0, i32 4,
