// The whole-loop protocol around candidate loops (whole-loops=2; issue 17):
// enter in the preheader with the invariants' bits, try first in every
// iteration (its answer switches to the exit of the test that left, where
// the loop's values are recomputed from the iteration), exit on every way
// out with the mask of the tests leading there, the status copy routed.
// runtime/include/pygraph_rt.h says what each guarantees.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-whole-loops=2 -S -emit-llvm %s -o %t.ll
// RUN: opt -passes=verify -disable-output %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %cuda_host -O2 -g -fplugin=%plugin -fplugin-arg-pygraph-whole-loops=2 -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// The default (whole-loops=1) describes the loops and instruments none.
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=DEFAULT
// DEFAULT-NOT: __pygraph_whole_loop_
// DEFAULT: call {{.*}} @cudaMemcpy(
// DEFAULT-NOT: __pygraph_whole_loop_
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
struct Status {
  int notconv;
  float res;
};
__global__ void relax(float *out, const float *in, int n) {}
__global__ void check(const float *a, Status *st, int n) {}

// do { ... } while (st.notconv && it < maxit): ping-pong, the counter
// returned.
int do_while(float *a, float *b, Status *d_st, int n, int maxit) {
  Status st;
  int it = 0;
  do {
    relax<<<n / 256, 256>>>(b, a, n);
    check<<<n / 256, 256>>>(b, d_st, n);
    float *t = a;
    a = b;
    b = t;
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    ++it;
  } while (st.notconv && it < maxit);
  return it;
}
// REMARK: whole-loop-instrument.cu:[[#@LINE-11]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0 || (1 + i) >= inv1; 3 operations, status copy of 8 bytes; operands: 4 invariant, 0 affine, 3 rotating); instrumented: runs whole once its executions were checked
// Invariants (the status, maxit, the two buffers) stored as bits, then enter.
// CHECK-LABEL: define {{.*}} @_Z8do_whilePfS_P6Statusii(
// CHECK-NEXT: [[INV:%[0-9]+]] = alloca [4 x i64]
// CHECK-NEXT: [[LEFT:%[0-9]+]] = alloca i64
// CHECK: [[ST:%[0-9]+]] = alloca %struct.Status
// CHECK: [[SLOT0:%[0-9]+]] = getelementptr inbounds [4 x i64], ptr [[INV]], i64 0, i64 0
// CHECK-NEXT: [[DEST:%[0-9]+]] = ptrtoint ptr [[ST]] to i64
// CHECK-NEXT: store i64 [[DEST]], ptr [[SLOT0]]
// CHECK-NEXT: [[SLOT1:%[0-9]+]] = getelementptr inbounds [4 x i64], ptr [[INV]], i64 0, i64 1
// CHECK-NEXT: [[MAXIT:%[0-9]+]] = zext i32 %4 to i64
// CHECK-NEXT: store i64 [[MAXIT]], ptr [[SLOT1]]
// CHECK: call void @__pygraph_whole_loop_enter(ptr [[REGION:@.pygraph.region]], ptr [[WL:@.pygraph.whole_loop]], ptr [[INV]])
// CHECK-NEXT: br label %[[HEADER:[0-9]+]]
// try first in the iteration; its answer 0 (the only test) goes to pg.wl.left
// CHECK: [[HEADER]]:
// CHECK-NEXT: phi i32
// CHECK-NEXT: phi ptr
// CHECK-NEXT: phi ptr
// CHECK-NEXT: [[K:%[0-9]+]] = call i32 @__pygraph_whole_loop_try(ptr [[REGION]], ptr [[WL]], ptr [[LEFT]])
// CHECK-NEXT: switch i32 [[K]], label %[[ITER:[0-9]+]] [
// CHECK-NEXT: i32 0, label %[[LEFT0:[0-9]+]]
// CHECK: [[ITER]]:
// CHECK-NEXT: call void @__pygraph_region_begin(ptr [[REGION]], i32 0)
// the status copy, routed
// CHECK: call i32 @__pygraph_cudaMemcpy(ptr @.pygraph.site{{[.0-9]*}}, ptr [[ST]], ptr %2, i64 8, i32 2)
// the exit: its phi (LCSSA) takes it + 1 of the iteration the loop left in
// CHECK: [[EXIT:[0-9]+]]:
// CHECK-NEXT: phi i32 [ %{{[0-9]+}}, %{{[0-9]+}} ], [ [[IT:%[0-9]+]], %[[LEFT0]] ]
// CHECK-NEXT: call void @__pygraph_whole_loop_exit(ptr [[REGION]], ptr [[WL]], i64 1)
// CHECK: [[LEFT0]]:
// CHECK-NEXT: [[I:%[^ ]+]] = load i64, ptr [[LEFT]]
// CHECK-NEXT: [[I32:%[0-9]+]] = trunc i64 [[I]] to i32
// CHECK-NEXT: [[M:%[0-9]+]] = mul i32 1, [[I32]]
// CHECK-NEXT: [[IT]] = add i32 [[M]], 1
// CHECK-NEXT: br label %[[EXIT]]

