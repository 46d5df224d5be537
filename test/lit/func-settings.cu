// cudaFuncSetAttribute and cudaFuncSetCacheConfig inside a loop join the
// region of the launches around them: routed to the runtime, which makes
// them at once (a kernel setting touches no stream) and flushes first only
// when a launch of that kernel deferred earlier in the iteration would see
// a changed setting (runtime/src/abi/record.h).  The usual shape: raise a
// kernel's dynamic shared memory limit right before launching it.
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O2
// At -O0 the calls sit in the header's template wrappers (called from the
// loop, not inside it), routed there.
// RUN: %cuda_host -O0 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <cuda_runtime.h>
__global__ void big(float *p, int i) {}
__global__ void k2(float *p) {}

void raise_then_launch(float *p, int smem, int n) {
  for (int i = 0; i < n; ++i) {
    cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    // O2-DAG: func-settings.cu:[[@LINE-1]]:5: remark: cudaFuncSetAttribute inside a loop: made at once in a region (a launch of the kernel deferred before it runs first when the setting changes)
    big<<<1, 32, smem>>>(p, i);
    // CHECK-DAG: func-settings.cu:[[@LINE-1]]:5: remark: formed graph region in 'raise_then_launch(float*, int, int)': loop iteration (lines [[#@LINE-4]]-[[#@LINE+5]]), 2 launch sites
    // CHECK-DAG: func-settings.cu:[[@LINE-2]]:5: remark: batchable loop (lines [[#@LINE-5]]-[[#@LINE+4]]): up to 32 iterations per graph
    cudaFuncSetCacheConfig(k2, cudaFuncCachePreferL1);
    // O2-DAG: func-settings.cu:[[@LINE-1]]:5: remark: cudaFuncSetCacheConfig inside a loop: made at once in a region (a launch of the kernel deferred before it runs first when the setting changes)
    k2<<<1, 32>>>(p);
  }
}
// IR-LABEL: define {{.*}}@_Z17raise_then_launchPfii(
// IR: call {{.*}}i32 @__pygraph_cudaFuncSetAttribute(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}@_Z18__device_stub__bigPfi, i32 8, i32
// IR: call {{.*}}i32 @__pygraph_cudaFuncSetCacheConfig(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}@_Z17__device_stub__k2Pf, i32 2)
// IR-NOT: call {{.*}}@cudaFuncSet
