// Every launch left eager gets a -Rpass-missed remark with the reason; every
// region formed gets a -Rpass remark.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-straight-line=0 -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSTRAIGHT
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-allow=opaque -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALLOW
#include <cuda_runtime.h>
__global__ void k(float *p) {}
extern void opaque(float *);
extern void (*hook)(void);

void one_per_iteration(float *p, int n) {
  for (int i = 0; i < n; ++i)
    k<<<1, 32>>>(p);
  // NOBATCH: region-missed.cu:[[@LINE-1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier; a graph region needs at least 2 (min-launches) [alone] [-Rpass-missed=pygraph]
}

void split_by_copy(float *p, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p);
    k<<<1, 32>>>(p);
    // PASS: region-missed.cu:[[@LINE-2]]:5: remark: formed graph region in 'split_by_copy(float*, float*, int)': loop iteration (lines 19-26), 2 launch sites
    cudaMemcpy(h, p, 4, cudaMemcpyDeviceToHost);
    k<<<1, 32>>>(p);
    // CHECK: region-missed.cu:[[@LINE-1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after cudaMemcpy synchronizes (a device-to-host copy) at region-missed.cu:[[@LINE-2]] before the next barrier
  }
}

void unknown_call(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p);
    opaque(p);
    k<<<1, 32>>>(p);
    // CHECK: region-missed.cu:[[@LINE-3]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier (external call 'opaque(float*)' at region-missed.cu:[[@LINE-2]], which may synchronize (if it does not, add -fplugin-arg-pygraph-allow=opaque)); a graph region needs at least 2 (min-launches) [external-call]
    // CHECK: region-missed.cu:[[@LINE-2]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after external call 'opaque(float*)' at region-missed.cu:[[@LINE-3]], which may synchronize (if it does not, add -fplugin-arg-pygraph-allow=opaque) before the next barrier; a graph region needs at least 2 (min-launches) [external-call]
  }
}
// ALLOW: remark: formed graph region in 'unknown_call(float*, int)': loop iteration (lines 30-36), 2 launch sites

void indirect_call(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p);
    hook();
    k<<<1, 32>>>(p);
    // CHECK: region-missed.cu:[[@LINE-1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after indirect call at region-missed.cu:[[@LINE-2]]
  }
}

void straight(float *p) {
  k<<<1, 32>>>(p);
  k<<<1, 32>>>(p);
  k<<<1, 32>>>(p);
  // PASS: region-missed.cu:[[@LINE-3]]:3: remark: formed graph region in 'straight(float*)': straight-line run, 3 launch sites
  // NOSTRAIGHT: region-missed.cu:[[@LINE-4]]:3: remark: launch of 'k(float*)' stays eager: launch outside loops stays eager (straight-line=0)
}

// A loop of one launch and nothing else is batchable: a region of one
// launch site, many iterations per graph.  With batch=0 it stays eager, as
// before batching, and the remark says no more than it did then.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-batch=0 -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOBATCH
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BATCH
// BATCH: region-missed.cu:14:5: remark: formed graph region in 'one_per_iteration(float*, int)': loop iteration (lines 13-14), 1 launch site
// BATCH: region-missed.cu:14:5: remark: batchable loop (lines 13-14): up to 32 iterations per graph
// BATCH-NOT: region-missed.cu:14:5: remark: launch of
