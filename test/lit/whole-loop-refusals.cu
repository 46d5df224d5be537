// Why a loop is not a whole-loop candidate, first reason first, each
// refusal the brief names beside its positive twin (the same loop with the
// one thing changed that makes it a candidate), then the other reasons.
// The forms that qualify: whole-loop-forms.cu.
// RUN: %cuda_host -O2 -g -fplugin=%plugin -Rpass-analysis=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// At -O0 variables live in memory: every loop says so.
// RUN: %cuda_host -O0 -g -fplugin=%plugin -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=O0
// O0: whole-loop-refusals.cu:{{[0-9]+}}:3: remark: loop (lines {{[0-9]+}}-{{[0-9]+}}) not a whole-loop candidate: the function is compiled without optimisation (-O0), its variables live in memory (compile with -O1 or higher)
// O0-NOT: remark: whole loop as one conditional graph
// The descriptors of the twins only.
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-COUNT-10: @.pygraph.whole_loop{{[.0-9]*}} = private constant
// IR-NOT: @.pygraph.whole_loop{{[.0-9]*}} = private constant
#include <cuda_runtime.h>
#include <stdio.h>
struct Status {
  int notconv;
  float res;
};
struct Big {
  int notconv;
  float hist[255];
};
__global__ void k(float *p, int i) {}
__global__ void k2(float *p, Status *st) {}
__global__ void kb(float *p, Big *st) {}
int g_iters;
int *g_stop;

// A host store to a global: the whole-loop graph would skip it.  Twin: a
// local (promoted to a value), stored to the global after the loop.
int store_global(float *p, Status *d_st) {
  Status st;
  int it = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+5]]) not a whole-loop candidate: host store to escaping memory (store to 'g_iters') at whole-loop-refusals.cu:[[#@LINE+4]]
    k<<<64, 256>>>(p, it);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    g_iters = ++it;
  } while (st.notconv);
  return it;
}
int store_local(float *p, Status *d_st) {
  Status st;
  int it = 0, iters = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0; 3 operations, status copy of 8 bytes; operands: 4 invariant, 1 affine, 0 rotating)
    k<<<64, 256>>>(p, it);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    iters = ++it;
  } while (st.notconv);
  g_iters = iters;
  return it;
}

// printf in the loop has an effect the graph would skip.  Twin: after it.
int with_printf(float *p, Status *d_st) {
  Status st;
  int it = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+6]]) not a whole-loop candidate: call with effects 'printf' at whole-loop-refusals.cu:[[#@LINE+4]]
    k<<<64, 256>>>(p, it);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    printf("residual %g\n", st.res);
    ++it;
  } while (st.notconv);
  return it;
}
int printf_after(float *p, Status *d_st) {
  Status st;
  int it = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0; 3 operations, status copy of 8 bytes; operands: 4 invariant, 1 affine, 0 rotating)
    k<<<64, 256>>>(p, it);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    ++it;
  } while (st.notconv);
  printf("residual %g after %d\n", st.res, it);
  return it;
}

// Two status copies.  Twin: one copy of a status holding both.
int two_copies(float *p, Status *d_st, float *d_res) {
  Status st;
  float res;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+5]]) not a whole-loop candidate: two status copies (at whole-loop-refusals.cu:[[#@LINE+3]] and at whole-loop-refusals.cu:[[#@LINE+4]])
    k<<<64, 256>>>(p, 0);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    cudaMemcpy(&res, d_res, sizeof res, cudaMemcpyDeviceToHost);
  } while (st.notconv && res > 1e-3f);
  return st.notconv;
}
int one_copy(float *p, Status *d_st) {
  Status st;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0 || !(status.f32@4 > 0.001); 3 operations, status copy of 8 bytes; operands: 5 invariant, 0 affine, 0 rotating)
    k<<<64, 256>>>(p, 0);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv && st.res > 1e-3f);
  return st.notconv;
}

// A status over PYGRAPH_WL_MAX_STATUS_BYTES (256).  Twin: 256 bytes of it.
int too_large(float *p, Big *d_st) {
  Big st;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+4]]) not a whole-loop candidate: status copy of 1024 bytes at whole-loop-refusals.cu:[[#@LINE+3]] (at most 256)
    k<<<64, 256>>>(p, 0);
    kb<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv);
  return st.hist[3];
}
int large_enough(float *p, Big *d_st) {
  Big st;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0; 3 operations, status copy of 256 bytes; operands: 5 invariant, 0 affine, 0 rotating)
    k<<<64, 256>>>(p, 0);
    kb<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, 256, cudaMemcpyDeviceToHost);
  } while (st.notconv);
  return st.hist[3];
}

