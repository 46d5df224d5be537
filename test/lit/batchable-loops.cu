// A loop without barriers whose host code writes only private stack slots is
// batchable: its region (kind 2, batch_max = batch=N) is entered in the
// preheader with the most iterations it will run (-1: unknown), begins and
// ends each iteration as a loop region does, and is left through
// __pygraph_region_exit at the top of every exit block (break, return, a
// noreturn call), where the runtime runs what is still deferred.  One launch
// is enough (min-launches applies to loops that are not batchable).
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -S -emit-llvm %s -o - | opt -passes=verify -disable-output
// RUN: %cuda_host -O0 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -S -emit-llvm %s -o - | opt -passes=verify -disable-output
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,REMARK-O2
// RUN: %cuda_host -O0 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass=pygraph -Rpass-missed=pygraph -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REMARK,REMARK-O0
// batch=0: loop regions as before batching; batch=8: at most 8 per graph.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-batch=0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF --implicit-check-not=__pygraph_region_loop_enter --implicit-check-not=__pygraph_region_exit
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-batch=0 -Rpass=pygraph -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFFREMARK
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-batch=8 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=B8
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-batch=8 -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=B8REMARK
#include <cuda_runtime.h>
#include <stdlib.h>
#include <utility>
__global__ void k(float *p, int i) {}
__global__ void k2(float *p) {}

// Descriptors: abi 2, kind 2 (batch), 1 segment, launch sites, function,
// file, lines, trip count (constant, else -1), batch_max 32.  Counted loops
// whose operands the pass follows also point to a whole-loop descriptor
// (whole-loops=1, the default: described, not instrumented).
// CHECK: [[CONST:@.pygraph.region[.0-9]*]] = internal global { i32, i32, i32, i32, ptr, ptr, i32, i32, i64, i32, ptr, ptr } { i32 4, i32 2, i32 1, i32 1, ptr @.pygraph.str{{[.0-9]*}}, ptr @.pygraph.str{{[.0-9]*}}, i32 45, i32 46, i64 100, i32 32, ptr null, ptr @.pygraph.whole_loop{{[.0-9]*}} }
// CHECK: [[RUNTIME:@.pygraph.region[.0-9]*]] = internal global {{.*}} { i32 4, i32 2, i32 1, i32 1, {{.*}}, i64 -1, i32 32, ptr null, ptr @.pygraph.whole_loop{{[.0-9]*}} }
// CHECK: [[FLAG:@.pygraph.region[.0-9]*]] = internal global {{.*}} { i32 4, i32 2, i32 1, i32 1, {{.*}}, i64 -1, i32 32, ptr null, ptr null }
// CHECK: [[BREAK:@.pygraph.region[.0-9]*]] = internal global {{.*}} { i32 4, i32 2, i32 1, i32 1, {{.*}}, i64 -1, i32 32, ptr null, ptr null }
// CHECK: [[RETURN:@.pygraph.region[.0-9]*]] = internal global {{.*}} { i32 4, i32 2, i32 1, i32 1, {{.*}}, i64 -1, i32 32, ptr null, ptr null }
// CHECK: [[EXIT:@.pygraph.region[.0-9]*]] = internal global {{.*}} { i32 4, i32 2, i32 1, i32 1, {{.*}}, i64 -1, i32 32, ptr null, ptr null }
// CHECK: [[TWO:@.pygraph.region[.0-9]*]] = internal global {{.*}} { i32 4, i32 2, i32 1, i32 2, {{.*}}, i64 -1, i32 32, ptr null, ptr @.pygraph.whole_loop{{[.0-9]*}} }
// CHECK: [[PINGPONG:@.pygraph.region[.0-9]*]] = internal global {{.*}} { i32 4, i32 2, i32 1, i32 1, {{.*}}, i64 -1, i32 32, ptr null, ptr null }
// B8: @.pygraph.region{{[.0-9]*}} = internal global {{.*}} { i32 4, i32 2, i32 1, i32 1, {{.*}}, i64 100, i32 8, ptr null, ptr @.pygraph.whole_loop }
// B8-NOT: i32 32, ptr null }
// OFF-NOT: internal global {{.*}} { i32 3, i32 2,
// One region with batch=0: two_launches, a loop region (kind 0) as before.
// OFF: @.pygraph.region = internal global {{.*}} { i32 4, i32 0, i32 1, i32 2, {{.*}}, i64 -1, i32 0, ptr null, ptr @.pygraph.whole_loop }
// OFF-NOT: @.pygraph.region.{{[0-9]+}} =

