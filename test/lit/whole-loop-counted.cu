// Counted loops (issue 17, "also for counted loops"): a loop without a
// status copy whose exit tests read only its counter and invariants is a
// whole-loop candidate, described with no status operation (status_copy 3,
// PYGRAPH_STATUS_NONE; status_op and status_dest PYGRAPH_WL_NONE, 0 bytes).
// A batchable one keeps its batch protocol; with whole-loops=2 the
// whole-loop protocol goes around it too: enter after region_loop_enter in
// the preheader, try first in every iteration, and at the exit the
// whole-loop exit right after region_exit (what the batch held back is
// issued first).  A counted loop with a host store or a call with effects
// is refused with its reason.
// RUN: %cuda_host -O2 -g -fplugin=%plugin -Rpass-analysis=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,REMARK1
// RUN: %cuda_host -O2 -g -fplugin=%plugin -fplugin-arg-pygraph-whole-loops=2 -Rpass-analysis=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,REMARK2
// RUN: %cuda_host -O2 -g -fplugin=%plugin -fplugin-arg-pygraph-whole-loops=0 -Rpass-analysis=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF --implicit-check-not="whole loop as" --implicit-check-not="whole-loop candidate"
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-whole-loops=2 -S -emit-llvm %s -o %t.ll
// RUN: opt -passes=verify -disable-output %t.ll
// RUN: FileCheck %s --check-prefix=IR < %t.ll
// whole-loops=1 (the default): described, batched as before, no protocol.
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=DEFAULT --implicit-check-not=__pygraph_whole_loop_
// whole-loops=0: no descriptor at all.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-whole-loops=0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NONE --implicit-check-not=__pygraph_whole_loop_ --implicit-check-not=@.pygraph.whole_loop
#include <cuda_runtime.h>
__global__ void step(float *out, const float *in, int t, int n) {}
__global__ void copyback(float *out, const float *in, int n) {}
int g_progress;
extern void progress(int t);

// Ping-pong buffers, the step number an argument, the last buffer returned.
float *pingpong(float *a, float *b, int steps, int n) {
  for (int t = 0; t < steps; ++t) {
    step<<<n / 256, 256>>>(b, a, t, n);
    copyback<<<n / 256, 256>>>(a, b, n);
    float *tmp = a;
    a = b;
    b = tmp;
  }
  return a;
}
// REMARK: whole-loop-counted.cu:[[#@LINE-9]]:3: remark: whole loop as one conditional graph: candidate (exit test: at the end of the iteration, leave when (1 + i) == inv0; 2 operations, counted: no status copy; operands: 2 invariant, 1 affine, 4 rotating)
// REMARK1-NOT: instrumented
// REMARK2-SAME: ; instrumented: runs whole once its executions were checked
// OFF: whole-loop-counted.cu:[[#@LINE-11]]:5: remark: launch of 'step(float*, float const*, int, int)'

// A host store to a global each iteration: refused (and not batchable).
void host_store(float *a, float *b, int steps, int n) {
  for (int t = 0; t < steps; ++t) {
    step<<<n / 256, 256>>>(b, a, t, n);
    copyback<<<n / 256, 256>>>(a, b, n);
    g_progress = t;
  }
}
// REMARK: whole-loop-counted.cu:[[#@LINE-6]]:3: remark: loop (lines [[#@LINE-6]]-[[#@LINE-2]]) not a whole-loop candidate: host store to escaping memory (store to 'g_progress') at whole-loop-counted.cu:[[#@LINE-3]]

// A call of a function with unknown effects: refused.
void unknown_call(float *a, float *b, int steps, int n) {
  for (int t = 0; t < steps; ++t) {
    step<<<n / 256, 256>>>(b, a, t, n);
    copyback<<<n / 256, 256>>>(a, b, n);
    progress(t);
  }
}
// REMARK: whole-loop-counted.cu:[[#@LINE-6]]:3: remark: loop (lines [[#@LINE-6]]-[[#@LINE-2]]) not a whole-loop candidate: call with effects 'progress(int)' at whole-loop-counted.cu:[[#@LINE-3]]

