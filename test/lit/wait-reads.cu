// Every read that makes a wait loop (pass/core/wait_loops.c), beside its
// twin that is no wait.  A wait is a volatile or atomic read of memory a
// kernel may write - a load, a read-modify-write, a compare-exchange, or the
// call of a function returning one - whose value decides a loop exit: the
// host may be spinning on a flag a kernel sets, so the launches before it
// must not be deferred.  The same read whose value decides no exit, or that
// reads a local nothing else can see, is no wait: the region stays whole.
// (host-device-flags.cu has more shapes: getters in callees, polls that
// launch, reference counts, static guards.)
// RUN: %cuda_host -O2 -fplugin=%plugin -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O0 -fplugin=%plugin -Rpass=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
#include <cuda_runtime.h>
__global__ void produce(int *flag, int v) { *flag = v; }
__global__ void consume(float *x) {}
int seen;

// ---- a volatile load
void spin_volatile(volatile int *flag, float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 1>>>((int *)flag, i);
    while (*flag != i) {
    }
    consume<<<1, 1>>>(x);
    // CHECK-DAG: wait-reads.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after volatile load deciding a loop exit (the host may wait for a kernel) at wait-reads.cu:[[#@LINE-3]]
  }
}
void read_volatile(volatile int *flag, float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 1>>>((int *)flag, i);
    seen = *flag;
    consume<<<1, 1>>>(x);
  }
}
// CHECK-DAG: remark: formed graph region in 'read_volatile(int volatile*, float*, int)': loop iteration {{.*}}, 2 launch sites

// ---- an atomic load
void spin_atomic_load(int *flag, float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 1>>>(flag, i);
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) != i) {
    }
    consume<<<1, 1>>>(x);
    // CHECK-DAG: wait-reads.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after atomic load deciding a loop exit (the host may wait for a kernel) at wait-reads.cu:[[#@LINE-3]]
  }
}
void read_atomic_load(int *flag, float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 1>>>(flag, i);
    seen = __atomic_load_n(flag, __ATOMIC_ACQUIRE);
    consume<<<1, 1>>>(x);
  }
}
// CHECK-DAG: remark: formed graph region in 'read_atomic_load(int*, float*, int)': loop iteration {{.*}}, 2 launch sites

// ---- an atomic read-modify-write
void spin_rmw(int *flag, float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 1>>>(flag, i);
    while (__atomic_exchange_n(flag, 0, __ATOMIC_ACQ_REL) != i) {
    }
    consume<<<1, 1>>>(x);
    // CHECK-DAG: wait-reads.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after atomic read-modify-write deciding a loop exit (the host may wait for a kernel) at wait-reads.cu:[[#@LINE-3]]
  }
}
void count_rmw(int *flag, float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 1>>>(flag, i);
    __atomic_fetch_add(flag, 1, __ATOMIC_ACQ_REL);
    consume<<<1, 1>>>(x);
  }
}
// CHECK-DAG: remark: formed graph region in 'count_rmw(int*, float*, int)': loop iteration {{.*}}, 2 launch sites

// ---- an atomic compare-exchange: a lock or a handshake the kernel answers
void spin_cmpxchg(int *flag, float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 1>>>(flag, i);
    int expected = i;
    while (!__atomic_compare_exchange_n(flag, &expected, 0, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
      expected = i;
    consume<<<1, 1>>>(x);
    // CHECK-DAG: wait-reads.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after atomic compare-exchange deciding a loop exit (the host may wait for a kernel) at wait-reads.cu:[[#@LINE-4]]
  }
}
void try_cmpxchg(int *flag, float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 1>>>(flag, i);
    int expected = i;
    __atomic_compare_exchange_n(flag, &expected, 0, false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
    consume<<<1, 1>>>(x);
  }
}
// CHECK-DAG: remark: formed graph region in 'try_cmpxchg(int*, float*, int)': loop iteration {{.*}}, 2 launch sites
// A spin on a local no one else can see never waits for a kernel.
void spin_private_cmpxchg(float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    int local = i, expected = i;
    consume<<<1, 1>>>(x);
    while (!__atomic_compare_exchange_n(&local, &expected, 0, false, __ATOMIC_ACQ_REL,
                                        __ATOMIC_ACQUIRE))
      expected = i;
    consume<<<1, 1>>>(x);
  }
}
// CHECK-DAG: remark: formed graph region in 'spin_private_cmpxchg(float*, int)': loop iteration {{.*}}, 2 launch sites

// ---- the call of a function returning such a read
__attribute__((noinline)) int current(volatile int *flag) { return *flag; }
void spin_getter(volatile int *flag, float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 1>>>((int *)flag, i);
    while (current(flag) != i) {
    }
    consume<<<1, 1>>>(x);
    // CHECK-DAG: wait-reads.cu:[[@LINE-1]]:5: remark: launch of 'consume(float*)' stays eager: only 1 launch site after call of 'current(int volatile*)', a volatile or atomic read, deciding a loop exit (the host may wait for a kernel) at wait-reads.cu:[[#@LINE-3]]
  }
}
void read_getter(volatile int *flag, float *x, int n) {
  for (int i = 1; i <= n; ++i) {
    produce<<<1, 1>>>((int *)flag, i);
    seen = current(flag);
    consume<<<1, 1>>>(x);
  }
}
// CHECK-DAG: remark: formed graph region in 'read_getter(int volatile*, float*, int)': loop iteration {{.*}}, 2 launch sites
