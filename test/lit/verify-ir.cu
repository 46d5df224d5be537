// The IR the plugin leaves behind passes the verifier, host and device, at
// -O0 and -O2 (clang's cc1 runs without it, so a broken twin or region would
// otherwise crash code generation).  Kernels with loops give the twins' cloned
// bodies phis whose incoming block is the entry block.  The FileCheck runs
// hold that the verified IR is the instrumented one: twins on the device,
// a region and routed launches on the host.
// RUN: %cuda_device -O2 -fplugin=%plugin -S -emit-llvm %s -o %t.dev2.ll
// RUN: opt -passes=verify -disable-output %t.dev2.ll
// RUN: FileCheck %s --check-prefixes=DEV,DEV-O2 < %t.dev2.ll
// RUN: %cuda_device -O0 -fplugin=%plugin -S -emit-llvm %s -o %t.dev0.ll
// RUN: opt -passes=verify -disable-output %t.dev0.ll
// RUN: FileCheck %s --check-prefix=DEV < %t.dev0.ll
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o %t.host2.ll
// RUN: opt -passes=verify -disable-output %t.host2.ll
// RUN: FileCheck %s --check-prefixes=HOST,HOST-O2 < %t.host2.ll
// RUN: %cuda_host -O0 -fplugin=%plugin -S -emit-llvm %s -o %t.host0.ll
// RUN: opt -passes=verify -disable-output %t.host0.ll
// RUN: FileCheck %s --check-prefix=HOST < %t.host0.ll
// RUN: %cuda -O2 -fplugin=%plugin -c %s -o /dev/null
// DEV-LABEL:  define {{.*}} void @_Z6reducePKfiPf__pygraph_ind(
// DEV-O2:     phi float [ 0.000000e+00, %{{[0-9]+}} ]
// DEV-LABEL:  define {{.*}} void @_Z5scalePfif__pygraph_ind(
// DEV-O2:     phi i32
// HOST-LABEL: define {{.*}}void @_Z3runPfS_ii(
// HOST:       call void @__pygraph_region_loop_enter(ptr @.pygraph.region,
// HOST:       call void @__pygraph_region_begin(ptr @.pygraph.region, i32 0)
// HOST-O2:    call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{[.0-9]*}}, ptr @_Z21__device_stub__reducePKfiPf,
// HOST-O2:    call i32 @__pygraph_cudaLaunchKernel(ptr @.pygraph.site{{[.0-9]*}}, ptr @_Z20__device_stub__scalePfif,
// HOST:       call void @__pygraph_region_end(ptr @.pygraph.region)
__global__ void reduce(const float *a, int n, float *out) {
  float s = 0.0f;
  for (int k = threadIdx.x; k < n; k += blockDim.x) s += a[k];
  if (threadIdx.x == 0) *out = s;
}
__global__ void scale(float *a, int n, float f) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x)
    a[k] *= f;
}
void run(float *a, float *o, int n, int steps) {
  for (int t = 0; t < steps; ++t) {
    reduce<<<1, 128>>>(a, n, o);
    scale<<<4, 128>>>(a, n, 0.5f + t);
  }
}
