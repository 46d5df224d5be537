// while_body_cond.cu - while_body_bench's condition kernel as a module of its
// own, compiled to PTX and loaded at run time (its "lib" variant), as
// pygraph's condition kernel is: does a kernel loaded that way cost more as a
// WHILE body's node?  Counter is while_body_bench.cu's.
//
// build: clang++ --cuda-device-only -S --cuda-gpu-arch=sm_90 -O2 while_body_cond.cu -o cond.ptx
#include "while_bench_body.h"

struct Counter {
  unsigned long long it, limit;
  Status seen;
};

extern "C" __global__ void cond_lib(Counter *c, const Status *st, int copy_itself,
                                    cudaGraphConditionalHandle h, int) {
  if (copy_itself)
    c->seen = *st;
  unsigned keep = ++c->it < c->limit && (c->seen.pad == 0 || st->pad == 0);
  cudaGraphSetConditional(h, keep);
}
