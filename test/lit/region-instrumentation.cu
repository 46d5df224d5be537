// A loop iteration becomes a region: begin at the header, end before the
// barrier, at the latch and on loop exits; launches and deferrable stream
// operations are rerouted to the runtime with a site descriptor.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
#include <cuda_runtime.h>
__global__ void a(float *p, float s) {}
__global__ void b(float *p, const float *q) {}

float run(float *x, float *y, int n, cudaStream_t st) {
  float h = 0;
  for (int t = 0; t < n; ++t) {
    a<<<4, 128, 0, st>>>(x, 0.5f * t);
    cudaMemsetAsync(y, 0, 64, st);
    b<<<4, 128, 0, st>>>(y, x);
    float *tmp = x; x = y; y = tmp;
    if (t % 8 == 0)
      cudaMemcpy(&h, x, 4, cudaMemcpyDeviceToHost);
  }
  return h;
}
// Region descriptor: abi 2, loop kind 0, 1 segment, 2 launch sites, the
// function, the file, the loop's lines, no trip count, not batched.
// CHECK: @.pygraph.region = internal global { i32, i32, i32, i32, ptr, ptr, i32, i32, i64, i32, ptr, ptr } { i32 4, i32 0, i32 1, i32 2, ptr @.pygraph.str{{[.0-9]*}}, ptr @.pygraph.str{{[.0-9]*}}, i32 12, i32 19, i64 -1, i32 0, ptr null, ptr null }
// CHECK-LABEL: define {{.*}}@_Z3runPfS_iP11CUstream_st(
// CHECK: call void @__pygraph_region_begin(ptr @.pygraph.region, i32 0)
// CHECK: call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{[.0-9]*}}, ptr @_Z16__device_stub__aPff,
// CHECK: call {{.*}}i32 @__pygraph_cudaMemsetAsync(ptr @.pygraph.site{{[.0-9]*}}, ptr
// CHECK: call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{[.0-9]*}}, ptr @_Z16__device_stub__bPfPKf,
// CHECK: call void @__pygraph_region_end(ptr @.pygraph.region)
// CHECK-NEXT: call {{.*}}i32 @cudaMemcpy(
// CHECK: call void @__pygraph_region_end(ptr @.pygraph.region)
// CHECK-NEXT: br i1
// CHECK: declare void @__pygraph_region_begin(ptr, i32)
// CHECK: declare i32 @__pygraph_cudaLaunchKernel(ptr, ptr, i64, i32, i64, i32, ptr, i64, ptr)

// At -O0 the stub calls the launch API: that call is rerouted, and the site
// names the kernel.
// O0: @.pygraph.site{{[.0-9]*}} = private constant { ptr, ptr, i32, i32, ptr } { ptr @.pygraph.str{{[.0-9]*}}, ptr @.pygraph.str{{[.0-9]*}}, i32 7, i32 2, ptr {{null|@__pygraph_twin._Z1aPff}} }
// O0: define {{.*}}void @_Z16__device_stub__aPff(
// O0: call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{[.0-9]*}}, ptr @_Z16__device_stub__aPff,
// O0: call void @__pygraph_region_begin(ptr @.pygraph.region, i32 0)
// O0: call void @_Z16__device_stub__aPff(
