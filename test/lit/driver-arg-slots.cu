// A driver-API launch's site tells the runtime its kernelParams array's
// entries (arg_slots, pygraph_abi.def), as for cudaLaunchKernel: the
// runtime then asks cuFuncGetParamInfo about exactly that many parameters
// of the CUfunction and never probes past the last one (an error a tool
// would report).  An array the pass cannot see, or none, is 0.
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_host -O2 -DCUDA_API_PER_THREAD_DEFAULT_STREAM -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=PTSZ
#include <cuda.h>
#include <cuda_runtime.h>

// Site fields: kernel (none for a CUfunction), file, line, arg_slots, twin.
// CHECK-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} ptr null, ptr @{{.*}}, i32 [[@LINE+15]], i32 3, ptr null
// CHECK-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} ptr null, ptr @{{.*}}, i32 [[@LINE+15]], i32 0, ptr null
// CHECK-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} ptr null, ptr @{{.*}}, i32 [[@LINE+15]], i32 3, ptr null
// CHECK-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} ptr null, ptr @{{.*}}, i32 [[@LINE+15]], i32 0, ptr null
// PTSZ-COUNT-2: call {{.*}} @__pygraph_cuLaunchKernel_ptsz(
// PTSZ-COUNT-2: call {{.*}} @__pygraph_cuLaunchKernelEx_ptsz(
extern "C" void run(CUfunction f, float *p, int n, void **unknown, cudaStream_t s) {
  float a = 2.0f;
  void *params[3] = {&p, &a, &n};
  CUlaunchConfig cfg = {};
  cfg.gridDimX = cfg.gridDimY = cfg.gridDimZ = 1;
  cfg.blockDimX = 32;
  cfg.blockDimY = cfg.blockDimZ = 1;
  cfg.hStream = (CUstream)s;
  for (int i = 0; i < n; ++i) {
    cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, params, nullptr);
    cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, unknown, nullptr);
    cuLaunchKernelEx(&cfg, f, params, nullptr);
    cuLaunchKernelEx(&cfg, f, unknown, nullptr);
  }
}
