// Host code and a __host__ __device__ function calling min/max, which nvcc
// declares for the host too; the values follow nvcc's overloads.
#include <cstdio>
__host__ __device__ int clamp(int v, int lo, int hi) { return max(lo, min(v, hi)); }
int main() {
  printf("%u %d %g %g %ld %d\n", max(-1, 2u), clamp(7, 0, 5), min(1.5f, 2.0), max(2.5f, 1.0f),
         max(3L, 4L), min(-3, 4));
  return 0;
}