// An argument read from host memory the loop writes.  Twin: memory the
// loop does not write (an invariant load).
int arg_from_memory(float *p, Status *d_st, int n) {
  Status st;
  int sched[64];
  for (int j = 0; j < 64; ++j)
    sched[j] = j * n;
  int it = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+6]]) not a whole-loop candidate: argument 'i' of launch of 'k(float*, int)' at whole-loop-refusals.cu:[[#@LINE+1]] evolves in no known pattern (read from host memory the loop writes at whole-loop-refusals.cu:[[#@LINE+1]])
    k<<<64, 256>>>(p, sched[it & 63]);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    sched[(it + 1) & 63] += st.notconv;
    ++it;
  } while (st.notconv);
  return it;
}
int arg_invariant_memory(float *p, Status *d_st, int n) {
  Status st;
  int sched[64];
  for (int j = 0; j < 64; ++j)
    sched[j] = j * n;
  int it = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0; 3 operations, status copy of 8 bytes; operands: 5 invariant, 0 affine, 0 rotating)
    k<<<64, 256>>>(p, sched[7]);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    ++it;
  } while (st.notconv);
  return it;
}

// An exit test on a value the host computes from the status.  Twin: a
// product of invariants.
int test_computed(float *p, Status *d_st, float tol) {
  Status st;
  int it = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+5]]) not a whole-loop candidate: exit test at whole-loop-refusals.cu:[[#@LINE+5]] reads a value the iteration computes on the host from the status (at whole-loop-refusals.cu:[[#@LINE+5]])
    k<<<64, 256>>>(p, it);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    ++it;
  } while (st.res * st.res > tol);
  return it;
}
int test_field(float *p, Status *d_st, float tol) {
  Status st;
  int it = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when !(status.f32@4 > inv1); 3 operations, status copy of 8 bytes; operands: 4 invariant, 1 affine, 0 rotating)
    k<<<64, 256>>>(p, it);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    ++it;
  } while (st.res > tol * tol);
  return it;
}

struct Wide {
  int v[32];
};

// Other barriers: an allocation the pool does not serve.
int allocates(float *p, Status *d_st) {
  Status st;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+8]]) not a whole-loop candidate: cudaMallocPitch allocates at whole-loop-refusals.cu:[[#@LINE+3]] in the iteration
    float *tmp;
    size_t pitch;
    cudaMallocPitch(&tmp, &pitch, 64, 1);
    k<<<64, 256>>>(tmp, 0);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    cudaFree(tmp);
  } while (st.notconv);
  return 0;
}

// A host-to-device reset of the status synchronizes.  Twin: a memset.
int reset_by_copy(float *p, Status *d_st) {
  Status st, zero = {0, 0.0f};
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+5]]) not a whole-loop candidate: copy at whole-loop-refusals.cu:[[#@LINE+1]] host to device: only the status copy may touch host memory
    cudaMemcpy(d_st, &zero, sizeof zero, cudaMemcpyHostToDevice);
    k2<<<64, 256>>>(p, d_st);
    k<<<64, 256>>>(p, 0);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv);
  return 0;
}
int reset_by_memset(float *p, Status *d_st) {
  Status st;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0; 4 operations, status copy of 8 bytes; operands: 9 invariant, 0 affine, 0 rotating)
    cudaMemsetAsync(d_st, 0, sizeof st);
    k2<<<64, 256>>>(p, d_st);
    k<<<64, 256>>>(p, 0);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv);
  return 0;
}

// A loop inside the iteration (named before the branch that guards it).
int inner(float *p, Status *d_st, int m) {
  Status st;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+5]]) not a whole-loop candidate: the iteration contains a loop (lines [[#@LINE+1]]-[[#@LINE+2]])
    for (int j = 0; j < m; ++j)
      k<<<64, 256>>>(p, j);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv);
  return 0;
}

// A launch only some iterations make.
int branches(float *p, Status *d_st) {
  Status st;
  int it = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+6]]) not a whole-loop candidate: the iteration branches at whole-loop-refusals.cu:[[#@LINE+1]] on something other than an exit test or a CUDA error check
    if (it % 10 == 0)
      k<<<64, 256>>>(p, it);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    ++it;
  } while (st.notconv);
  return it;
}

