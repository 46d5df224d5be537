// The site descriptor's arg_slots (pygraph_abi.def): the entries of the
// launch's argument array, so that the runtime asks the driver about
// exactly that many kernel parameters.  <<<>>> stubs allocate one per
// parameter (at least one); an array the program built counts as sized;
// an array the pass cannot see is 0 (unknown: the runtime probes).
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
#include <cuda_runtime.h>
struct Pair { int a; double b; };
__global__ void none() {}
__global__ void three(float *p, int n, Pair q) {}
__global__ void one(float *p) {}
// At -O0 a <<<>>> site is the launch call inside the kernel's stub.
// O0-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} i32 [[@LINE-4]], i32 1, ptr
// O0-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} i32 [[@LINE-4]], i32 3, ptr
// O0-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} i32 [[@LINE-4]], i32 1, ptr
// O0-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} i32 [[@LINE+19]], i32 4, ptr
// O0-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} i32 [[@LINE+19]], i32 0, ptr
// O0-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} i32 [[@LINE+19]], i32 4, ptr

// Site fields: kernel, file, line, arg_slots, twin.
// CHECK-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} i32 [[@LINE+12]], i32 1, ptr
// CHECK-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} i32 [[@LINE+12]], i32 3, ptr
// CHECK-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} i32 [[@LINE+12]], i32 4, ptr
// CHECK-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} i32 [[@LINE+12]], i32 0, ptr
// CHECK-DAG: @.pygraph.site{{[.0-9]*}} = private constant {{.*}} i32 [[@LINE+12]], i32 4, ptr
extern "C" void run(float *p, Pair q, void **unknown_args, cudaStream_t s, int n) {
  void *built[4] = {&p, &n, &q, &p};
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(32);
  cfg.stream = s;
  for (int i = 0; i < n; ++i) {
    none<<<1, 32, 0, s>>>();
    three<<<1, 32, 0, s>>>(p, n, q);
    cudaLaunchKernel((const void *)three, dim3(1), dim3(32), built, 0, s);
    cudaLaunchKernel((const void *)one, dim3(1), dim3(32), unknown_args, 0, s);
    cudaLaunchKernelExC(&cfg, (const void *)one, built);
  }
}
