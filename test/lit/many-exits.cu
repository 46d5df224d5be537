// A loop region with more exits than any fixed array held (70 switch cases
// that each return after a synchronous copy, plus the default and the loop's
// own exit): every exit ends the region, so no copy runs before the deferred
// launches.  Each exit block starts with __pygraph_region_end, or, the copies
// being outside the loop (which makes it batchable), __pygraph_region_exit.
// RUN: %cuda_host -O0 -fplugin=%plugin -S -emit-llvm %s -o - | awk -f %S/Inputs/guarded-copies.awk | FileCheck %s --check-prefix=O0
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | awk -f %S/Inputs/guarded-copies.awk | FileCheck %s --check-prefix=O2
// (With the former 64-exit array, 7 of the 70 copies at -O0 had no end.)
#include <cuda_runtime.h>
__global__ void k(float *p) {}

#define CASE(n) case n: cudaMemcpy(h, p, 4, cudaMemcpyDeviceToHost); return n;
#define CASE10(t) CASE(t##0) CASE(t##1) CASE(t##2) CASE(t##3) CASE(t##4) \
                  CASE(t##5) CASE(t##6) CASE(t##7) CASE(t##8) CASE(t##9)

int many_exits(float *p, float *h, const int *sel, int n) {
  for (int i = 0; i < n; ++i) {
    k<<<1, 32>>>(p);
    k<<<1, 32>>>(p);
    switch (sel[i]) {
      CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8) CASE(9)
      CASE10(1) CASE10(2) CASE10(3) CASE10(4) CASE10(5) CASE10(6)
      CASE(70)
      default: break;
    }
  }
  return 0;
}
// O0: memcpys=70 unguarded=0
// O2: unguarded=0
