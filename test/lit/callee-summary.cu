// Launches in functions the loop calls (several levels down) belong to the
// loop's region; a callee that synchronizes somewhere below is a barrier, and
// the remark names the synchronizing call.
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
#include <cuda_runtime.h>
__global__ void k(float *p) {}

static void leaf(float *p) { k<<<1, 32>>>(p); }
static void middle(float *p) { leaf(p); leaf(p); }
static void syncs(float *p) { cudaDeviceSynchronize(); }
static void outer_sync(float *p) { syncs(p); }

void launch_only(float *p, int n) {
  for (int i = 0; i < n; ++i)
    middle(p);
  // CHECK: callee-summary.cu:[[@LINE-1]]:5: remark: formed graph region in 'launch_only(float*, int)': loop iteration (lines [[#@LINE-2]]-[[#@LINE-1]]), 2 launch sites
}

void with_sync(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p);
    outer_sync(p);
    k<<<1, 32>>>(p);
  }
  // CHECK: callee-summary.cu:[[@LINE-4]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier
  // CHECK: callee-summary.cu:[[@LINE-3]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after call of 'outer_sync(float*)' at callee-summary.cu:[[#@LINE-4]], which may synchronize (cudaDeviceSynchronize synchronizes at callee-summary.cu:10)
}
// The leaf's own launch is covered: it runs inside launch_only's region.
// CHECK-NOT: callee-summary.cu:8:{{.*}}stays eager
