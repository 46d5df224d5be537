// Parameter indirection, host side: kernels launched inside a region get
// their indirect twin registered next to them under a handle of its own,
// which the launch sites' descriptors carry; other kernels don't.
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-indirection=0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-analyze-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// The new offload driver has no __cudaRegisterFunction: nothing is registered.
// RUN: %cuda --offload-new-driver -fgpu-rdc --cuda-host-only -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// A full compile (device twins and host registrations together) builds.
// RUN: %cuda -O2 -fplugin=%plugin -c %s -o %t.o
#include <cuda_runtime.h>
__global__ void a(float *p, float s) {}
__global__ void b(float *p, const float *q) {}
__global__ void once(float *p) {}
__global__ void unused(float *p) {}

void run(float *x, float *y, int n, cudaStream_t st) {
  once<<<1, 1, 0, st>>>(x);
  cudaDeviceSynchronize();
  for (int t = 0; t < n; ++t) {
    a<<<4, 128, 0, st>>>(x, 0.5f * t);
    b<<<4, 128, 0, st>>>(y, x);
  }
}

// CHECK-DAG: @__pygraph_twin._Z1aPff = private global i8 0, align 1
// CHECK-DAG: @__pygraph_twin._Z1bPfPKf = private global i8 0, align 1
// CHECK-DAG: @[[NA:.pygraph.twin.name[.0-9]*]] = private unnamed_addr constant [21 x i8] c"_Z1aPff__pygraph_ind\00"
// CHECK-DAG: @[[NB:.pygraph.twin.name[.0-9]*]] = private unnamed_addr constant [23 x i8] c"_Z1bPfPKf__pygraph_ind\00"
// The launch sites name the twins' handles.
// CHECK-DAG: @.pygraph.site{{[.0-9]*}} = private constant { ptr, ptr, i32, i32, ptr } { ptr @.pygraph.str{{[.0-9]*}}, ptr {{.*}}, i32 {{[0-9]+}}, i32 2, ptr @__pygraph_twin._Z1aPff }
// CHECK-DAG: @.pygraph.site{{[.0-9]*}} = private constant { ptr, ptr, i32, i32, ptr } { ptr @.pygraph.str{{[.0-9]*}}, ptr {{.*}}, i32 {{[0-9]+}}, i32 2, ptr @__pygraph_twin._Z1bPfPKf }
// CHECK-NOT: __pygraph_twin._Z4oncePf
// CHECK-NOT: __pygraph_twin._Z6unusedPf
// Registration is inlined into the module constructor at -O2.
// CHECK-LABEL: define internal void @__cuda_module_ctor()
// CHECK: call i32 @__cudaRegisterFunction(ptr [[H:%[0-9]+]], ptr nonnull @_Z16__device_stub__aPff,
// CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr [[H]], ptr @__pygraph_twin._Z1aPff, ptr @[[NA]], ptr @[[NA]], i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
// CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr [[H]], ptr nonnull @_Z16__device_stub__bPfPKf,
// CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr [[H]], ptr @__pygraph_twin._Z1bPfPKf, ptr @[[NB]], ptr @[[NB]], i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
// CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr [[H]], ptr nonnull @_Z19__device_stub__oncePf,
// CHECK-NEXT: call i32 @__cudaRegisterFunction(ptr [[H]], ptr nonnull @_Z21__device_stub__unusedPf,
// CHECK-NEXT: call void @__cudaRegisterFatBinaryEnd

// O0: @__pygraph_twin._Z1aPff = private global i8 0
// O0: private constant { ptr, ptr, i32, i32, ptr } { {{.*}}, ptr @__pygraph_twin._Z1aPff }
// O0: call i32 @__cudaRegisterFunction(ptr %0, ptr @_Z16__device_stub__aPff,
// O0-NEXT: call i32 @__cudaRegisterFunction(ptr %0, ptr @__pygraph_twin._Z1aPff, ptr @.pygraph.twin.name

// OFF-NOT: __pygraph_twin
// OFF-NOT: __pygraph_ind
