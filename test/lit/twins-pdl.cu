// Programmatic dependent launch in the indirect twins: compiled for sm_90 or
// newer, a twin starts with griddepcontrol.launch_dependents (its successor
// may launch early), then reads its argument block, then executes
// griddepcontrol.wait before the kernel's body, which thus never runs before
// its predecessor grids have completed.  Both are inline asm with a memory
// clobber so that nothing moves memory accesses across them.  Older targets
// have no griddepcontrol: their twins get none.  The kernels themselves never
// get any.
// RUN: %cuda_device -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_device -O0 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
// RUN: %cuda_device -O2 -fplugin=%plugin -S %s -o - | FileCheck %s --check-prefix=PTX
// RUN: %cuda_device -O2 -fplugin=%plugin -Rpass-analysis=pygraph-device -S -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=REMARK
// The rule is the target's number, whatever its suffix.
// RUN: %cuda_device --no-cuda-gpu-arch=sm_90 --cuda-gpu-arch=sm_90a -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NEWER
// RUN: %cuda_device --no-cuda-gpu-arch=sm_90 --cuda-gpu-arch=sm_100a -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NEWER
// RUN: %cuda_device --no-cuda-gpu-arch=sm_90 --cuda-gpu-arch=sm_80 -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OLDER --implicit-check-not=griddepcontrol
// RUN: %cuda_device --no-cuda-gpu-arch=sm_90 --cuda-gpu-arch=sm_89 -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OLDER --implicit-check-not=griddepcontrol
// RUN: %cuda_device --no-cuda-gpu-arch=sm_90 --cuda-gpu-arch=sm_80 -O2 -fplugin=%plugin -Rpass-analysis=pygraph-device -S -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=REMARK80
// ptxas accepts both (it has no griddepcontrol before sm_90).
// RUN: %cuda -O2 -fplugin=%plugin -c %s -o %t.o
// RUN: %cuda --no-cuda-gpu-arch=sm_90 --cuda-gpu-arch=sm_80 -O2 -fplugin=%plugin -c %s -o %t.o
struct Params { float a[3]; int n; };
__global__ void axpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
// Writes its by-value struct: the copy out of the block precedes the wait.
__global__ void wbyval(Params p, float *o) { p.a[threadIdx.x % 3] = 1; o[threadIdx.x] = p.a[p.n % 3]; }
__global__ void noparams() {}

// CHECK-LABEL: define dso_local ptx_kernel void @_Z4axpyfPKfPfi(
// CHECK-NOT: griddepcontrol
// CHECK-LABEL: define dso_local ptx_kernel void @_Z6wbyval6ParamsPf(
// CHECK-NOT: griddepcontrol
// CHECK-LABEL: define dso_local ptx_kernel void @_Z8noparamsv(
// CHECK-NOT: griddepcontrol

// float@0 ptr@8 ptr@16 int@24: launch_dependents, the loads, wait, the body.
// CHECK-LABEL: define dso_local ptx_kernel void @_Z4axpyfPKfPfi__pygraph_ind(
// CHECK-SAME: ptr noalias noundef nonnull readonly align 8 dereferenceable(28) %0, ptr byval([{{[0-9]+}} x i8]) align 1 %1) {{.*}}#[[TWIN:[0-9]+]]
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"() #[[ASM:[0-9]+]]
// CHECK-NEXT: [[A:%[0-9]+]] = load float, ptr %0, align 4
// CHECK-NEXT: getelementptr inbounds i8, ptr %0, i64 8
// CHECK-NEXT: load ptr
// CHECK-NEXT: addrspacecast
// CHECK-NEXT: [[X:%[0-9]+]] = addrspacecast
// CHECK-NEXT: getelementptr inbounds i8, ptr %0, i64 16
// CHECK-NEXT: load ptr
// CHECK-NEXT: addrspacecast
// CHECK-NEXT: [[Y:%[0-9]+]] = addrspacecast
// CHECK-NEXT: [[NP:%[0-9]+]] = getelementptr inbounds i8, ptr %0, i64 24
// CHECK-NEXT: [[N:%[0-9]+]] = load i32, ptr [[NP]], align 4
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.wait;", "~{memory}"() #[[ASM]]
// CHECK-NEXT: call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
// CHECK-NOT: griddepcontrol
// CHECK: icmp slt i32 {{%[0-9]+}}, [[N]]
// CHECK-NOT: griddepcontrol
// CHECK: getelementptr inbounds float, ptr [[X]]
// CHECK-NEXT: load float
// CHECK-NEXT: fmul contract float [[A]]
// CHECK-NEXT: getelementptr inbounds float, ptr [[Y]]
// CHECK-NOT: griddepcontrol
// CHECK: ret void

// The private copy of the struct is made before the wait.
// CHECK-LABEL: define dso_local ptx_kernel void @_Z6wbyval6ParamsPf__pygraph_ind(
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"() #[[ASM]]
// CHECK-NEXT: [[COPY:%[0-9]+]] = alloca %struct.Params, align 4
// CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 [[COPY]], ptr align 4 %0, i64 16, i1 false)
// CHECK-NEXT: getelementptr inbounds i8, ptr %0, i64 16
// CHECK-NEXT: load ptr
// CHECK-NEXT: addrspacecast
// CHECK-NEXT: addrspacecast
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.wait;", "~{memory}"() #[[ASM]]
// CHECK-NOT: griddepcontrol
// CHECK: store float 1.000000e+00, ptr
// CHECK-NOT: griddepcontrol
// CHECK: ret void

