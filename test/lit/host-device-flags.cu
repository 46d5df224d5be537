// A volatile or atomic read whose value decides whether a loop exits may be
// the host waiting for a kernel (a spin on a flag in mapped memory): were that
// kernel deferred into a graph region, the wait would never end.  Such a read
// ends the segment like a sync.  Reads that decide no loop exit (reference
// counts, guards of function-local statics, stores of progress) and reads of
// locals whose address never escapes stay harmless.
// RUN: %cuda_host -O0 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REGION
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -Rpass=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=REGION,REGION-O2
// RUN: %cuda_host -O2 -fplugin=%plugin -fplugin-arg-pygraph-across-files=0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
#include <cuda_runtime.h>
#include <atomic>
#include <memory>
__global__ void produce(volatile int *flag, float *x, int v) { if (threadIdx.x == 0) *flag = v; }
__global__ void consume(float *x) { x[threadIdx.x] *= 0.5f; }

void spin_volatile(volatile int *flag, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 32, 0, s>>>(flag, x, i);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'produce(int volatile*, float*, int)' stays eager: only 1 launch site at the start of the loop iteration before the next barrier
    while (*flag != i) {
    }
    consume<<<1, 32, 0, s>>>(x);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after volatile load deciding a loop exit (the host may wait for a kernel) at host-device-flags.cu:[[@LINE-3]]
  }
}

void spin_atomic(std::atomic<int> *flag, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 32, 0, s>>>((volatile int *)flag, x, i);
    while (flag->load(std::memory_order_acquire) != i) {
    }
    consume<<<1, 32, 0, s>>>(x);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after {{atomic load|call of 'std::__atomic_base<int>::load.*'}}
  }
}

// Reading by a read-modify-write: fetch_add(0), exchange.
void spin_rmw(int *flag, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 32, 0, s>>>(flag, x, i);
    while (__atomic_fetch_add(flag, 0, __ATOMIC_ACQUIRE) != i) {
    }
    consume<<<1, 32, 0, s>>>(x);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after atomic read-modify-write deciding a loop exit (the host may wait for a kernel) at host-device-flags.cu:[[@LINE-3]]
  }
}

// A getter the loop calls: its read decides the caller's loop exit.
static bool __attribute__((noinline)) ready(volatile int *flag, int v) { return *flag == v; }
void spin_getter(volatile int *flag, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 32, 0, s>>>(flag, x, i);
    while (!ready(flag, i)) {
    }
    consume<<<1, 32, 0, s>>>(x);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after call of 'ready(int volatile*, int)', a volatile or atomic read, deciding a loop exit (the host may wait for a kernel) at host-device-flags.cu:[[@LINE-3]]
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
// REGION: remark: formed graph region in 'poll_then_chain(int volatile*, float*, int, CUstream_st*)': loop iteration (lines {{[0-9-]+}}), 2 launch sites
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
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after call of 'wait_for(int volatile*, int)' at host-device-flags.cu:[[@LINE-2]], which may synchronize (volatile load deciding a loop exit (the host may wait for a kernel) at host-device-flags.cu:{{[0-9]+}})
  }
}

// A spin on a local whose address escapes is a wait.
int *volatile published;
void escaped_local(float *x, int n, cudaStream_t s) {
  volatile int flag = 0;
  published = (int *)&flag;
  for (int i = 1; i <= n; ++i) {
    consume<<<1, 32, 0, s>>>(x);
    while (flag != i) {
    }
    consume<<<1, 32, 0, s>>>(x);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after volatile load deciding a loop exit (the host may wait for a kernel) at host-device-flags.cu:[[@LINE-3]]
  }
}

// Not waits: the regions stay whole.
void private_counter(float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    consume<<<1, 32, 0, s>>>(x);
    for (volatile int j = 0; j < 3; j = j + 1) {
    }
    consume<<<1, 32, 0, s>>>(x);
  }
}
// REGION: remark: formed graph region in 'private_counter(float*, int, CUstream_st*)': loop iteration

void flags_set_not_read(volatile int *go, int *slot, std::atomic<int> *progress, float *x, int n,
                        cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    consume<<<1, 32, 0, s>>>(x);
    *go = i;
    progress->store(i, std::memory_order_relaxed);
    int expected = 0;
    __atomic_compare_exchange_n(slot, &expected, i, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    consume<<<1, 32, 0, s>>>(x);
  }
}
// REGION: remark: formed graph region in 'flags_set_not_read(int volatile*, int*, std::atomic<int>*, float*, int, CUstream_st*)': loop iteration

// A poll loop that may launch is a wait too: nested in the region, its
// launches would be deferred with the rest.
void poll_that_launches(volatile int *flag, float *x, int n, bool dbg, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 32, 0, s>>>(flag, x, i);
    while (*flag != i) {
      if (dbg)
        consume<<<1, 32, 0, s>>>(x);
    }
    consume<<<1, 32, 0, s>>>(x);
  }
}
// The iteration ends before every poll in the loop (at -O2 the first poll,
// hoisted in front of the loop, sees the state before produce, as eagerly).
// IR-LABEL: define {{.*}}poll_that_launches
// IR: call void @__pygraph_region_begin(
// IR: call void @__pygraph_region_end(
// IR-NEXT: load volatile i32

// The read reaches the branch through an intrinsic.
void spin_bswap(volatile unsigned *flag, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 32, 0, s>>>((volatile int *)flag, x, i);
    while (__builtin_bswap32(*flag) != __builtin_bswap32((unsigned)i)) {
    }
    consume<<<1, 32, 0, s>>>(x);
    // CHECK: host-device-flags.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after volatile load deciding a loop exit
  }
}

// The region's own loop polling a stop flag: a barrier at the poll, which
// only moves where the iteration ends; the launches stay one segment.
void stop_flag(std::atomic<bool> *stop, float *x, cudaStream_t s) {
  while (!stop->load(std::memory_order_relaxed)) {
    consume<<<1, 32, 0, s>>>(x);
    consume<<<1, 32, 0, s>>>(x);
  }
}
// REGION: remark: formed graph region in 'stop_flag(std::atomic<bool>*, float*, CUstream_st*)': loop iteration (lines {{[0-9-]+}}), 2 launch sites

void reference_counts(std::shared_ptr<float> p, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    std::shared_ptr<float> q = p;
    consume<<<1, 32, 0, s>>>(q.get());
    consume<<<1, 32, 0, s>>>(q.get());
  }
}
// REGION: remark: formed graph region in 'reference_counts(std::shared_ptr<float>, int, CUstream_st*)': loop iteration

// (At -O0 table() stays a call, and __cxa_guard_acquire, an external call in
// it, a barrier.)
struct Table { float *buf; Table(); };
static Table &table() {
  static Table t;   // guard: an acquire load on every call
  return t;
}
void local_static(int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    consume<<<1, 32, 0, s>>>(table().buf);
    consume<<<1, 32, 0, s>>>(table().buf);
  }
}
// REGION-O2: remark: formed graph region in 'local_static(int, CUstream_st*)': loop iteration

void count(int *counter, float *x, int n, cudaStream_t s) {
  for (int i = 1; i <= n; ++i) {
    consume<<<1, 32, 0, s>>>(x);
    __atomic_fetch_add((volatile int *)counter, 1, __ATOMIC_ACQ_REL);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    consume<<<1, 32, 0, s>>>(x);
  }
}
// REGION: remark: formed graph region in 'count(int*, float*, int, CUstream_st*)': loop iteration
