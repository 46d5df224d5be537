// A volatile or atomic access between launches may be a flag the host and a
// kernel share (a spin on mapped memory a kernel of this iteration sets would
// never end once the launch is deferred): it ends the segment like a sync.
// Atomic read-modify-writes (reference counts) and fences do not wait.
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGION
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <cuda_runtime.h>
__global__ void produce(volatile int *flag, float *x, int v) { if (threadIdx.x == 0) *flag = v; }
__global__ void consume(float *x) { x[threadIdx.x] *= 0.5f; }

void spin_volatile(volatile int *flag, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 32, 0, s>>>(flag, x, i);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'produce(int volatile*, float*, int)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier
    while (*flag != i) {
    }
    consume<<<1, 32, 0, s>>>(x);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after volatile load (may be a flag shared with a kernel) at host-device-flags.cu:[[@LINE-3]]
  }
}

void spin_atomic(int *flag, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 32, 0, s>>>(flag, x, i);
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != i) {
    }
    consume<<<1, 32, 0, s>>>(x);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after atomic load (may be a flag shared with a kernel) at host-device-flags.cu:[[@LINE-3]]
  }
}

void set_flag(volatile int *go, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    consume<<<1, 32, 0, s>>>(x);
    *go = i;
    consume<<<1, 32, 0, s>>>(x);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after volatile store (may be a flag shared with a kernel) at host-device-flags.cu:[[@LINE-2]]
  }
}

void claim(int *slot, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    consume<<<1, 32, 0, s>>>(x);
    int expected = 0;
    __atomic_compare_exchange_n(slot, &expected, i, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    consume<<<1, 32, 0, s>>>(x);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after atomic compare-exchange (may be a flag shared with a kernel) at host-device-flags.cu:[[@LINE-2]]
  }
}

// The segment after a poll begins once, where the poll loop exits, not on
// every poll: no region begin between the load and the loop's branch.
void poll_then_chain(volatile int *flag, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 32, 0, s>>>(flag, x, i);
    while (*flag != i) {
    }
    consume<<<1, 32, 0, s>>>(x);
    consume<<<1, 32, 0, s>>>(x);
  }
}
// REGION: remark: formed graph region in 'poll_then_chain(int volatile*, float*, int, CUstream_st*)': loop iteration (lines {{[0-9-]+}}), segment 0 of 1, 2 launch sites
// IR-LABEL: define {{.*}}poll_then_chain
// IR: load volatile i32
// IR-NEXT: icmp
// IR-NEXT: br i1 {{.*}}, label %[[EXIT:[0-9]+]], label %{{[0-9]+}}
// IR-EMPTY:
// IR-NEXT: [[EXIT]]:
// IR-NEXT: call void @__pygraph_region_begin(

// A spin inside a callee makes the call a barrier too.
static void __attribute__((noinline)) wait_for(volatile int *flag, int v) {
  while (*flag != v) {
  }
}
void spin_in_callee(volatile int *flag, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 32, 0, s>>>(flag, x, i);
    wait_for(flag, i);
    consume<<<1, 32, 0, s>>>(x);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after call of 'wait_for(int volatile*, int)' at host-device-flags.cu:[[@LINE-2]], which may synchronize (volatile load (may be a flag shared with a kernel) at host-device-flags.cu:{{[0-9]+}})
  }
}

// A volatile local nothing else can see is no flag; one whose address
// escapes may be.
int *volatile published;
void locals(float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    volatile int sink = i;
    consume<<<1, 32, 0, s>>>(x);
    sink = sink + 1;
    consume<<<1, 32, 0, s>>>(x);
  }
}
// REGION: remark: formed graph region in 'locals(float*, int, CUstream_st*)': loop iteration
void escaped_local(float *x, int n, cudaStream_t s) {
  volatile int flag = 0;
  published = (int *)&flag;
  for (int i = 1; i <= n; ++i) {
    consume<<<1, 32, 0, s>>>(x);
    while (flag != i) {
    }
    consume<<<1, 32, 0, s>>>(x);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after volatile load (may be a flag shared with a kernel) at host-device-flags.cu:[[@LINE-3]]
  }
}

// Counting and fencing do not wait: the region stays whole.
void count(int *counter, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    consume<<<1, 32, 0, s>>>(x);
    __atomic_fetch_add(counter, 1, __ATOMIC_ACQ_REL);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    consume<<<1, 32, 0, s>>>(x);
  }
}
// REGION-NOT: formed graph region in 'spin
// REGION: remark: formed graph region in 'count(int*, float*, int, CUstream_st*)': loop iteration
