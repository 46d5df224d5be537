// What a per-compile summary reads from the remarks: every region remark
// ends with its launch sites (each counted once, a site in a subloop too);
// a loop iteration split into several regions numbers its parts and says
// where each begins; every missed launch remark ends with a keyword naming
// the kind of its reason.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -fplugin-arg-pygraph-straight-line=0 -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOSTRAIGHT
// Every missed launch remark ends with its keyword.
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass-missed=pygraph -c %s -o %t.o 2> %t.txt
// RUN: grep -c 'stays eager' %t.txt | FileCheck %s --check-prefix=COUNT
// RUN: grep 'stays eager' %t.txt | not grep -v ' \[[a-z0-9=.-]*\] \[-Rpass-missed=pygraph\]$'
// COUNT: {{^(1[0-9])$}}
#include <atomic>
__global__ void k(float *p) {}
void opaque(float *p);
extern void (*hook)();
extern "C" cudaError_t cudaSomethingNew(int);

void parts(float *d, float *h, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 1>>>(d);
    // CHECK: remark-fields.cu:[[@LINE-1]]:5: remark: formed graph region in 'parts(float*, float*, int)': loop iteration (lines [[#@LINE-2]]-[[#@LINE+9]]), part 1 of 2, 3 launch sites
#pragma nounroll
    for (int j = 0; j < 4; ++j)
      k<<<1, 1>>>(d);
    k<<<1, 1>>>(d);
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
    k<<<1, 1>>>(d);
    // CHECK: remark-fields.cu:[[@LINE-1]]:5: remark: formed graph region in 'parts(float*, float*, int)': loop iteration (lines [[#@LINE-9]]-[[#@LINE+2]]), part 2 of 2 (after cudaMemcpy synchronizes (a device-to-host copy) at remark-fields.cu:[[#@LINE-2]]), 2 launch sites
    k<<<1, 1>>>(d);
  }
}

// CHECK: remark-fields.cu:[[#@LINE+5]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after cudaMemcpy synchronizes {{.*}} [cuda-sync]
// CHECK: remark-fields.cu:[[#@LINE+6]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after external call 'opaque(float*)' {{.*}} [external-call]
void barriers(float *d, float *h, int n, volatile int *flag) {
  for (int i = 0; i < n; ++i) {
    cudaMemcpy(h, d, 4, cudaMemcpyDeviceToHost);
    k<<<1, 1>>>(d);
    opaque(d);
    k<<<1, 1>>>(d);
    hook();
    // CHECK: remark-fields.cu:[[#@LINE+1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after indirect call {{.*}} [indirect-call]
    k<<<1, 1>>>(d);
    while (!*flag) {
    }
    // CHECK: remark-fields.cu:[[#@LINE+1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after volatile load {{.*}} [host-wait]
    k<<<1, 1>>>(d);
    cudaMallocHost(&h, 4);
    // CHECK: remark-fields.cu:[[#@LINE+1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after {{.*}}cudaHostAlloc allocates {{.*}} [cuda-uncapturable]
    k<<<1, 1>>>(d);
    cudaMemcpyAsync(d, h, 4, cudaMemcpyHostToDevice, 0);
    // CHECK: remark-fields.cu:[[#@LINE+1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after cudaMemcpyAsync copies host memory {{.*}} [host-copy]
    k<<<1, 1>>>(d);
    cudaSomethingNew(1);
    // CHECK: remark-fields.cu:[[#@LINE+1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site after CUDA call 'cudaSomethingNew' that pygraph does not know {{.*}} [unknown-cuda]
    k<<<1, 1>>>(d);
    cudaStreamSynchronize(0);
  }
}

// A loop that cannot batch, its launch alone: not-batchable.
int progress;
void lone(float *d, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 1>>>(d);
    // CHECK: remark-fields.cu:[[@LINE-1]]:5: remark: launch of 'k(float*)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier; a graph region needs at least 2 (min-launches); loop not batchable: stores to memory a kernel may read (store to 'progress') [not-batchable]
    progress = i;
  }
}

// A launch inside the program's own capture, and one alone outside loops.
void own(float *d, cudaStream_t s, cudaGraph_t *g) {
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  k<<<1, 1, 0, s>>>(d);
  // CHECK: remark-fields.cu:[[@LINE-1]]:3: remark: launch of 'k(float*)' stays eager: inside the program's own stream capture (begun at remark-fields.cu:[[@LINE-2]]) [own-capture]
  cudaStreamEndCapture(s, g);
  k<<<1, 1>>>(d);
  // CHECK: remark-fields.cu:[[@LINE-1]]:3: remark: launch of 'k(float*)' stays eager: only 1 launch site after cudaStreamEndCapture {{.*}} [capture-call]
}

void alone(float *d) {
  k<<<1, 1>>>(d);
  // CHECK: remark-fields.cu:[[@LINE-1]]:3: remark: launch of 'k(float*)' stays eager: only 1 launch site outside loops before the next barrier; a graph region needs at least 2 (min-launches) [alone]
  // NOSTRAIGHT: remark-fields.cu:[[@LINE-2]]:3: remark: launch of 'k(float*)' stays eager: launch outside loops stays eager (straight-line=0) [straight-line=0]
}