// CHECK-LABEL: define dso_local ptx_kernel void @_Z8noparamsv__pygraph_ind(ptr %0, ptr byval([345 x i8]) align 1 %1)
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"() #[[ASM]]
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.wait;", "~{memory}"() #[[ASM]]
// CHECK-NEXT: ret void

// The twin synchronizes with other grids: the kernel's nosync is dropped.
// CHECK-DAG: attributes #[[TWIN]] = { mustprogress nofree noinline norecurse nounwind willreturn "frame-pointer"
// CHECK-DAG: attributes #[[ASM]] = { nounwind }

// -O0: the kernel's allocas follow the wait, still in the entry block.
// O0-LABEL: define dso_local ptx_kernel void @_Z4axpyfPKfPfi(
// O0-NOT: griddepcontrol
// O0-LABEL: define dso_local ptx_kernel void @_Z4axpyfPKfPfi__pygraph_ind(
// O0-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"()
// O0-NEXT: load float, ptr %0, align 4
// O0-NEXT: getelementptr inbounds i8, ptr %0, i64 8
// O0-NEXT: load ptr
// O0-NEXT: addrspacecast
// O0-NEXT: addrspacecast
// O0-NEXT: getelementptr inbounds i8, ptr %0, i64 16
// O0-NEXT: load ptr
// O0-NEXT: addrspacecast
// O0-NEXT: addrspacecast
// O0-NEXT: getelementptr inbounds i8, ptr %0, i64 24
// O0-NEXT: load i32
// O0-NEXT: call void asm sideeffect "griddepcontrol.wait;", "~{memory}"()
// O0-NEXT: alloca float, align 4
// O0-NOT: griddepcontrol
// O0: ret void

// In the PTX, the kernel has no griddepcontrol; in the twin,
// launch_dependents comes first, the block is read (ld.global.nc), and only
// after the wait does the body touch global memory.
// PTX-LABEL: .visible .entry _Z4axpyfPKfPfi(
// PTX-NOT: griddepcontrol
// PTX-LABEL: .visible .entry _Z4axpyfPKfPfi__pygraph_ind(
// PTX-NOT: {{ld|st}}.global
// PTX: griddepcontrol.launch_dependents;
// PTX-NOT: griddepcontrol
// PTX-NOT: {{ld|st}}.global.{{[bfsu]}}
// PTX: ld.global.nc.b32 {{%r[0-9]+}}, [{{%rd[0-9]+}}+24];
// PTX-NOT: {{ld|st}}.global.{{[bfsu]}}
// PTX: griddepcontrol.wait;
// PTX-NOT: griddepcontrol
// PTX: ld.global.b32
// PTX: st.global.b32
// PTX-NOT: griddepcontrol
// PTX: ret;
// PTX-LABEL: .visible .entry _Z8noparamsv__pygraph_ind(
// PTX: griddepcontrol.launch_dependents;
// PTX-NEXT: // end inline asm
// PTX-NEXT: // begin inline asm
// PTX-NEXT: griddepcontrol.wait;

// REMARK: twins-pdl.cu:23:1: remark: kernel 'axpy(float, float const*, float*, int)' (4 parameters, 28 bytes): graphs can change its arguments without a per-launch update, through a version of it that reads them from GPU memory while the kernel before it finishes [-Rpass-analysis=pygraph-device]
// REMARK: twins-pdl.cu:29:1: remark: kernel 'noparams()' (0 parameters, 0 bytes): graphs can change its arguments without a per-launch update, through a version of it that reads them from GPU memory while the kernel before it finishes [-Rpass-analysis=pygraph-device]

// NEWER-LABEL: define dso_local ptx_kernel void @_Z4axpyfPKfPfi(
// NEWER-NOT: griddepcontrol
// NEWER-LABEL: define dso_local ptx_kernel void @_Z4axpyfPKfPfi__pygraph_ind(
// NEWER-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"()
// NEWER: call void asm sideeffect "griddepcontrol.wait;", "~{memory}"()

// OLDER: define dso_local ptx_kernel void @_Z4axpyfPKfPfi__pygraph_ind(
// OLDER-NEXT: load float, ptr %0, align 4
// OLDER: define dso_local ptx_kernel void @_Z8noparamsv__pygraph_ind(ptr %0, ptr byval([345 x i8]) align 1 %1)
// OLDER-NEXT: ret void
// OLDER: attributes #{{[0-9]+}} = { mustprogress nofree noinline norecurse nosync nounwind willreturn "frame-pointer"

// REMARK80: twins-pdl.cu:23:1: remark: kernel 'axpy(float, float const*, float*, int)' (4 parameters, 28 bytes): with PYGRAPH_INDIRECT=1, graphs can change its arguments without a per-launch update, through a version of it that reads them from GPU memory [-Rpass-analysis=pygraph-device]
