// A synchronous host-to-device cudaMemcpy and cudaMemcpyToSymbol read their
// source before they return and only wait for their stream (CUDA's "API
// synchronization behavior"): they join the region of the launches around
// them, routed to the runtime, which reads the bytes at the call (at most
// PYGRAPH_HOST_BYTES_MAX, 4096) and delivers them in stream order.  Each
// shape beside its twin that stays a barrier: a constant size over 4096; a
// file that makes host memory kernels can write (-DHOST_VISIBLE: it calls
// cudaHostAlloc), where the host may read device results the copy's wait
// waited for.  A loop of one launch and such a copy batches (the copy's
// source is read at the call); a convergence loop with one is no
// whole-loop candidate.
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,O2
// RUN: %cuda_host -O0 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// RUN: %cuda_host -O0 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR0
// RUN: %cuda_host -O2 -DCUDA_API_PER_THREAD_DEFAULT_STREAM=1 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=PTDS
// RUN: %cuda_host -O2 -DHOST_VISIBLE -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=VISIBLE
// RUN: %cuda_host -O2 -DHOST_VISIBLE -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=VISIBLE-IR
#include <cuda_runtime.h>
__global__ void k(float *p, int i) {}
__global__ void k2(float *p) {}
struct Params {
  float dt, a, b;
  int step;
};
__constant__ Params c_params;
__device__ float d_scale;

#ifdef HOST_VISIBLE
float *pinned_buffer() {
  float *h;
  cudaHostAlloc(&h, 64, 0);
  return h;
}
#endif

// A small struct written by the host every iteration, copied between two
// launches: one region of both.
void params_join(float *p, Params *d, int n) {
  for (int i = 0; i < n; ++i) {
    Params h = {0.01f * i, 1.0f, 2.0f, i};
    k<<<1, 32>>>(p, i);
    // CHECK-DAG: h2d-snapshot.cu:[[@LINE-1]]:5: remark: formed graph region in 'params_join(float*, Params*, int)': loop iteration (lines [[#@LINE-3]]-[[#@LINE+6]]), 2 launch sites
    cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice);
    // CHECK-DAG: h2d-snapshot.cu:[[@LINE-1]]:5: remark: cudaMemcpy inside a loop reads its host memory at the call: deferred in a region with the bytes read then (at most 4096), a barrier at run time when larger or not from pageable host memory to device memory
    // VISIBLE-DAG: h2d-snapshot.cu:[[@LINE-2]]:5: remark: cudaMemcpy inside a loop synchronizes (a host-to-device copy, and this file calls cudaHostAlloc: host memory kernels can write, which the host may read once the copy has waited for the device)
    k2<<<1, 32>>>(p);
    // VISIBLE-DAG: h2d-snapshot.cu:[[@LINE-1]]:5: remark: launch of 'k2(float*)' stays eager: only 1 launch site after cudaMemcpy synchronizes (a host-to-device copy, and this file calls cudaHostAlloc: host memory kernels can write, which the host may read once the copy has waited for the device) at h2d-snapshot.cu:[[@LINE-4]]
  }
}
// IR-LABEL: define {{.*}}@_Z11params_joinPfP6Paramsi(
// IR: call {{.*}}i32 @__pygraph_cudaMemcpy(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}, ptr {{.*}}, i64 16, i32 1)
// IR-NOT: call {{.*}}@cudaMemcpy(
// PTDS-LABEL: define {{.*}}@_Z11params_joinPfP6Paramsi(
// PTDS: call {{.*}}i32 @__pygraph_cudaMemcpy_ptds(ptr @.pygraph.site{{[.0-9]*}}, ptr
// VISIBLE-IR-LABEL: define {{.*}}@_Z11params_joinPfP6Paramsi(
// VISIBLE-IR-NOT: __pygraph_cudaMemcpy(
// VISIBLE-IR: call {{.*}}i32 @cudaMemcpy(ptr {{.*}}, ptr {{.*}}, i64 noundef 16, i32 noundef 1)