// An exit test between the two launches: refused (a WHILE body's tests are
// made at the top or the end of an iteration only).
void exit_between(float *a, float *b, int steps, int n) {
  for (int t = 0;;) {
    step<<<n / 256, 256>>>(b, a, t, n);
    if (++t >= steps)
      break;
    copyback<<<n / 256, 256>>>(a, b, n);
  }
}
// REMARK: whole-loop-counted.cu:[[#@LINE-7]]:3: remark: loop (lines [[#@LINE-7]]-[[#@LINE-2]]) not a whole-loop candidate: exit test at whole-loop-counted.cu:[[#@LINE-5]] between two operations of the iteration

// The descriptor: n_ops 2, status_op -1 (none), status_copy 3 (none),
// 0 bytes, no line, status_dest -1, 3 invariants.
// IR: @.pygraph.whole_loop = private constant {{.*}} { ptr null, i32 {{[0-9]+}}, i32 {{[0-9]+}}, i32 0, i32 2, i32 -1, i32 3, i32 0, i32 0, i32 -1, i64 0, i32 3,
// IR-LABEL: define {{.*}} @_Z8pingpongPfS_ii(
// IR: call void @__pygraph_region_loop_enter(ptr [[REGION:@.pygraph.region[.0-9]*]],
// IR: call void @__pygraph_whole_loop_enter(ptr [[REGION]], ptr [[WL:@.pygraph.whole_loop[.0-9]*]], ptr
// The exit: the pointer returned recomputed where the runtime left; the
// batch's exit, then the whole loop's.
// IR: [[EXIT:[0-9]+]]:
// IR-NEXT: phi ptr [ %{{[0-9]+}}, %{{[0-9]+}} ], [ [[OUT:%[0-9]+]], %[[LEFT0:[0-9]+]] ]
// IR-NEXT: call void @__pygraph_region_exit(ptr [[REGION]])
// IR-NEXT: call void @__pygraph_whole_loop_exit(ptr [[REGION]], ptr [[WL]], i64 1)
// IR: call i32 @__pygraph_whole_loop_try(ptr [[REGION]], ptr [[WL]], ptr
// IR-NEXT: switch i32 %{{[0-9]+}}, label %[[ITER:[0-9]+]] [
// IR-NEXT: i32 0, label %[[LEFT0]]
// IR: [[ITER]]:
// IR-NEXT: call void @__pygraph_region_begin(ptr [[REGION]], i32 0)
// a is member (1 + i) % 2 of {a, b} where the loop leaves in iteration i
// IR: [[LEFT0]]:
// IR-NEXT: [[I:%[^ ]+]] = load i64
// IR-NEXT: [[P:%[0-9]+]] = add i64 [[I]], 1
// IR-NEXT: [[R:%[0-9]+]] = urem i64 [[P]], 2
// IR-NEXT: [[IS1:%[0-9]+]] = icmp eq i64 [[R]], 1
// IR-NEXT: [[OUT]] = select i1 [[IS1]], ptr %1, ptr %0
// IR-NEXT: br label %[[EXIT]]
// The refused loops carry nothing of the protocol.
// IR-LABEL: define {{.*}} @_Z10host_storePfS_ii(
// IR-NOT: __pygraph_whole_loop_
// IR-LABEL: define {{.*}} @_Z12unknown_callPfS_ii(
// IR-NOT: __pygraph_whole_loop_
// IR: }

// DEFAULT: @.pygraph.region = internal global {{.*}} ptr @.pygraph.whole_loop }
// DEFAULT: call void @__pygraph_region_loop_enter(
// DEFAULT: call void @__pygraph_region_exit(
// NONE: @.pygraph.region = internal global {{.*}} ptr null }
// NONE: call void @__pygraph_region_loop_enter(
// NONE: call void @__pygraph_region_exit(
