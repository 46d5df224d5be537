// Remarks saved with -fsave-optimization-record, with no -Rpass flag, are the
// same ones -Rpass prints: the pass builds remark text when a remark is
// printed or saved, and only then.
// RUN: rm -f %t.yaml
// RUN: %cuda_host -O2 -g -fplugin=%plugin -fsave-optimization-record -foptimization-record-file=%t.yaml -c %s -o /dev/null
// RUN: FileCheck %s < %t.yaml
// RUN: %cuda_host -O2 -g -fplugin=%plugin -c %s -o /dev/null 2>&1 | count 0
#include <cuda_runtime.h>
__global__ void k(float *p) {}

void regions(float *p, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p);
    k<<<1, 32>>>(p);
    cudaMemcpy(h, p, 4, cudaMemcpyDeviceToHost);
    k<<<1, 32>>>(p);
  }
}
// CHECK: Pass: pygraph
// CHECK-NEXT: Name: Region
// CHECK: String: 'formed graph region in ''regions(float*, float*, int)'': loop iteration
// CHECK: Pass: pygraph
// CHECK-NEXT: Name: NotBatchable
// CHECK: String: 'loop (lines 12-17) not batchable: barrier ''cudaMemcpy'' in the loop'
// CHECK: Pass: pygraph
// CHECK-NEXT: Name: Eager
// CHECK: String: 'launch of ''k(float*)'' stays eager: only 1 launch site after cudaMemcpy synchronizes (a device-to-host copy) at remark-record.cu:15
