// nvcc-only spellings clang rejects: spaced chevrons (here and in spaced.cuh),
// `register` in C++17, a CCCL header CUDA 13 keeps in include/cccl.
#include <thrust/version.h>
#include "spaced.cuh"
__global__ void k(float *p) { register int i = threadIdx.x; p[i] = 0.0f; }
void run(float *p, int n) {
  for (int i = 0; i < n; ++i) {
    k<< <1, 32>> >(p);
    launch_from_header(p);
  }
}
const char *where() { return __FILE__; }
int line() { return __LINE__; }
