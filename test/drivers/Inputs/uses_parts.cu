// main of a program made of a .cu, a .cpp and a .c file.
#include <cuda_runtime.h>
int host_part();
extern "C" int c_part(void);
__global__ void k(int *p) { *p = 1; }
int main() {
  int *d;
  cudaMalloc(&d, 4);
  for (int i = 0; i < 3; ++i) { k<<<1, 1>>>(d); k<<<1, 1>>>(d); }
  return host_part() + c_part() == 0;
}
