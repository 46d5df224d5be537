// A program that builds its own graph each iteration keeps it: launches
// between its cudaStreamBeginCapture and cudaStreamEndCapture stay eager
// (remark naming the begin), and no pygraph region begins inside.
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PASS
// RUN: %cuda_host -O0 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %cuda_host -O0 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IRINV
#include <cuda_runtime.h>
__global__ void even(float *p) {}
__global__ void odd(float *p) {}
__global__ void pre(float *p) {}

int own_graph_loop(float *p, float *h, int n, cudaStream_t s) {
  cudaGraph_t g = nullptr;
  cudaGraphExec_t exec = nullptr;
  int it = 0;
  for (; it < n; ++it) {
    pre<<<1, 32, 0, s>>>(p);
    pre<<<1, 32, 0, s>>>(p);
    cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
    if (it & 1)
      even<<<1, 32, 0, s>>>(p);
    // CHECK-DAG: own-capture.cu:[[@LINE-1]]:7: remark: launch of 'even(float*)' stays eager: inside the program's own stream capture (begun at own-capture.cu:[[@LINE-3]])
    else
      odd<<<1, 32, 0, s>>>(p);
    // CHECK-DAG: own-capture.cu:[[@LINE-1]]:7: remark: launch of 'odd(float*)' stays eager: inside the program's own stream capture (begun at own-capture.cu:[[@LINE-6]])
    even<<<1, 32, 0, s>>>(p);
    // CHECK-DAG: own-capture.cu:[[@LINE-1]]:5: remark: launch of 'even(float*)' stays eager: inside the program's own stream capture
    cudaMemsetAsync(p, 0, 4, s);
    cudaMemcpyAsync(h, p, 4, cudaMemcpyDeviceToHost, s);
    cudaStreamEndCapture(s, &g);
    if (!exec) {
      cudaGraphInstantiate(&exec, g, 0);
    } else {
      cudaGraphExecUpdateResultInfo info;
      if (cudaGraphExecUpdate(exec, g, &info) != cudaSuccess)
        return -1;
    }
    cudaGraphDestroy(g);
    cudaGraphLaunch(exec, s);
    cudaStreamSynchronize(s);
    if (*h > 3.0f)
      break;
  }
  return it;
}
// The two launches before the capture still form a region, ended before it.
// PASS: remark: formed graph region in 'own_graph_loop(float*, float*, int, CUstream_st*)': loop iteration{{.*}}, 2 launch sites

// Helpers of the module: one returns with the capture open, one ends it, and
// a function called in between launches inside the capture.
static void open_capture(cudaStream_t s) { cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal); }
static void close_capture(cudaStream_t s, cudaGraph_t *g) { cudaStreamEndCapture(s, g); }
__attribute__((noinline)) void body(float *p, cudaStream_t s) {
  for (int j = 0; j < 4; ++j) {
    even<<<1, 32, 0, s>>>(p);
    // CHECK-DAG: own-capture.cu:[[@LINE-1]]:5: remark: launch of 'even(float*)' stays eager: inside the program's own stream capture
    odd<<<1, 32, 0, s>>>(p);
    // CHECK-DAG: own-capture.cu:[[@LINE-1]]:5: remark: launch of 'odd(float*)' stays eager: inside the program's own stream capture
  }
}
void helpers(float *p, int n, cudaStream_t s) {
  cudaGraph_t g;
  for (int i = 0; i < n; ++i) {
    open_capture(s);
    body(p, s);
    even<<<1, 32, 0, s>>>(p);
    // CHECK-DAG: own-capture.cu:[[@LINE-1]]:5: remark: launch of 'even(float*)' stays eager: inside the program's own stream capture
    odd<<<1, 32, 0, s>>>(p);
    close_capture(s, &g);
  }
}
// With a cleanup in scope (C++), the capture calls are invokes.
struct Guard { ~Guard(); };
void with_cleanup(float *p, int n, cudaStream_t s) {
  Guard guard;
  cudaGraph_t g;
  for (int i = 0; i < n; ++i) {
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    even<<<1, 32, 0, s>>>(p);
    // CHECK-DAG: own-capture.cu:[[@LINE-1]]:5: remark: launch of 'even(float*)' stays eager: inside the program's own stream capture (begun at own-capture.cu:[[@LINE-2]])
    odd<<<1, 32, 0, s>>>(p);
    // CHECK-DAG: own-capture.cu:[[@LINE-1]]:5: remark: launch of 'odd(float*)' stays eager: inside the program's own stream capture (begun at own-capture.cu:[[@LINE-4]])
    cudaStreamEndCapture(s, &g);
  }
}
// IRINV: invoke {{.*}}@cudaStreamBeginCapture
// PASS-NOT: formed graph region in 'with_cleanup

// PASS-NOT: formed graph region in 'body
// PASS-NOT: formed graph region in 'helpers

// In textual order: no region begins between a begin and its end capture.
// IR-LABEL: define {{.*}}own_graph_loop
// IR: call {{.*}}@cudaStreamBeginCapture
// IR-NOT: __pygraph_region_begin
// IR: call {{.*}}@cudaStreamEndCapture
// IR-LABEL: define {{.*}}body
// IR-NOT: __pygraph_region_begin
// IR-LABEL: define {{.*}}helpers
// IR-NOT: __pygraph_region_begin
// IR: ret void
