// Relocatable device code: kernel here, the device function it calls in rdc_b.cu.
extern __device__ int twice(int);
__global__ void k(int *p) { *p = twice(*p); }
int main() {
  int *d;
  cudaMalloc(&d, 4);
  for (int i = 0; i < 4; ++i) { k<<<1, 1>>>(d); k<<<1, 1>>>(d); }
  cudaDeviceSynchronize();
  return 0;
}
