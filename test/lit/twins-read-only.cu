// A twin reads its pointers from the argument block, so the backend can no
// longer see that a `const T *__restrict__` parameter's memory is never
// written during the kernel (it lowers such loads to ld.global.nc, the
// read-only path).  The twin keeps that: loads based only on a noalias,
// read-only pointer parameter are !invariant.load; loads through a pointer
// the kernel also writes, or one without __restrict__, are not.
// RUN: %cuda_device -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_device -O2 -fplugin=%plugin -S %s -o - | FileCheck %s --check-prefix=PTX
#include <cuda_runtime.h>

__global__ void scale(const float *__restrict__ in, float *__restrict__ out,
                      const float *plain, float *__restrict__ inout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * plain[i];
    inout[i] += 1.0f;
  }
}

// The first pointer in the block is `in`; its loads, and only they, are
// marked (the original's loads carry no such mark: the parameter says it).
// CHECK-LABEL: define {{.*}} void @_Z5scalePKfPfS0_S1_i(
// CHECK-NOT: !invariant.load
// CHECK-LABEL: define {{.*}} void @_Z5scalePKfPfS0_S1_i__pygraph_ind(
// CHECK: [[IN:%[0-9]+]] = load ptr, ptr %0, align 8
// CHECK: [[INP:%[0-9]+]] = addrspacecast ptr addrspace(1) %{{[0-9]+}} to ptr
// CHECK: [[ADDR:%[0-9]+]] = getelementptr inbounds float, ptr [[INP]]
// CHECK: load float, ptr [[ADDR]], {{.*}}!invariant.load
// CHECK-NOT: !invariant.load
// CHECK: ret void

// Original and twin read `in` alike; `plain` and `inout` stay plain loads.
// PTX-LABEL: .entry _Z5scalePKfPfS0_S1_i(
// PTX: ld.global.nc.b32
// PTX: ld.global.b32
// PTX: ld.global.b32
// PTX-LABEL: .entry _Z5scalePKfPfS0_S1_i__pygraph_ind(
// PTX: ld.global.nc.b32 {{.*}}[%rd6+32]
// PTX: ld.global.nc.b32
// PTX: ld.global.b32
// PTX: ld.global.b32
