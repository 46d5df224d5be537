// Parameter indirection, device side: every kernel K gets a kernel
// K__pygraph_ind(ptr %args) that loads K's parameters from an argument block
// laid out like K's parameter buffer and runs K's body.
// RUN: %cuda_device -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s
// RUN: %cuda_device -O0 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
// RUN: %cuda_device -O2 -fplugin=%plugin -S %s -o - | FileCheck %s --check-prefix=PTX
// RUN: %cuda_device -O2 -fplugin=%plugin -Rpass-analysis=pygraph-device -S -o /dev/null %s 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %cuda_device -O2 -fplugin=%plugin -fplugin-arg-pygraph-indirection=0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=OFF
// ptxas accepts the twins (a full compile, both sides).
// RUN: %cuda -O2 -fplugin=%plugin -c %s -o %t.o
// RUN: %cuda -O0 -fplugin=%plugin -c %s -o %t.o
// RUN: %cuda -O2 -g -fplugin=%plugin -c %s -o %t.o
struct Params { float a[3]; int n; };
struct __align__(16) A16 { float x, y; };

__global__ void scalars(int i, float f, double d, char c, int *out) { out[0] = i + (int)f + (int)d + c; }
__global__ void ptrs(float *y, const float *x, int n) { int t = threadIdx.x; if (t < n) y[t] = x[t]; }
__global__ void bystruct(Params p, double *out) { out[threadIdx.x] = p.a[threadIdx.x % 3] + p.n; }
// Writes its by-value struct: the twin works on a private copy.
__global__ void wbyval(Params p, float *o) { p.a[threadIdx.x % 3] = 1; o[threadIdx.x] = p.a[p.n % 3]; }
// Over-aligned structs sit at their .param alignment, not their IR type's.
__global__ void aligned(char c, A16 a, bool b, float4 v, int *o) { o[0] = c + a.y + b + v.w; }
template <typename T> __global__ void tmpl(T *o, T v) { o[threadIdx.x] = v; }
template __global__ void tmpl<double>(double *, double);
extern __shared__ float smem[];
__global__ void dyn(float *o, int n) { smem[threadIdx.x] = n; __syncthreads(); o[threadIdx.x] = smem[(threadIdx.x + 1) % n]; }
__global__ void __launch_bounds__(128, 4) bounded(float *o, char c) { o[threadIdx.x] = c; }
__global__ void noparams() {}

// %cuda is sm_90: the twins take part in programmatic dependent launch
// (details in twins-pdl.cu): griddepcontrol.launch_dependents first, then
// the loads, then griddepcontrol.wait before K's body.

// scalars: int@0 float@4 double@8 char@16 ptr@24, 32 bytes.  The kernel's
// memory(argmem: write) does not carry over.
// CHECK: define dso_local ptx_kernel void @_Z7scalarsifdcPi__pygraph_ind(ptr noalias noundef nonnull readonly align 8 dereferenceable(32) %0, ptr byval([{{[0-9]+}} x i8]) align 1 %1) {{.*}}#[[PLAIN:[0-9]+]]
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"()
// CHECK-NEXT: load i32, ptr %0, align 4
// CHECK-NEXT: [[F:%[0-9]+]] = getelementptr inbounds i8, ptr %0, i64 4
// CHECK-NEXT: load float, ptr [[F]], align 4
// CHECK-NEXT: [[D:%[0-9]+]] = getelementptr inbounds i8, ptr %0, i64 8
// CHECK-NEXT: load double, ptr [[D]], align 8
// CHECK-NEXT: [[C:%[0-9]+]] = getelementptr inbounds i8, ptr %0, i64 16
// CHECK-NEXT: load i8, ptr [[C]], align 1
// CHECK-NEXT: [[O:%[0-9]+]] = getelementptr inbounds i8, ptr %0, i64 24
// CHECK-NEXT: [[OV:%[0-9]+]] = load ptr, ptr [[O]], align 8
// CHECK-NEXT: [[OG:%[0-9]+]] = addrspacecast ptr [[OV]] to ptr addrspace(1)
// CHECK-NEXT: [[OP:%[0-9]+]] = addrspacecast ptr addrspace(1) [[OG]] to ptr
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.wait;", "~{memory}"()
// CHECK: store i32 {{.*}}, ptr [[OP]]
// CHECK-NEXT: ret void

// CHECK-LABEL: define dso_local ptx_kernel void @_Z4ptrsPfPKfi__pygraph_ind(ptr noalias noundef nonnull readonly align 8 dereferenceable(20) %0, ptr byval([341 x i8]) align 1 %1)
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"()
// CHECK-NEXT: load ptr, ptr %0, align 8
// CHECK: getelementptr inbounds i8, ptr %0, i64 8
// CHECK-NEXT: load ptr
// CHECK: [[N:%[0-9]+]] = getelementptr inbounds i8, ptr %0, i64 16
// CHECK-NEXT: load i32, ptr [[N]], align 4

