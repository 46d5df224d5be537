// fault_inject.cu - a launch error inside a graphed loop.  At one iteration a
// launch has an invalid configuration; the program checks for errors at its
// synchronization points, as real code does.  With pygraph the error must
// still reach the program (at the latest at the next synchronizing call), the
// other launches must run exactly once, and the output must match.
#include "common.h"

__global__ void step(float *x, int n, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * a + 1.0f;
}

__global__ void mix(const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += x[(i * 7) % n] * 0.001f;
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 2000);
  const long bad_at = iters / 2;
  const int n = 1 << 14;
  float *x, *y;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMemset(x, 0, n * sizeof(float)));
  CHECK(cudaMemset(y, 0, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  long errors_seen = 0, first_error_check = -1;
  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    step<<<n / 256, 256, 0, s>>>(x, n, 0.999f);
    // Block size 2048 is invalid: this launch fails once, the others run.
    const int threads = it == bad_at ? 2048 : 256;
    mix<<<n / threads, threads, 0, s>>>(x, y, n);
    step<<<n / 256, 256, 0, s>>>(y, n, 0.9999f);
    if (it % 100 == 99) {
      CHECK(cudaStreamSynchronize(s));
      cudaError_t e = cudaGetLastError();
      if (e != cudaSuccess) {
        ++errors_seen;
        if (first_error_check < 0) first_error_check = it;
        printf("error %s reported by iteration %ld\n", cudaGetErrorName(e), it);
      }
    }
  }
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();
  printf("errors seen: %ld (first at the check of iteration %ld)\n", errors_seen,
         first_error_check);
  Fnv1a64 f;
  f.add_device(x, n);
  f.add_device(y, n);
  f.print();
  print_loop_ms(t1 - t0);
  return errors_seen == 1 ? 0 : 1;
}
