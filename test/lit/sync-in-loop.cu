// -Rpass-analysis lists each classified synchronizing CUDA call inside a
// loop (and each allocation the runtime's pool serves there), and none
// outside loops (nor the harmless cudaGetLastError): no other
// remark anywhere in the output, before the first CHECK or after the last.
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark:
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --implicit-check-not=remark:
#include <cuda_runtime.h>
void f(float *d, float *h, int n, cudaStream_t s) {
  cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice);
  for (int i = 0; i < n; ++i) {
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
    // CHECK: sync-in-loop.cu:[[@LINE-1]]:5: remark: cudaMemcpy inside a loop synchronizes (a device-to-host copy)
    cudaStreamSynchronize(s);
    // CHECK: sync-in-loop.cu:[[@LINE-1]]:5: remark: cudaStreamSynchronize inside a loop synchronizes (synchronizing)
    float *tmp;
    cudaMalloc((void **)&tmp, 16);
    // CHECK: sync-in-loop.cu:[[@LINE-1]]:5: remark: cudaMalloc inside a loop: served from pygraph's allocation pool in a region (the same block each iteration, no CUDA call)
    cudaFree(tmp);
    // CHECK: sync-in-loop.cu:[[@LINE-1]]:5: remark: cudaFree inside a loop: served from pygraph's allocation pool in a region (the same block each iteration, no CUDA call)
    cudaGetLastError();
  }
  cudaDeviceSynchronize();
}