void constant_trips(float *p) {
  for (int r = 0; r < 100; r++)
    k<<<4, 128>>>(p, r);
  // REMARK: batchable-loops.cu:[[@LINE-1]]:5: remark: formed graph region in 'constant_trips(float*)': loop iteration (lines [[#@LINE-2]]-[[#@LINE-1]]), 1 launch site
  // REMARK: batchable-loops.cu:[[@LINE-2]]:5: remark: batchable loop (lines [[#@LINE-3]]-[[#@LINE-2]]): up to 32 iterations per graph
  // B8REMARK: batchable-loops.cu:[[@LINE-3]]:5: remark: batchable loop (lines [[#@LINE-4]]-[[#@LINE-3]]): up to 8 iterations per graph
  // OFFREMARK-NOT: {{remark: batchable loop|not batchable}}
}
// CHECK-LABEL: define {{.*}}void @_Z14constant_tripsPf(
// CHECK:       call void @__pygraph_region_loop_enter(ptr [[CONST]], i64 100)
// CHECK-NEXT:  br label %[[HEAD:[0-9]+]]
// CHECK:       {{^}}[[OUT:[0-9]+]]:
// CHECK-NEXT:  call void @__pygraph_region_exit(ptr [[CONST]])
// CHECK-NEXT:  ret void
// CHECK:       {{^}}[[HEAD]]:
// CHECK-NEXT:  phi i32
// CHECK-NEXT:  call void @__pygraph_region_begin(ptr [[CONST]], i32 0)
// CHECK:       call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{[.0-9]*}}, ptr @_Z16__device_stub__kPfi,
// CHECK:       call void @__pygraph_region_end(ptr [[CONST]])
// CHECK-NEXT:  br i1 %{{[0-9]+}}, label %[[OUT]], label %[[HEAD]]
// CHECK-NOT:   @__pygraph_region
// CHECK:       {{^}$}}
// O0-LABEL: define {{.*}}void @_Z14constant_tripsPf(
// O0:       call void @__pygraph_region_loop_enter(ptr @.pygraph.region{{[.0-9]*}}, i64 -1)
// O0-NEXT:  br label
// O0:       call void @__pygraph_region_begin(
// O0:       call void @_Z16__device_stub__kPfi(
// O0:       call void @__pygraph_region_end(
// O0:       call void @__pygraph_region_exit(
// O0-NEXT:  ret void

// The trip count from the preheader: the loop runs `repeat` times once entered.
void runtime_trips(float *p, int repeat) {
  for (int r = 0; r < repeat; r++)
    k<<<4, 128>>>(p, r);
  // REMARK: batchable-loops.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-2]]-[[#@LINE-1]]): up to 32 iterations per graph
}
// CHECK-LABEL: define {{.*}}void @_Z13runtime_tripsPfi(
// CHECK:       [[N:%[0-9]+]] = zext i32 %1 to i64
// CHECK-NEXT:  call void @__pygraph_region_loop_enter(ptr [[RUNTIME]], i64 [[N]])
// CHECK:       call void @__pygraph_region_exit(ptr [[RUNTIME]])
// CHECK:       call void @__pygraph_region_begin(ptr [[RUNTIME]], i32 0)
// CHECK:       call void @__pygraph_region_end(ptr [[RUNTIME]])
// CHECK-NEXT:  br i1

// ScalarEvolution cannot count this one: -1.
void until_flag(float *p, const int *stop) {
  for (int r = 0; !stop[r]; r++)
    k<<<4, 128>>>(p, r);
  // REMARK: batchable-loops.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-2]]-[[#@LINE-1]]): up to 32 iterations per graph
}
// CHECK-LABEL: define {{.*}}void @_Z10until_flagPfPKi(
// CHECK:       call void @__pygraph_region_loop_enter(ptr [[FLAG]], i64 -1)
// CHECK:       call void @__pygraph_region_exit(ptr [[FLAG]])

