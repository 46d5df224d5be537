// Each reason a loop is not batchable, beside its positive twin: the same
// shape with the one thing changed that makes it batchable.  A batch runs the
// host part of K iterations before any of their kernels, so the host may
// write only memory no kernel can see, read none a kernel may write, and not
// leave the loop half-way through an exception; a barrier splits the loop.
// (batchable-reasons.cu has stores, escaped locals, recursive callees and
// volatile reads.)
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass=pygraph -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
#include <cuda_runtime.h>
#include <iostream>
#include <stdio.h>
#include <string.h>
__global__ void k(float *p, int i) {}
__global__ void k2(float *p) {}
int counter;
int slot;
char gbuf[64];

// An atomic read-modify-write of memory a kernel may read.
void atomic_rmw_global(float *p, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, r);
    __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: loop (lines [[#@LINE-3]]-[[#@LINE+2]]) not batchable: stores to memory a kernel may read (atomic update to 'counter')
    k2<<<1, 32>>>(p);
  }
}
void atomic_rmw_private(float *p, int n) {
  int local = 0;
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, r);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-2]]-[[#@LINE+3]]): up to 32 iterations per graph
    __atomic_fetch_add(&local, 1, __ATOMIC_RELAXED);
    k2<<<1, 32>>>(p);
  }
}

// A compare-exchange whose result decides nothing (no wait): a write.
void cmpxchg_global(float *p, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, r);
    int expected = 0;
    __atomic_compare_exchange_n(&slot, &expected, r, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: loop (lines [[#@LINE-4]]-[[#@LINE+2]]) not batchable: stores to memory a kernel may read (atomic update to 'slot')
    k2<<<1, 32>>>(p);
  }
}
void cmpxchg_private(float *p, int n) {
  int local = 0;
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, r);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-2]]-[[#@LINE+4]]): up to 32 iterations per graph
    int expected = 0;
    __atomic_compare_exchange_n(&local, &expected, r, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    k2<<<1, 32>>>(p);
  }
}

// memset / memcpy / memmove into memory a kernel may read.
void memset_global(float *p, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, r);
    memset(gbuf, r, sizeof gbuf);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: loop (lines [[#@LINE-3]]-[[#@LINE+2]]) not batchable: stores to memory a kernel may read (memset to 'gbuf')
    k2<<<1, 32>>>(p);
  }
}
void memset_private(float *p, int n) {
  for (int r = 0; r < n; r++) {
    char buf[64];
    memset(buf, r, sizeof buf);
    k<<<1, 32>>>(p, buf[r & 63]);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-4]]-[[#@LINE+2]]): up to 32 iterations per graph
    k2<<<1, 32>>>(p);
  }
}
void memcpy_global(float *p, const char *src, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, r);
    memcpy(gbuf, src + r, sizeof gbuf);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: loop (lines [[#@LINE-3]]-[[#@LINE+2]]) not batchable: stores to memory a kernel may read (memcpy to 'gbuf')
    k2<<<1, 32>>>(p);
  }
}
void memcpy_private(float *p, const char *src, int n) {
  for (int r = 0; r < n; r++) {
    char buf[64];
    memcpy(buf, src + r, sizeof buf);
    k<<<1, 32>>>(p, buf[r & 63]);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-4]]-[[#@LINE+2]]): up to 32 iterations per graph
    k2<<<1, 32>>>(p);
  }
}
void memmove_param(float *p, char *dst, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, r);
    memmove(dst, dst + 1, r);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: loop (lines [[#@LINE-3]]-[[#@LINE+2]]) not batchable: stores to memory a kernel may read (memmove through a {{pointer|pointer parameter}})
    k2<<<1, 32>>>(p);
  }
}
void memmove_private(float *p, int n) {
  for (int r = 0; r < n; r++) {
    char buf[64] = {1};
    memmove(buf + 1, buf, r & 31);
    k<<<1, 32>>>(p, buf[r & 63]);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-4]]-[[#@LINE+2]]): up to 32 iterations per graph
    k2<<<1, 32>>>(p);
  }
}

// An asynchronous copy to the host: a barrier (the host may read the copy),
// so the loop has two segments.  Between two device buffers it is deferred.
void d2h_async(float *p, float *h, cudaStream_t s, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32, 0, s>>>(p, r);
    cudaMemcpyAsync(h, p, 4, cudaMemcpyDeviceToHost, s);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: loop (lines [[#@LINE-3]]-[[#@LINE+2]]) not batchable: barrier 'cudaMemcpyAsync' in the loop
    k2<<<1, 32, 0, s>>>(p);
  }
}
void d2d_async(float *p, float *q, cudaStream_t s, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32, 0, s>>>(p, r);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-2]]-[[#@LINE+3]]): up to 32 iterations per graph
    cudaMemcpyAsync(q, p, 4, cudaMemcpyDeviceToDevice, s);
    k2<<<1, 32, 0, s>>>(p);
  }
}

// An atomic read of memory a kernel may write: the batch would read it
// before the kernels ran.
void atomic_load_global(float *p, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, __atomic_load_n(&counter, __ATOMIC_ACQUIRE));
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:21: remark: loop (lines [[#@LINE-2]]-[[#@LINE+2]]) not batchable: atomic load of memory a kernel may write
    k2<<<1, 32>>>(p);
  }
}
void atomic_load_private(float *p, int n) {
  int local = 3;
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, __atomic_load_n(&local, __ATOMIC_ACQUIRE));
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-2]]-[[#@LINE+2]]): up to 32 iterations per graph
    k2<<<1, 32>>>(p);
  }
}

// A call that may throw (not an invoke): the exception would leave the loop
// with iterations recorded and not run.  Caught inside the loop, or a C call
// that cannot throw, it is batchable.
void may_throw(float *p, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, r);
    std::cout << r;
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:15: remark: loop (lines [[#@LINE-3]]-[[#@LINE+2]]) not batchable: 'std::ostream::operator<<(int)' may throw
    k2<<<1, 32>>>(p);
  }
}
void caught(float *p, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, r);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-2]]-[[#@LINE+6]]): up to 32 iterations per graph
    try {
      std::cout << r;
    } catch (...) {
    }
    k2<<<1, 32>>>(p);
  }
}
void prints(float *p, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, r);
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-2]]-[[#@LINE+3]]): up to 32 iterations per graph
    printf("%d\n", r);
    k2<<<1, 32>>>(p);
  }
}

// A callee judged by the same rules: one that reads memory a kernel may
// write, one that only computes.
__attribute__((noinline)) int peek(volatile int *v) { return *v; }
void callee_reads(float *p, volatile int *v, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, peek(v));
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:21: remark: loop (lines [[#@LINE-2]]-[[#@LINE+2]]) not batchable: calls 'peek(int volatile*)', which may read memory a kernel writes (volatile load at batchable-refusals.cu:[[#@LINE-4]])
    k2<<<1, 32>>>(p);
  }
}
__attribute__((noinline)) int pure_fn(int x) { return x * 3 + 1; }
void callee_pure(float *p, int n) {
  for (int r = 0; r < n; r++) {
    k<<<1, 32>>>(p, pure_fn(r));
    // CHECK-DAG: batchable-refusals.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-2]]-[[#@LINE+2]]): up to 32 iterations per graph
    k2<<<1, 32>>>(p);
  }
}
