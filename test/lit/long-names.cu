// Remarks print names of any length in full: a kernel of a 32-deep nested
// template type has a name of more than 512 bytes (remark texts were cut
// at 512).
// (batch=0: batched, the one-launch loop would form a region)
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-batch=0 -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANALYSIS
#include <cuda_runtime.h>
template <typename T> struct LongWrapperName { T value; };
#define W2(x) LongWrapperName<LongWrapperName<x>>
#define W8(x) W2(W2(W2(W2(x))))
#define W32(x) W8(W8(W8(W8(x))))
template <typename T> __global__ void k(T *p) {}

void once(W32(int) *p, int n) {
  for (int i = 0; i < n; ++i)
    k<<<1, 32>>>(p);
}
// The name is 1105 bytes; both remarks end after it with their usual text.
// CHECK: remark: launch of 'void k<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<int>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>(LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<int>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>*)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier; a graph region needs at least 2 (min-launches)
// ANALYSIS: remark: launch of 'void k<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<int>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>(LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<LongWrapperName<int>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>>*)' grid=(1,1,1) block=(32,1,1) shmem=0 stream=default