// break: -O2 folds it into the latch's exit; -O0 leaves two exit blocks.
// With an early exit the value is the most iterations: `repeat`.
void with_break(float *p, const int *stop, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, r);
    if (stop[r])
      break;
  }
  // REMARK: batchable-loops.cu:[[@LINE-4]]:5: remark: batchable loop (lines [[#@LINE-5]]-[[#@LINE-1]]): up to 32 iterations per graph
}
// CHECK-LABEL: define {{.*}}void @_Z10with_breakPfPKii(
// CHECK:       [[N:%[0-9]+]] = zext nneg i32 %2 to i64
// CHECK-NEXT:  call void @__pygraph_region_loop_enter(ptr [[BREAK]], i64 [[N]])
// CHECK:       call void @__pygraph_region_begin(ptr [[BREAK]], i32 0)
// CHECK:       call void @__pygraph_region_end(ptr [[BREAK]])
// CHECK-NEXT:  br i1 %{{[0-9]+}}, label %[[OUT:[0-9]+]], label
// CHECK:       {{^}}[[OUT]]:
// CHECK-NEXT:  call void @__pygraph_region_exit(ptr [[BREAK]])
// O0-LABEL: define {{.*}}void @_Z10with_breakPfPKii(
// O0:       call void @__pygraph_region_loop_enter(ptr [[O0BREAK:@.pygraph.region[.0-9]*]], i64 -1)
// O0:       call void @__pygraph_region_begin(ptr [[O0BREAK]], i32 0)
// O0:       call void @__pygraph_region_exit(ptr [[O0BREAK]])
// O0-NEXT:  br label %[[JOIN:[0-9]+]]
// O0:       call void @__pygraph_region_end(ptr [[O0BREAK]])
// O0-NEXT:  br label
// O0:       call void @__pygraph_region_exit(ptr [[O0BREAK]])
// O0-NEXT:  br label %[[JOIN]]

// return inside the loop: its block is an exit block too.
int with_return(float *p, const int *stop, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, r);
    if (stop[r])
      return r;
  }
  return -1;
  // REMARK: batchable-loops.cu:[[@LINE-5]]:5: remark: batchable loop (lines [[#@LINE-6]]-[[#@LINE-2]]): up to 32 iterations per graph
}
// CHECK-LABEL: define {{.*}}i32 @_Z11with_returnPfPKii(
// CHECK:       call void @__pygraph_region_loop_enter(ptr [[RETURN]], i64 %{{[0-9]+}})
// CHECK:       call void @__pygraph_region_exit(ptr [[RETURN]])
// CHECK-NEXT:  br label
// CHECK:       ret i32
// O0-LABEL: define {{.*}}i32 @_Z11with_returnPfPKii(
// O0:       call void @__pygraph_region_loop_enter(ptr [[O0RET:@.pygraph.region[.0-9]*]], i64 -1)
// the `return r` block: exit, then r is stored to the return slot
// O0:       call void @__pygraph_region_exit(ptr [[O0RET]])
// O0-NEXT:  load i32
// O0-NEXT:  store i32
// O0:       call void @__pygraph_region_end(ptr [[O0RET]])
// O0:       call void @__pygraph_region_exit(ptr [[O0RET]])
// O0-NEXT:  store i32 -1

