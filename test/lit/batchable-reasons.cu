// Loops that are not batchable stay loop regions (kind 0, batch_max 0, no
// loop_enter/exit), and -Rpass-analysis says why, at the instruction that
// keeps each one from batching.  A loop of one launch that is not batchable
// stays eager, and its missed remark says why too.
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR --implicit-check-not=__pygraph_region_loop_enter --implicit-check-not=__pygraph_region_exit
// RUN: %cuda_host -O0 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR --implicit-check-not=__pygraph_region_loop_enter --implicit-check-not=__pygraph_region_exit
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSED
#include <cuda_runtime.h>
#include <iostream>
__global__ void k(float *p, int i) {}
__global__ void k2(float *p) {}

// Every loop below forms a region of kind 0 (loop iteration), batch_max 0.
// IR-COUNT-9: @.pygraph.region{{[.0-9]*}} = internal global {{.*}} { i32 4, i32 0, i32 1, i32 2, {{.*}}, i32 0, ptr null, ptr {{.*}} }
// IR-NOT: @.pygraph.region{{[.0-9]*}} = internal global

int progress;
void store_global(float *p, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, r);
    k2<<<4, 128>>>(p);
    progress = r;
    // CHECK: batchable-reasons.cu:[[@LINE-1]]:14: remark: loop (lines [[#@LINE-4]]-[[#@LINE+2]]) not batchable: stores to memory a kernel may read (store to 'progress')
    // O0: batchable-reasons.cu:[[@LINE-2]]:14: remark: loop (lines [[#@LINE-5]]-[[#@LINE+1]]) not batchable: stores to memory a kernel may read (store to 'progress')
  }
}

// A pointer parameter may point to memory a kernel reads (pinned, managed).
void store_param(float *p, int *done, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, r);
    k2<<<4, 128>>>(p);
    *done = r;
    // CHECK: batchable-reasons.cu:[[@LINE-1]]:11: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: stores to memory a kernel may read (store through a pointer parameter)
    // at -O0 the parameter is reloaded from its stack slot
    // O0: batchable-reasons.cu:[[@LINE-3]]:11: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: stores to memory a kernel may read (store through a pointer)
  }
}

// A local whose address was given away (here before the loop, to a
// function of another file) is no private stack slot.
void keep_watching(int *slot);
void escaped_local(float *p, int repeat) {
  int current = 0;
  keep_watching(&current);
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, r);
    k2<<<4, 128>>>(p);
    current = r;
    // CHECK: batchable-reasons.cu:[[@LINE-1]]:13: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: stores to memory a kernel may read (store to a local variable whose address escapes)
    // O0: batchable-reasons.cu:[[@LINE-2]]:13: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: stores to memory a kernel may read (store to a local variable whose address escapes)
  }
}

// A barrier splits the loop into segments: it is no batch.
void copy_back(float *p, float *h, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, r);
    k2<<<4, 128>>>(p);
    cudaMemcpy(h, p, 4, cudaMemcpyDeviceToHost);
    // CHECK: batchable-reasons.cu:[[@LINE-1]]:5: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: barrier 'cudaMemcpy' in the loop
    // O0: batchable-reasons.cu:[[@LINE-2]]:5: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: barrier 'cudaMemcpy' in the loop
  }
}

// Callees follow the same rules, judged once however many loops call them.
int calls_made;
__attribute__((noinline)) void count_call() { calls_made++; }
void callee_stores(float *p, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, r);
    k2<<<4, 128>>>(p);
    count_call();
    // CHECK: batchable-reasons.cu:[[@LINE-1]]:5: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: calls 'count_call()', which may write memory a kernel reads (store to 'calls_made' at batchable-reasons.cu:[[#@LINE-6]])
    // O0: batchable-reasons.cu:[[@LINE-2]]:5: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: calls 'count_call()', which may write memory a kernel reads (store to 'calls_made' at batchable-reasons.cu:[[#@LINE-7]])
  }
}

__attribute__((noinline)) int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
void callee_recursive(float *p, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, fib(r));
    // CHECK: batchable-reasons.cu:[[@LINE-1]]:22: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: calls 'fib(int)', which is recursive (call of 'fib(int)' at batchable-reasons.cu:[[#@LINE-4]])
    // O0: batchable-reasons.cu:[[@LINE-2]]:22: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: calls 'fib(int)', which is recursive (call of 'fib(int)' at batchable-reasons.cu:[[#@LINE-5]])
    k2<<<4, 128>>>(p);
  }
}

// A volatile read of memory a kernel may write (not deciding the loop's
// exit, so no wait): a batch would read it before the kernels ran.
void volatile_read(float *p, volatile int *level, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, *level);
    // CHECK: batchable-reasons.cu:[[@LINE-1]]:22: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: volatile load of memory a kernel may write
    // O0: batchable-reasons.cu:[[@LINE-2]]:22: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: volatile load of memory a kernel may write
    k2<<<4, 128>>>(p);
  }
}

// iostream output is no barrier, but it may throw, and a call (not an
// invoke) that throws would leave the loop without its exit.
void may_throw(float *p, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, r);
    k2<<<4, 128>>>(p);
    std::cout << r;
    // CHECK: batchable-reasons.cu:[[@LINE-1]]:15: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: 'std::ostream::operator<<(int)' may throw
    // O0: batchable-reasons.cu:[[@LINE-2]]:15: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: 'std::ostream::operator<<(int)' may throw
  }
}

// A callee that is neither nounwind nor free of throwing calls.
void log_step(int r) { std::cout << r; }
void callee_may_throw(float *p, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, r);
    k2<<<4, 128>>>(p);
    log_step(r);
    // O0: batchable-reasons.cu:[[@LINE-1]]:5: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not batchable: 'log_step(int)' may throw
  }
}

// One launch, not batchable: eager, and the missed remark says why.
void one_launch_stores(float *p, int repeat) {
  for (int r = 0; r < repeat; r++) {
    k<<<4, 128>>>(p, r);
    // MISSED: batchable-reasons.cu:[[@LINE-1]]:5: remark: launch of 'k(float*, int)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier; a graph region needs at least 2 (min-launches); loop not batchable: stores to memory a kernel may read (store to 'progress') [not-batchable] [-Rpass-missed=pygraph]
    progress = r;
  }
}
