// Several devices driven from one thread (issue 20): cudaSetDevice inside a
// loop of launches is routed to __pygraph_cudaSetDevice and does not end
// the region (the runtime records each device's launches in a graph state
// of that device: runtime/src/abi/devices.h).  It keeps a loop from
// batching (one iteration per graph) and from running whole; outside
// regions it is routed too, so that the runtime knows a device changed.
// The driver API's context calls stay barriers.
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void step(float *p, int i) {}
__global__ void scale(float *p) {}

// The usual shape: each iteration sets each device, then launches on its
// stream.
void loop_over_devices(float **p, cudaStream_t *s, int ndev, int n) {
  for (int i = 0; i < n; ++i) {
    for (int d = 0; d < 2; ++d) {
      cudaSetDevice(d);
      // CHECK-DAG: multi-device.cu:[[@LINE-1]]:7: remark: cudaSetDevice inside a loop: made at once in a region (the launches after it are recorded in a graph state of the device it sets)
      step<<<1, 32, 0, s[d]>>>(p[d], i);
      // CHECK-DAG: multi-device.cu:[[@LINE-1]]:7: remark: formed graph region in 'loop_over_devices(float**, CUstream_st**, int, int)': loop iteration (lines [[#@LINE-5]]-[[#@LINE+3]]), 4 launch sites
      scale<<<1, 32, 0, s[d]>>>(p[d]);
    }
  }
}
// O0: remark: formed graph region in 'loop_over_devices(float**, CUstream_st**, int, int)'

// One launch per device: the loop would batch, but the device change
// keeps it at one iteration per graph.
void one_kernel_per_device(float *a, float *b, int n) {
  for (int i = 0; i < n; ++i) {
    cudaSetDevice(0);
    // CHECK-DAG: multi-device.cu:[[@LINE-1]]:5: remark: loop (lines [[#@LINE-2]]-[[#@LINE+5]]) not batchable: changes the current device (cudaSetDevice)
    step<<<1, 32>>>(a, i);
    // CHECK-DAG: multi-device.cu:[[@LINE-1]]:5: remark: formed graph region in 'one_kernel_per_device(float*, float*, int)': loop iteration (lines [[#@LINE-4]]-[[#@LINE+3]]), 2 launch sites
    cudaSetDevice(1);
    step<<<1, 32>>>(b, i);
  }
}

// The driver API's context change is still a barrier: no region.
void context_change(float *a, CUcontext c, int n) {
  for (int i = 0; i < n; ++i) {
    step<<<1, 32>>>(a, i);
    cuCtxSetCurrent(c);
    // CHECK-DAG: multi-device.cu:[[@LINE-2]]:5: remark: launch of 'step(float*, int)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier (CUDA call 'cuCtxSetCurrent' that pygraph does not know
    step<<<1, 32>>>(a, i);
  }
}

// Outside any loop or region the call is routed too.
void choose(int d) { cudaSetDevice(d); }

// IR-LABEL: define {{.*}}@_Z17loop_over_devicesPPfPP11CUstream_stii(
// IR: call {{.*}}i32 @__pygraph_cudaSetDevice(ptr @.pygraph.site{{[.0-9]*}}, i32
// IR-LABEL: define {{.*}}@_Z14context_changePfP8CUctx_sti(
// IR: call {{.*}}@cuCtxSetCurrent(
// IR-LABEL: define {{.*}}@_Z6choosei(
// IR: call {{.*}}i32 @__pygraph_cudaSetDevice(ptr @.pygraph.site{{[.0-9]*}}, i32 %0)
// IR-NOT: call {{.*}}@cudaSetDevice(