// Into __constant__ and __device__ variables, through cuda_runtime.h's
// templates (at -O0 an out-of-line function whose call of
// cudaMemcpyToSymbol passes the kind as a parameter: the runtime judges it).
void symbols_join(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    Params h = {0.01f * i, 1.0f, 2.0f, i};
    float s = 0.5f * i;
    cudaMemcpyToSymbol(c_params, &h, sizeof h);
    // O2-DAG: h2d-snapshot.cu:[[@LINE-1]]:5: remark: cudaMemcpyToSymbol inside a loop reads its host memory at the call: deferred in a region with the bytes read then (at most 4096), a barrier at run time when larger or not from pageable host memory to device memory
    k<<<1, 32>>>(p, i);
    // CHECK-DAG: h2d-snapshot.cu:[[@LINE-1]]:5: remark: formed graph region in 'symbols_join(float*, int)': loop iteration (lines [[#@LINE-6]]-[[#@LINE+3]]), 2 launch sites
    cudaMemcpyToSymbol(d_scale, &s, sizeof s, 0, cudaMemcpyHostToDevice);
    k2<<<1, 32>>>(p);
  }
}
// IR-LABEL: define {{.*}}@_Z12symbols_joinPfi(
// IR: call {{.*}}i32 @__pygraph_cudaMemcpyToSymbol(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}@c_params, ptr {{.*}}, i64 16, i64 0, i32 1)
// IR: call {{.*}}i32 @__pygraph_cudaMemcpyToSymbol(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}@d_scale, ptr {{.*}}, i64 4, i64 0, i32 1)
// IR-NOT: call {{.*}}@cudaMemcpyToSymbol(
// IR0: call {{.*}}i32 @__pygraph_cudaMemcpyToSymbol(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}, ptr {{.*}}, i64 {{.*}}, i64 {{.*}}, i32 {{.*}})
// IR0-NOT: call {{.*}}@cudaMemcpyToSymbol(
// PTDS-LABEL: define {{.*}}@_Z12symbols_joinPfi(
// PTDS: call {{.*}}i32 @__pygraph_cudaMemcpyToSymbol_ptds(ptr @.pygraph.site{{[.0-9]*}}, ptr

// 4096 bytes: deferred; 4097 (a constant): a barrier that names the limit.
// A size that is no constant: deferred (the runtime checks it).
void sizes(float *p, float *d, const char *big, size_t bytes, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p, i);
    // CHECK-DAG: h2d-snapshot.cu:[[@LINE-1]]:5: remark: formed graph region in 'sizes(float*, float*, char const*, unsigned long, int)': loop iteration (lines [[#@LINE-2]]-[[#@LINE+10]]), part 1 of 2, 3 launch sites
    cudaMemcpy(d, big, 4096, cudaMemcpyHostToDevice);
    k2<<<1, 32>>>(d);
    cudaMemcpy(d, big, bytes, cudaMemcpyHostToDevice);
    k2<<<1, 32>>>(d);
    cudaMemcpy(d, big, 4097, cudaMemcpyHostToDevice);
    // CHECK-DAG: h2d-snapshot.cu:[[@LINE-1]]:5: remark: cudaMemcpy inside a loop synchronizes (a host-to-device copy of 4097 bytes, more than the 4096 pygraph reads at the call)
    k<<<1, 32>>>(p, i);
    // CHECK-DAG: h2d-snapshot.cu:[[@LINE-1]]:5: remark: formed graph region in 'sizes(float*, float*, char const*, unsigned long, int)': loop iteration (lines [[#@LINE-10]]-[[#@LINE+2]]), part 2 of 2 (after cudaMemcpy synchronizes (a host-to-device copy of 4097 bytes, more than the 4096 pygraph reads at the call) at h2d-snapshot.cu:[[#@LINE-3]]), 2 launch sites
    k2<<<1, 32>>>(p);
  }
}
// IR-LABEL: define {{.*}}@_Z5sizesPfS_PKcmi(
// IR: call {{.*}}i32 @__pygraph_cudaMemcpy(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}, ptr {{.*}}, i64 4096, i32 1)
// IR: call {{.*}}i32 @__pygraph_cudaMemcpy(ptr @.pygraph.site{{[.0-9]*}}, ptr {{.*}}, ptr {{.*}}, i64 %{{[0-9a-z.]+}}, i32 1)
// IR: call {{.*}}i32 @cudaMemcpy(ptr {{.*}}, ptr {{.*}}, i64 noundef 4097, i32 noundef 1)

// One launch and a copy of a struct the host rewrites each iteration: the
// loop batches (the copy has read the struct when it returns).
void batch_params(float *p, Params *d, int n) {
  for (int i = 0; i < n; ++i) {
    Params h = {0.01f * i, 1.0f, 2.0f, i};
    cudaMemcpy(d, &h, sizeof h, cudaMemcpyHostToDevice);
    k<<<1, 32>>>(p, i);
    // CHECK-DAG: h2d-snapshot.cu:[[@LINE-1]]:5: remark: batchable loop (lines [[#@LINE-4]]-[[#@LINE+1]]): up to 32 iterations per graph
  }
}

// A convergence loop that copies to a symbol: the WHILE graph would deliver
// the first iteration's bytes every iteration.
struct Status {
  int more;
};
int converge(float *p, Status *d_st) {
  Status st;
  int iter = 0;
  do {
    // O2-DAG: h2d-snapshot.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+7]]) not a whole-loop candidate: copy at h2d-snapshot.cu:[[#@LINE+2]] host to device: only the status copy may touch host memory
    float s = 0.5f * iter;
    cudaMemcpyToSymbol(d_scale, &s, sizeof s);
    k<<<64, 256>>>(p, iter);
    k2<<<64, 256>>>(p);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    ++iter;
  } while (st.more);
  return iter;
}
