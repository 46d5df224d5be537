// Odd control flow in loops judged as whole-loop graphs: the pass judges
// them without crashing, at every optimisation level, and says why.
// RUN: %cuda_host -O2 -g -fplugin=%plugin -Rpass-analysis=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %cuda_host -O1 -fplugin=%plugin -Rpass-analysis=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: %cuda_host -O3 -fplugin=%plugin -Rpass-analysis=pygraph -Rpass-missed=pygraph -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANY
// RUN: %cuda_host -Os -fplugin=%plugin -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// ANY-COUNT-5: remark: {{loop \(lines [0-9]+-[0-9]+\) not a whole-loop candidate|whole loop as one conditional graph: candidate}}
// IR-COUNT-2: @.pygraph.whole_loop{{[.0-9]*}} = private constant
#include <cuda_runtime.h>
#include <string>
#include <stdexcept>
struct Status {
  int notconv;
  int code;
  float res;
};
__global__ void k(float *p, int i) {}
__global__ void k2(float *p, Status *st) {}
void note(const std::string &s);

// A cycle LoopInfo does not call a loop (irreducible, through goto).
int irreducible(float *p, Status *d_st, int phase) {
  Status st;
  int it = 0;
  do {
    // CHECK: whole-loop-odd.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+11]]) not a whole-loop candidate: the iteration branches at whole-loop-odd.cu:[[#@LINE+2]] on something other than an exit test or a CUDA error check
    k<<<64, 256>>>(p, it);
    if (phase & 1)
      goto second;
  first:
    k2<<<64, 256>>>(p, d_st);
  second:
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    if (st.code == 3 && ++phase < 100)
      goto first;
    ++it;
  } while (st.notconv);
  return it;
}

// Launches through invoke (a local with a destructor); std::string writes
// memory whose address escapes.
int with_cleanups(float *p, Status *d_st) {
  Status st;
  int it = 0;
  do {
    // CHECK: whole-loop-odd.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+6]]) not a whole-loop candidate: host store to escaping memory (store to a local variable whose address escapes) at basic_string.h:{{[0-9]+}}
    std::string tag("sweep");
    k<<<64, 256>>>(p, it);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    ++it;
  } while (st.notconv);
  return it;
}

// An exit through a throw is an exit test like any other.
int throws(float *p, Status *d_st) {
  Status st;
  int it = 0;
  do {
    // CHECK: whole-loop-odd.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@4 < 0; after the status copy, leave when status.i32@0 == 0; 3 operations, status copy of 12 bytes; operands: 4 invariant, 1 affine, 0 rotating)
    k<<<64, 256>>>(p, it);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    if (st.code < 0)
      throw std::runtime_error("diverged");
    ++it;
  } while (st.notconv);
  return it;
}

// Exits through a switch: a branch the form does not follow.
int switched(float *p, Status *d_st) {
  Status st;
  for (int it = 0;; ++it) {
    // CHECK: whole-loop-odd.cu:[[@LINE-1]]:3: remark: loop (lines [[#@LINE-1]]-[[#@LINE+10]]) not a whole-loop candidate: the iteration branches at whole-loop-odd.cu:[[#@LINE+4]] on something other than an exit test or a CUDA error check
    k<<<64, 256>>>(p, it);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    switch (st.code) {
    case 0: return it;
    case 1: return -1;
    case 7: return -7;
    default: break;
    }
  }
}

// Several exits after the copy (returns), tests made in order.
int many_exits(float *p, Status *d_st, int maxit) {
  Status st;
  for (int it = 0; it < maxit; ++it) {
    // CHECK: whole-loop-odd.cu:[[@LINE-1]]:3: remark: whole loop as one conditional graph: candidate (exit test: after the status copy, leave when status.i32@4 < 0; after the status copy, leave when status.f32@8 uno 0; after the status copy, leave when status.i32@0 == 0; after the status copy, leave when (1 + i) == inv1; 3 operations, status copy of 12 bytes; operands: 4 invariant, 1 affine, 0 rotating)
    k<<<64, 256>>>(p, it);
    k2<<<64, 256>>>(p, d_st);
    cudaMemcpy(&st, d_st, sizeof st, cudaMemcpyDeviceToHost);
    if (st.code < 0)
      return -1;
    if (st.res != st.res)
      return -2;
    if (!st.notconv)
      return it;
  }
  return maxit;
}