// exit(1) ends the program: its block (ending in unreachable) is left
// through region_exit before the call.
void with_exit(float *p, const int *err, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, r);
    if (err[r])
      exit(1);
  }
  // REMARK: batchable-loops.cu:[[@LINE-4]]:5: remark: batchable loop (lines [[#@LINE-5]]-[[#@LINE-1]]): up to 32 iterations per graph
}
// CHECK-LABEL: define {{.*}}void @_Z9with_exitPfPKii(
// CHECK:       call void @__pygraph_region_loop_enter(ptr [[EXIT]], i64 %{{[0-9]+}})
// CHECK:       call void @__pygraph_region_exit(ptr [[EXIT]])
// CHECK-NEXT:  br label
// CHECK:       call void @__pygraph_region_begin(ptr [[EXIT]], i32 0)
// CHECK:       call void @__pygraph_region_exit(ptr [[EXIT]])
// CHECK-NEXT:  call void @exit(i32 noundef 1)
// CHECK-NEXT:  unreachable
// O0-LABEL: define {{.*}}void @_Z9with_exitPfPKii(
// O0:       call void @__pygraph_region_exit(
// O0-NEXT:  call void @exit(i32 noundef 1)

// Two launches (a loop region without batching) are batchable as well.
void two_launches(float *p, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, r);
    k2<<<4, 128>>>(p);
  }
  // REMARK: batchable-loops.cu:[[@LINE-3]]:5: remark: formed graph region in 'two_launches(float*, int)': loop iteration (lines [[#@LINE-4]]-[[#@LINE-1]]), 2 launch sites
  // REMARK: batchable-loops.cu:[[@LINE-4]]:5: remark: batchable loop (lines [[#@LINE-5]]-[[#@LINE-2]]): up to 32 iterations per graph
  // REMARK-NOT: stays eager
  // OFFREMARK: batchable-loops.cu:[[@LINE-6]]:5: remark: formed graph region in 'two_launches(float*, int)': loop iteration
  // OFFREMARK-NOT: {{remark: batchable loop|not batchable}}
}
// CHECK-LABEL: define {{.*}}void @_Z12two_launchesPfi(
// CHECK:       call void @__pygraph_region_loop_enter(ptr [[TWO]], i64 %{{[0-9]+}})
// CHECK:       call void @__pygraph_region_exit(ptr [[TWO]])
// CHECK:       call void @__pygraph_region_begin(ptr [[TWO]], i32 0)
// CHECK:       call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{[.0-9]*}}, ptr @_Z16__device_stub__kPfi,
// CHECK:       call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{[.0-9]*}}, ptr @_Z17__device_stub__k2Pf,
// CHECK:       call void @__pygraph_region_end(ptr [[TWO]])
// OFF-LABEL: define {{.*}}void @_Z12two_launchesPfi(
// the exit block ends it (region_end, not exit), the latch ends each iteration
// OFF:       call void @__pygraph_region_end(ptr @.pygraph.region)
// OFF-NEXT:  br label
// OFF:       call void @__pygraph_region_begin(ptr @.pygraph.region, i32 0)
// OFF:       call void @__pygraph_region_end(ptr @.pygraph.region)
// OFF-NEXT:  br i1

// Buffers allocated through cudaMalloc(&p) and swapped every iteration: at
// -O2 the swap is a pair of phis, and cudaMalloc, done with &p when it
// returns, is no escape.  At -O0 std::swap is a call writing through its
// reference parameters, which the pass does not follow: not batchable.
void ping_pong(int n, int repeat) {
  float *a, *b;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  for (int r = 0; r < repeat; r++) {
    k2<<<4, 128>>>(a);
    std::swap(a, b);
  }
  // REMARK-O2: batchable-loops.cu:[[@LINE-3]]:5: remark: batchable loop (lines [[#@LINE-4]]-[[#@LINE-1]]): up to 32 iterations per graph
  // REMARK-O0: batchable-loops.cu:{{[0-9]+}}:{{[0-9]+}}: remark: loop (lines [[#@LINE-5]]-[[#@LINE-2]]) not batchable: calls '{{.*}}std::swap<float*>(float*&, float*&)', which may write memory a kernel reads (store through a pointer at {{.*}})
  cudaFree(a);
  cudaFree(b);
}
// CHECK-LABEL: define {{.*}}void @_Z9ping_pongii(
// CHECK:       call void @__pygraph_region_loop_enter(ptr [[PINGPONG]], i64 %{{[0-9]+}})
// CHECK:       call void @__pygraph_region_begin(ptr [[PINGPONG]], i32 0)
// CHECK:       declare void @__pygraph_region_loop_enter(ptr, i64)
