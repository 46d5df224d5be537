// Every launch form is one launch site, at the line the user wrote it, with
// the same sites and operands at -O0 (stub called) and -O2 (stub inlined).
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// cudaLaunchKernelEx<> is a header template around cudaLaunchKernelExC: at
// -O0 the site is inside it, at -O2 it is inlined and the site is the user's.
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EX0
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=EX2
// Per-thread default stream: the _ptsz entry points are launch sites too.
// RUN: %cuda_host -O2 -DCUDA_API_PER_THREAD_DEFAULT_STREAM -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTSZ
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void axpy(float *y, const float *x, float a, int n) {}
template <typename T> __global__ void fill(T *p, T v) {}

void launches(float *y, const float *x, cudaStream_t s, CUfunction f, void **params) {
  axpy<<<4, 256>>>(y, x, 2.0f, 1024);
  // CHECK: launch-forms.cu:[[@LINE-1]]:3: remark: launch of 'axpy(float*, float const*, float, int)' grid=(4,1,1) block=(256,1,1) shmem=0 stream=default [-Rpass-analysis=pygraph]
  axpy<<<dim3(8, 2), dim3(32, 4), 128, s>>>(y, x, 1.0f, 64);
  // CHECK: launch-forms.cu:[[@LINE-1]]:3: remark: launch of 'axpy(float*, float const*, float, int)' grid=(8,2,1) block=(32,4,1) shmem=128 stream=<dynamic>
  fill<float><<<1, 32, 0, s>>>(y, 1.0f);
  // CHECK: launch-forms.cu:[[@LINE-1]]:3: remark: launch of 'void fill<float>(float*, float)' grid=(1,1,1) block=(32,1,1)
  void *args[] = {&y, &x};
  cudaLaunchKernel((const void *)axpy, dim3(2), dim3(64), args, 0, s);
  // CHECK: launch-forms.cu:[[@LINE-1]]:3: remark: launch of 'axpy(float*, float const*, float, int)' grid=(2,1,1) block=(64,1,1)
  cudaLaunchKernel((const void *)axpy, dim3(1), dim3(32), args, 0, 0);
  // CHECK: launch-forms.cu:[[@LINE-1]]:3: remark: launch of 'axpy(float*, float const*, float, int)' grid=(1,1,1) block=(32,1,1) shmem=0 stream=default
  // PTSZ: launch-forms.cu:[[@LINE-2]]:3: remark: launch of 'axpy(float*, float const*, float, int)' grid=(1,1,1) block=(32,1,1) shmem=0 stream=per-thread-default
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(3);
  cfg.blockDim = dim3(32);
  cfg.stream = s;
  cudaLaunchKernelEx(&cfg, axpy, y, x, 3.0f, 7);
  // EX2: launch-forms.cu:[[@LINE-1]]:3: remark: launch of 'axpy(float*, float const*, float, int)'
  // EX0: cuda_runtime.h:{{[0-9]+}}:{{[0-9]+}}: remark: launch of '<kernel pointer>'
  cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, (CUstream)s, params, nullptr);
  // CHECK: launch-forms.cu:[[@LINE-1]]:3: remark: launch of '<CUfunction>'
  CUlaunchConfig dcfg = {};
  cuLaunchKernelEx(&dcfg, f, params, nullptr);
  // CHECK: launch-forms.cu:[[@LINE-1]]:3: remark: launch of '<CUfunction>'
}
// PTSZ-COUNT-3: remark: launch of
// PTSZ-NOT: remark: launch of