// A local variable stored in the loop and read after it.
int read_after(float *p, Status *d_st) {
  Status st;
  int hist[8] = {0};
  int it = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+6]]) not a whole-loop candidate: host store to a local variable at whole-loop-refusals.cu:[[#@LINE+4]] that is read outside the loop at whole-loop-refusals.cu:[[#@LINE+7]]
    k<<<64, 256>>>(p, it);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    hist[it & 7] = st.notconv;
    ++it;
  } while (st.notconv);
  return hist[3];
}

// An asynchronous copy no synchronize completes before the test.
int unsynced(float *p, Status *d_st, Status *h_st, cudaStream_t s) {
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+4]]) not a whole-loop candidate: asynchronous status copy at whole-loop-refusals.cu:[[#@LINE+3]] that no synchronize of its stream completes
    k<<<64, 256, 0, s>>>(p, 0);
    k2<<<64, 256, 0, s>>>(p, d_st);
    cudaMemcpyAsync(h_st, d_st, sizeof *h_st, cudaMemcpyDeviceToHost, s);
  } while (h_st->notconv);
  return 0;
}

// An exit test between two launches.
int exit_between(float *p, Status *d_st, int maxit) {
  Status st;
  int it = 0;
  for (;;) {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+8]]) not a whole-loop candidate: exit test at whole-loop-refusals.cu:[[#@LINE+2]] between two operations of the iteration
    k<<<64, 256>>>(p, 0);
    if (++it > maxit)
      break;
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    if (!st.notconv)
      break;
  }
  return it;
}

// A loop that synchronizes but copies no status: a counted loop (its exit
// test reads only its counter), a candidate with no status operation.
int no_copy(float *p, int n) {
  for (int it = 0; it < n; ++it) {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: at the end of the iteration, leave when (1 + i) == inv0; 2 operations, counted: no status copy; operands: 2 invariant, 2 affine, 0 rotating)
    k<<<64, 256>>>(p, it);
    k<<<64, 256>>>(p, it + 1);
    cudaDeviceSynchronize();
  }
  return 0;
}

// A launch configuration that changes.
int grid_varies(float *p, Status *d_st) {
  Status st;
  int it = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+5]]) not a whole-loop candidate: the grid of launch of 'k(float*, int)' at whole-loop-refusals.cu:[[#@LINE+1]] changes from iteration to iteration
    k<<<it + 1, 256>>>(p, 0);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    ++it;
  } while (st.notconv);
  return it;
}

// A value the host computes in the loop and uses after it.
float live_out(float *p, Status *d_st) {
  Status st;
  float sum = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+5]]) not a whole-loop candidate: a value computed in the loop at whole-loop-refusals.cu:[[#@LINE+4]] is used after it at whole-loop-refusals.cu:[[#@LINE+6]]
    k<<<64, 256>>>(p, 0);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    sum += st.res;
  } while (st.notconv);
  return sum;
}

// Exit tests beyond PYGRAPH_EXIT_MAX_NODES (64) nodes.
struct Mixed {
  int a0; float f0; short s0; double d0; int a1; float f1; short s1; double d1;
  int a2; float f2; short s2; double d2; int a3; float f3; short s3; double d3;
  int a4; float f4; short s4; double d4;
};
int complex_test(float *p, Mixed *d_m, float t) {
  Mixed m;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+7]]) not a whole-loop candidate: exit tests too complex for the descriptor (65 nodes or stack entries; at most 64 nodes, 8 deep)
    k<<<64, 256>>>(p, 0);
    k<<<64, 256>>>(p, 1);
    cudaMemcpy(&m, d_m, sizeof m, cudaMemcpyDeviceToHost);
  } while (m.a0 > 0 && m.f0 < t && m.s0 != 2 && m.d0 > 0.5 && m.a1 < 7 && m.f1 > t &&
           m.s1 != 9 && m.d1 < 0.25 && m.a2 != 3 && m.f2 >= t && m.s2 > 4 && m.d2 <= 0.125 &&
           m.a3 >= 5 && m.f3 != t && m.s3 < 6 && m.d3 != 2.0 && m.a4 != 8 && m.f4 < t &&
           m.s4 != 1 && m.d4 > 3.0);
  return 0;
}

// An exit test reading host memory other than the status.
int host_flag(float *p, Status *d_st) {
  Status st;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+4]]) not a whole-loop candidate: exit test at whole-loop-refusals.cu:[[#@LINE+4]] reads host memory others may write (at whole-loop-refusals.cu:[[#@LINE+4]])
    k<<<64, 256>>>(p, 0);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv && !*g_stop);
  return 0;
}