// A read-only struct is read in place: Params@0 (16 bytes), ptr@16.
// CHECK-LABEL: define dso_local ptx_kernel void @_Z8bystruct6ParamsPd__pygraph_ind(ptr noalias noundef nonnull readonly align 8 dereferenceable(24) %0, ptr byval([{{[0-9]+}} x i8]) align 1 %1)
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"()
// CHECK-NEXT: [[O:%[0-9]+]] = getelementptr inbounds i8, ptr %0, i64 16
// CHECK-NEXT: load ptr, ptr [[O]], align 8
// CHECK-NOT: alloca
// CHECK: getelementptr inbounds nuw float, ptr %0, i64
// CHECK: getelementptr inbounds nuw i8, ptr %0, i64 12

// CHECK-LABEL: define dso_local ptx_kernel void @_Z6wbyval6ParamsPf__pygraph_ind(
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"()
// CHECK-NEXT: [[COPY:%[0-9]+]] = alloca %struct.Params, align 4
// CHECK-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 [[COPY]], ptr align 4 %0, i64 16, i1 false)
// CHECK: store float 1.000000e+00, ptr

// char@0 A16@16 bool@32 float4@48 ptr@64: 72 bytes, block aligned to 16.
// CHECK-LABEL: define dso_local ptx_kernel void @_Z7alignedc3A16b6float4Pi__pygraph_ind(ptr noalias noundef nonnull readonly align 16 dereferenceable(72) %0, ptr byval([{{[0-9]+}} x i8]) align 1 %1)
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"()
// CHECK-NEXT: load i8, ptr %0, align 1
// CHECK-NEXT: getelementptr inbounds i8, ptr %0, i64 16
// CHECK-NEXT: [[B:%[0-9]+]] = getelementptr inbounds i8, ptr %0, i64 32
// CHECK-NEXT: load i1, ptr [[B]], align 1
// CHECK-NEXT: getelementptr inbounds i8, ptr %0, i64 48
// CHECK-NEXT: [[O:%[0-9]+]] = getelementptr inbounds i8, ptr %0, i64 64
// CHECK-NEXT: load ptr, ptr [[O]], align 8

// Template kernels keep their linkage and comdat.
// CHECK-LABEL: define dso_local ptx_kernel void @_Z4tmplIdEvPT_S0___pygraph_ind(ptr noalias noundef nonnull readonly align 8 dereferenceable(16) %0, ptr byval([{{[0-9]+}} x i8]) align 1 %1) {{.*}}comdat($_Z4tmplIdEvPT_S0_)
// CHECK: [[V:%[0-9]+]] = getelementptr inbounds i8, ptr %0, i64 8
// CHECK-NEXT: load double, ptr [[V]], align 8

// CHECK: define dso_local ptx_kernel void @_Z3dynPfi__pygraph_ind(ptr noalias noundef nonnull readonly align 8 dereferenceable(12) %0, ptr byval([{{[0-9]+}} x i8]) align 1 %1) {{.*}}#[[CONV:[0-9]+]]
// CHECK: getelementptr inbounds nuw float, ptr addrspacecast (ptr addrspace(3) @smem to ptr)
// CHECK: call void @llvm.nvvm.barrier

// CHECK: define dso_local ptx_kernel void @_Z7boundedPfc__pygraph_ind(ptr noalias noundef nonnull readonly align 8 dereferenceable(9) %0, ptr byval([{{[0-9]+}} x i8]) align 1 %1) {{.*}}#[[BOUNDS:[0-9]+]]
// CHECK: [[C:%[0-9]+]] = getelementptr inbounds i8, ptr %0, i64 8
// CHECK-NEXT: load i8, ptr [[C]], align 1

// A kernel without parameters has a twin that ignores the block.
// CHECK-LABEL: define dso_local ptx_kernel void @_Z8noparamsv__pygraph_ind(ptr %0, ptr byval([345 x i8]) align 1 %1)
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"()
// CHECK-NEXT: call void asm sideeffect "griddepcontrol.wait;", "~{memory}"()
// CHECK-NEXT: ret void

// CHECK-DAG: attributes #[[PLAIN]] = { mustprogress nofree noinline norecurse nounwind willreturn "frame-pointer"
// CHECK-DAG: attributes #[[CONV]] = { convergent
// CHECK-DAG: attributes #[[BOUNDS]] = { {{.*}}willreturn "frame-pointer"="all" "no-trapping-math"="true" "nvvm.maxntid"="128" "nvvm.minctasm"="4"

