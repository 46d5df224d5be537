// Host C++ compiled by the host compiler, as nvcc does, with the toolkit's headers.
#include <cuda_runtime.h>
int host_part() { register int x = 1; return x + (cudaSuccess == 0); }
