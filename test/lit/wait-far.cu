// How far a read's value is followed has no limit (pass/core/wait_loops.c):
// a volatile read whose value reaches a thousand values and no loop exit is
// no wait, and one whose value decides the exit after as many is a wait.
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
#include <cuda_runtime.h>
__global__ void produce(volatile int *flag, int v) { *flag = v; }
__global__ void consume(float *x) {}
int sink[1024];

// 1024 distinct uses of v (each an xor with its own constant, stored).
#define USE(v) sink[__COUNTER__ & 1023] = (v) ^ __COUNTER__;
#define USE8(v) USE(v) USE(v) USE(v) USE(v) USE(v) USE(v) USE(v) USE(v)
#define USE64(v) USE8(v) USE8(v) USE8(v) USE8(v) USE8(v) USE8(v) USE8(v) USE8(v)
#define USE1024(v) USE64(v) USE64(v) USE64(v) USE64(v) USE64(v) USE64(v) USE64(v) USE64(v) \
                   USE64(v) USE64(v) USE64(v) USE64(v) USE64(v) USE64(v) USE64(v) USE64(v)

void far_no_exit(volatile int *flag, float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    consume<<<1, 1>>>(x);
    int v = *flag;
    USE1024(v)
    consume<<<1, 1>>>(x);
  }
}
// CHECK-DAG: remark: formed graph region in 'far_no_exit(int volatile*, float*, int)': loop iteration {{.*}}, 2 launch sites

void far_then_exit(volatile int *flag, float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 1>>>(flag, i);
    int v;
    do {
      v = *flag;
      USE1024(v)
    } while (v != i);
    consume<<<1, 1>>>(x);
    // CHECK-DAG: wait-far.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after volatile load deciding a loop exit (the host may wait for a kernel) at wait-far.cu:[[#@LINE-4]]
  }
}
