// Launches through a kernel pointer (kernel_pointers.h), as Thrust's and
// CUB's launcher makes them: `k<<<...>>>(x)` with k a parameter is an
// indirect call of the stub after __cudaPushCallConfiguration.  It is
// checked at run time: right before it, a hook gives the runtime the pointer
// and the file's table of stubs, and the function that makes it stays
// inside its caller's region (its launch sites are the region's).  NVTX's
// calls through its table of tool entry points and CUB's occupancy query are
// harmless; any other indirect call is a barrier, and with across-files=0
// so is the pointer launch.
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | grep 'stays eager' | FileCheck %s --check-prefix=EAGER
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ARGS
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %cuda_host -O2 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PICK
// RUN: %cuda_host -O0 -fplugin=%plugin %remarks -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PICK
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

__global__ void ka(float *x) { x[threadIdx.x] += 1; }
__global__ void kb(float *x) { x[threadIdx.x] *= 2; }
__global__ void kc(float *x) { x[threadIdx.x] -= 1; }

// CHECK-DAG: @.pygraph.kernel_stubs = private constant [6 x ptr] [ptr @_Z{{[0-9]+}}__device_stub__{{[a-z]+}}Pf{{i?}}, ptr @_Z{{[0-9]+}}__device_stub__{{[a-z]+}}Pf{{i?}}, ptr @_Z{{[0-9]+}}__device_stub__{{[a-z]+}}Pf{{i?}}, ptr @_Z{{[0-9]+}}__device_stub__{{[a-z]+}}Pf{{i?}}, ptr @_Z{{[0-9]+}}__device_stub__{{[a-z]+}}Pf{{i?}}, ptr @_Z{{[0-9]+}}__device_stub__{{[a-z]+}}Pf{{i?}}]

template <class K>
__attribute__((noinline)) cudaError_t launch(K k, float *x, cudaStream_t s, bool ex) {
  if (ex) {
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(1);
    cfg.blockDim = dim3(32);
    cfg.stream = s;
    return cudaLaunchKernelEx(&cfg, k, x);
  }
  k<<<1, 32, 0, s>>>(x);
  return cudaPeekAtLastError();
}

// A launcher's caller: its launches run in the region that calls it.
template <class K> __attribute__((noinline)) void algorithm(K k, float *x, cudaStream_t s) {
  launch(k, x, s, x == nullptr);
}

// REMARK-DAG: kernel-pointers.cu:[[@LINE+12]]:5: remark: formed graph region in 'run(float*, int, CUstream_st*, void (*)(float*))': loop iteration (lines [[@LINE+10]]-[[@LINE+18]]), 2 launch sites
// REMARK-DAG: kernel-pointers.cu:[[@LINE+14]]:5: remark: call of 'void algorithm<void (*)(float*)>(void (*)(float*), float*, CUstream_st*)' stays inside the region: the runtime splits the region inside it where an external function it calls is not pygraph code
// OFF: kernel-pointers.cu:[[@LINE+10]]:5: remark: launch of 'ka(float*)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier (call of 'void algorithm<void (*)(float*)>(void (*)(float*), float*, CUstream_st*)' at kernel-pointers.cu:[[@LINE+13]], which may synchronize (launch through a kernel pointer, with across-files=0 at kernel-pointers.cu:[[@LINE-11]])); a graph region needs at least 2 (min-launches) [kernel-pointer]
// CHECK-LABEL: define {{.*}}void @_Z3runPfiP11CUstream_stPFvS_E(
// CHECK: call void @__pygraph_region_begin(
// CHECK: call {{.*}}@__pygraph_cudaLaunchKernel(
// CHECK: call void @__pygraph_external_call(ptr @.pygraph.region, i32 1, ptr @_Z9algorithmIPFvPfEEvT_S0_P11CUstream_st)
// CHECK: call {{.*}}@__pygraph_cudaLaunchKernel(
// CHECK: call void @__pygraph_region_end(
void run(float *x, int n, cudaStream_t s, void (*kp)(float *)) {
  for (int i = 0; i < n; ++i) {
    nvtxRangePushA("step");
    ka<<<1, 32, 0, s>>>(x);
    int blocks;
    cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&blocks, kb, 32, 0, 0);
    algorithm(kp, x, s);
    kc<<<1, 32, 0, s>>>(x);
    nvtxRangePop();
  }
}

// The launcher (emitted after its caller): its hook, right before the stub call.
// CHECK-LABEL: define {{.*}} @_Z6launchIPFvPfEE9cudaErrorT_S0_P11CUstream_stb(
// CHECK: call void @__pygraph_kernel_pointer_call(ptr null, i32 0, ptr %0, ptr @.pygraph.kernel_stubs, i32 6)
// CHECK-NEXT: tail call void %0(

// Any other call through a pointer may do anything: a barrier.
// EAGER-NOT: kernel-pointers.cu:{{[1-6][0-9]}}:
// EAGER: kernel-pointers.cu:[[@LINE+5]]:5: remark: launch of 'ka(float*)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier (indirect call at kernel-pointers.cu:[[@LINE+6]]){{.*}} [indirect-call]
// EAGER: kernel-pointers.cu:[[@LINE+6]]:5: remark: launch of 'kc(float*)' stays eager: only 1 launch site after indirect call at kernel-pointers.cu:[[@LINE+5]] before the next barrier{{.*}} [indirect-call]
void (*g_hook)(float *);
void hooks(float *x, int n) {
  for (int i = 0; i < n; ++i) {
    ka<<<1, 32>>>(x);
    g_hook(x);
    kc<<<1, 32>>>(x);
  }
}
// EAGER-NOT: kernel-pointers.cu:{{[1-6][0-9]}}:

// A pointer launch right in the region's own iteration (a kernel chosen
// before the loop), at -O2 and -O0; a call in a launch's arguments (a
// value, where a stub returns void) is no pointer launch but an indirect
// call, a barrier.
__global__ void fast(float *x) { x[threadIdx.x] += 1; }
__global__ void slow(float *x) { x[threadIdx.x] += 2; }
__global__ void kd(float *x, int v) { x[threadIdx.x] += v; }
struct Src { virtual int next(); };
// PICK-DAG: kernel-pointers.cu:[[@LINE+6]]:5: remark: launch through a kernel pointer stays inside the region: the runtime splits the region there unless the pointer is one of this file's kernels
// PICK-DAG: kernel-pointers.cu:[[@LINE+6]]:5: remark: formed graph region in 'pick(float*, int, bool)': loop iteration
// PICK-DAG: kernel-pointers.cu:[[@LINE+14]]:{{[0-9]+}}: remark: loop (lines [[#@LINE+13]]-[[#@LINE+16]]) not batchable: barrier in the loop (indirect call at kernel-pointers.cu:[[#@LINE+14]])
void pick(float *x, int n, bool f) {
  void (*k)(float *) = f ? fast : slow;
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(x);
    kc<<<1, 32>>>(x);
  }
}
// EAGER-NOT: kernel-pointers.cu:{{1[0-9][0-9]}}:
// ARGS-LABEL: define {{.*}}void @_Z4argsPfiP3Src(
// ARGS-NOT: __pygraph_kernel_pointer_call
// ARGS: ret void
void args(float *x, int n, Src *src) {
  for (int i = 0; i < n; ++i) {
    kd<<<1, 32>>>(x, src->next());
    kc<<<1, 32>>>(x);
  }
}