// A module function that launches, called from the loop.
__attribute__((noinline)) void launch_both(float *p, Status *d_st) {
  k<<<64, 256>>>(p, 0);
  k2<<<64, 256>>>(p, d_st);
}
int launching_callee(float *p, Status *d_st) {
  Status st;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+4]]) not a whole-loop candidate: call of 'launch_both(float*, Status*)' at whole-loop-refusals.cu:[[#@LINE+1]], which launches kernels itself
    launch_both(p, d_st);
    k<<<64, 256>>>(p, 3);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv);
  return 0;
}

// A status destination that moves.
int dest_moves(float *p, float *d_res, float *h_hist, int n) {
  int it = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+4]]) not a whole-loop candidate: status copy at whole-loop-refusals.cu:[[#@LINE+3]] into a destination the loop moves
    k<<<64, 256>>>(p, 0);
    k<<<64, 256>>>(p, 1);
    cudaMemcpy(&h_hist[it], d_res, sizeof(float), cudaMemcpyDeviceToHost);
  } while (h_hist[it++] > 0.0f && it < n);
  return it;
}

// A status copy of a size not known at compile time.
int size_unknown(float *p, float *d_res, float *h, int bytes) {
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+4]]) not a whole-loop candidate: status copy at whole-loop-refusals.cu:[[#@LINE+3]] of a size not known at compile time
    k<<<64, 256>>>(p, 0);
    k<<<64, 256>>>(p, 1);
    cudaMemcpy(h, d_res, bytes, cudaMemcpyDeviceToHost);
  } while (h[0] > 0.0f);
  return 0;
}

// A host store to the status.
int status_store(float *p, Status *d_st) {
  Status st;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+5]]) not a whole-loop candidate: host store to the status at whole-loop-refusals.cu:[[#@LINE+4]]
    k<<<64, 256>>>(p, 0);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    st.res = 0;
  } while (st.notconv);
  return (int)st.res;
}

// A CUDA query writes its out-parameter: into a global it is an effect the
// loop would skip, into a local read after the loop a host write like a
// store.  Twin: the local read only in the loop.
int g_dev;
int query_global(float *p, Status *d_st) {
  Status st;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+5]]) not a whole-loop candidate: call with effects 'cudaGetDevice' at whole-loop-refusals.cu:[[#@LINE+3]]
    k<<<64, 256>>>(p, 0);
    k2<<<64, 256>>>(p, d_st);
    cudaGetDevice(&g_dev);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv);
  return 0;
}
int query_read_after(float *p, Status *d_st) {
  Status st;
  int dev = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+5]]) not a whole-loop candidate: host store to a local variable at whole-loop-refusals.cu:[[#@LINE+3]] that is read outside the loop at whole-loop-refusals.cu:[[#@LINE+6]]
    k<<<64, 256>>>(p, 0);
    k2<<<64, 256>>>(p, d_st);
    cudaGetDevice(&dev);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv);
  return dev;
}
// The out-parameter as an argument: read from memory the loop writes.
int query_as_argument(float *p, Status *d_st) {
  Status st;
  int dev = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+5]]) not a whole-loop candidate: argument 'i' of launch of 'k(float*, int)' at whole-loop-refusals.cu:[[#@LINE+2]] evolves in no known pattern (read from host memory the loop writes at whole-loop-refusals.cu:[[#@LINE+2]])
    cudaGetDevice(&dev);
    k<<<64, 256>>>(p, dev);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv);
  return 0;
}
int query_local(float *p, Status *d_st) {
  Status st;
  int dev = 0;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate
    k<<<64, 256>>>(p, 0);
    k2<<<64, 256>>>(p, d_st);
    cudaGetDevice(&dev);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv);
  return 0;
}

// A synchronous copy of a kind only the run time knows may touch host
// memory.  Twin: device to device (an operation of the iteration).
int copy_default(float *p, float *q, Status *d_st) {
  Status st;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+5]]) not a whole-loop candidate: copy at whole-loop-refusals.cu:[[#@LINE+1]] in a direction known only at run time (cudaMemcpyDefault): only the status copy may touch host memory
    cudaMemcpy(q, p, 64, cudaMemcpyDefault);
    k<<<64, 256>>>(q, 0);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv);
  return 0;
}
int copy_device(float *p, float *q, Status *d_st) {
  Status st;
  do {
    // CHECK: whole-loop-refusals.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@0 == 0; 4 operations
    cudaMemcpy(q, p, 64, cudaMemcpyDeviceToDevice);
    k<<<64, 256>>>(q, 0);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
  } while (st.notconv);
  return 0;
}