// The pointer the loop leaves with, and a status field.
float *pointer_out(float *a, float *b, Status *d_st, int n, float *res) {
  Status st;
  for (;;) {
    relax<<<64, 256>>>(b, a, n);
    check<<<64, 256>>>(b, d_st, n);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    if (!st.notconv)
      break;
    float *t = a;
    a = b;
    b = t;
  }
  *res = st.res;
  return b;
}
// REMARK: whole-loop-instrument.cu:[[#@LINE-13]]:3: remark: whole loop as one conditional graph: candidate ({{.*}}); instrumented: runs whole once its executions were checked
// b when the loop leaves is the rotation's member (0 + i) % 2: b, then a.
// CHECK-LABEL: define {{.*}} @_Z11pointer_outPfS_P6StatusiS_(
// CHECK: call void @__pygraph_whole_loop_enter(
// CHECK: [[HEADER:[0-9]+]]:
// CHECK-NEXT: [[B:%[0-9]+]] = phi ptr [ %1, %{{[0-9]+}} ], [ [[A:%[0-9]+]], %{{[0-9]+}} ]
// CHECK-NEXT: [[A]] = phi ptr [ %0, %{{[0-9]+}} ]
// CHECK-NEXT: call i32 @__pygraph_whole_loop_try(
// CHECK-NEXT: switch i32 %{{[0-9]+}}, label %{{[0-9]+}} [
// CHECK-NEXT: i32 0, label %[[LEFT0:[0-9]+]]
// CHECK: call i32 @__pygraph_cudaMemcpy(
// CHECK: [[EXIT:[0-9]+]]:
// CHECK-NEXT: phi ptr [ [[B]], %{{[0-9]+}} ], [ [[OUT:%[0-9]+]], %[[LEFT0]] ]
// CHECK-NEXT: call void @__pygraph_whole_loop_exit(
// CHECK: [[LEFT0]]:
// CHECK-NEXT: [[I:%[^ ]+]] = load i64
// CHECK-NEXT: [[P:%[0-9]+]] = add i64 [[I]], 0
// CHECK-NEXT: [[R:%[0-9]+]] = urem i64 [[P]], 2
// CHECK-NEXT: [[IS1:%[0-9]+]] = icmp eq i64 [[R]], 1
// CHECK-NEXT: [[OUT]] = select i1 [[IS1]], ptr %0, ptr %1
// CHECK-NEXT: br label %[[EXIT]]

// A convergence loop inside a time-step loop: the region is the outer
// loop; the inner one runs whole too (the runtime ends the outer region's
// iteration before its graph), with the protocol around it and the status
// copy routed.
void nested(float *a, float *b, Status *d_st, int n, int steps) {
  for (int s = 0; s < steps; ++s) {
    Status st;
    do {
      relax<<<64, 256>>>(b, a, n);
      check<<<64, 256>>>(b, d_st, n);
      cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    } while (st.notconv);
  }
}
// REMARK: whole-loop-instrument.cu:[[#@LINE-7]]:5: remark: whole loop as one conditional graph: candidate ({{.*}}); instrumented: runs whole once its executions were checked
// CHECK-LABEL: define {{.*}} @_Z6nestedPfS_P6Statusii(
// CHECK: call void @__pygraph_whole_loop_enter(
// CHECK: call i32 @__pygraph_whole_loop_try(
// CHECK: call {{.*}} @__pygraph_cudaMemcpy(
// CHECK: call void @__pygraph_whole_loop_exit(

// CG's shape: a test right after the status copy, an operation after it
// (the runtime's WHILE body puts it in an IF node the test skips in the
// iteration it leaves: graphs/while_graph.h): instrumented.
void cg_shape(float *a, float *b, Status *d_st, int n, int maxit) {
  Status st;
  int k = 0;
  while (k < maxit) {
    ++k;
    relax<<<64, 256>>>(b, a, n);
    check<<<64, 256>>>(b, d_st, n);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    if (!st.notconv) break;
    relax<<<64, 256>>>(a, b, n);
  }
}
// REMARK: whole-loop-instrument.cu:[[#@LINE-9]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0; at the end of the iteration, leave when {{.*}}; 4 operations, status copy of 8 bytes; {{.*}}); instrumented: runs whole once its executions were checked
// CHECK-LABEL: define {{.*}} @_Z8cg_shapePfS_P6Statusii(
// CHECK: call void @__pygraph_whole_loop_enter(
// CHECK: call i32 @__pygraph_whole_loop_try(
// CHECK: call {{.*}} @__pygraph_cudaMemcpy(
// CHECK: call {{.*}} @__pygraph_cudaLaunchKernel(
// CHECK: call void @__pygraph_whole_loop_exit(
// CHECK: ret void
