// Which loop is the region when the outer one cannot batch.  convolution1D's
// shape: a repeat loop of one launch inside a loop that synchronizes and
// copies back each pass; the repeat loop becomes the (batchable) region,
// since the outer loop as one region would graph one pass, seen only as
// often as the outer loop iterates.  jacobi's shape: the inner loop is a
// short constant run of launches, part of the body's launch sequence, so
// the outer loop stays the region.  batch=0 keeps the old choice.
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -Rpass-analysis=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-batch=0 -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
#include <cuda_runtime.h>
__global__ void step(float *p, int i) {}

void conv_like(float *d, float *h, int repeat, int n) {
  for (int bs = 64; bs <= 1024; bs *= 2) {
    for (int i = 0; i < repeat; i++)
      step<<<n / bs, bs>>>(d, i);
    cudaDeviceSynchronize();
    cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  }
}
// CHECK: batchable-subloops.cu:16:{{[0-9]+}}: remark: formed graph region in 'conv_like(float*, float*, int, int)': loop iteration (lines 15-16), 1 launch site
// CHECK: batchable-subloops.cu:16:{{[0-9]+}}: remark: batchable loop (lines 15-16): up to 32 iterations per graph
// OFF: batchable-subloops.cu:16:{{[0-9]+}}: remark: formed graph region in 'conv_like(float*, float*, int, int)': loop iteration (lines 14-19)

void two_sweeps(float *d, float *h, int iters) {
  for (int it = 0; it < iters; it++) {
    for (int j = 0; j < 2; j++)
      step<<<1, 32>>>(d, j);
    if (it % 100 == 0)
      cudaMemcpy(h, d, sizeof(float), cudaMemcpyDeviceToHost);
  }
}
// CHECK: batchable-subloops.cu:28:{{[0-9]+}}: remark: formed graph region in 'two_sweeps(float*, float*, int)': loop iteration (lines 26-31)
// CHECK: remark: loop (lines 26-31) not batchable: barrier 'cudaMemcpy' in the loop
// CHECK-NOT: batchable loop (lines 27-28)