// -O0: same layout; byval structs the kernel may write (no readonly at -O0)
// are copied, and the kernel's allocas stay in the entry block.
// O0-LABEL: define dso_local ptx_kernel void @_Z7scalarsifdcPi__pygraph_ind(ptr noalias noundef nonnull readonly align 8 dereferenceable(32) %0, ptr byval([{{[0-9]+}} x i8]) align 1 %1) #0
// O0-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"()
// O0-NEXT: load i32, ptr %0, align 4
// O0-NEXT: getelementptr inbounds i8, ptr %0, i64 4
// O0-NEXT: load float
// O0-NEXT: getelementptr inbounds i8, ptr %0, i64 8
// O0-NEXT: load double
// O0-NEXT: getelementptr inbounds i8, ptr %0, i64 16
// O0-NEXT: load i8
// O0-NEXT: getelementptr inbounds i8, ptr %0, i64 24
// O0-NEXT: load ptr
// O0-NEXT: addrspacecast
// O0-NEXT: addrspacecast
// O0-NEXT: call void asm sideeffect "griddepcontrol.wait;", "~{memory}"()
// O0-NEXT: alloca i32, align 4
// O0-LABEL: define dso_local ptx_kernel void @_Z8bystruct6ParamsPd__pygraph_ind(
// O0-NEXT: call void asm sideeffect "griddepcontrol.launch_dependents;", "~{memory}"()
// O0-NEXT: [[COPY:%[0-9]+]] = alloca %struct.Params, align 4
// O0-NEXT: call void @llvm.memcpy.p0.p0.i64(ptr align 4 [[COPY]], ptr align 4 %0, i64 16, i1 false)
// O0-NEXT: getelementptr inbounds i8, ptr %0, i64 16
// O0-NEXT: load ptr
// O0-NEXT: addrspacecast
// O0-NEXT: addrspacecast
// O0-NEXT: call void asm sideeffect "griddepcontrol.wait;", "~{memory}"()
// O0: getelementptr inbounds nuw %struct.Params, ptr [[COPY]], i32 0, i32 0
// O0-LABEL: define dso_local ptx_kernel void @_Z7boundedPfc__pygraph_ind(
// O0-SAME: #[[B0:[0-9]+]]
// O0: attributes #[[B0]] = { {{.*}}"nvvm.maxntid"="128" "nvvm.minctasm"="4"

// PTX: .visible .entry _Z7scalarsifdcPi__pygraph_ind(
// PTX-NEXT: .param .u64 .ptr .align 8 _Z7scalarsifdcPi__pygraph_ind_param_0,
// The layout tag: what cuFuncGetParamInfo reports as the second parameter's size.
// PTX-NEXT: .param .align 1 .b8 _Z7scalarsifdcPi__pygraph_ind_param_1[{{[0-9]+}}]
// PTX-NEXT: )
// PTX: .visible .entry _Z7alignedc3A16b6float4Pi__pygraph_ind(
// PTX-NEXT: .param .u64 .ptr .align 16 _Z7alignedc3A16b6float4Pi__pygraph_ind_param_0
// PTX: .visible .entry _Z7boundedPfc__pygraph_ind(
// PTX-NEXT: .param .u64 .ptr .align 8 _Z7boundedPfc__pygraph_ind_param_0,
// PTX-NEXT: .param .align 1 .b8 _Z7boundedPfc__pygraph_ind_param_1[{{[0-9]+}}]
// PTX-NEXT: )
// PTX-NEXT: .maxntid 128
// PTX-NEXT: .minnctapersm 4

// REMARK: twins-device.cu:16:1: remark: kernel 'scalars(int, float, double, char, int*)' (5 parameters, 32 bytes): graphs can change its arguments without a per-launch update, through a version of it that reads them from GPU memory while the kernel before it finishes
// REMARK: twins-device.cu:22:1: remark: kernel 'aligned(char, A16, bool, float4, int*)' (5 parameters, 72 bytes): graphs can change its arguments without a per-launch update, through a version of it that reads them from GPU memory while the kernel before it finishes
// REMARK: twins-device.cu:23:1: remark: kernel 'void tmpl<double>(double*, double)' (2 parameters, 16 bytes): graphs can change its arguments without a per-launch update, through a version of it that reads them from GPU memory while the kernel before it finishes
// REMARK: twins-device.cu:28:1: remark: kernel 'noparams()' (0 parameters, 0 bytes): graphs can change its arguments without a per-launch update, through a version of it that reads them from GPU memory while the kernel before it finishes

// OFF-NOT: __pygraph_ind
