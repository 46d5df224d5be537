// across_files.cu - issue 18, across source files: the loop's work is done
// by functions defined in another file (across_files_helpers.cu), between
// launches of this file's own kernels:
//
//   for it:  shift<<<>>>(a)                 this file
//            diffuse_step(b, a)             the helpers' file: 2 launches
//            shift<<<>>>(b)
//            diffuse_step(a, b)             2 launches
//            every 1000th: probe(a)         the helpers' file: reads a value back
//
// Compiled file by file, the pass cannot see whether diffuse_step
// synchronizes; built with pygraph too, the helpers' file says so at run
// time, so the whole iteration is one graph (and the probe's barrier, in the
// other file, splits the iteration where it happens).  The checksum hashes a
// and every probed value.
//
//   usage: across_files [iterations=20000] [elements=65536]
#include "common.h"

void diffuse_step(float *out, const float *in, int n, float k);
float probe(const float *x);

constexpr int T = 256;

// x[i] += 0.001 * ((i + it) % 7) - 0.003
__global__ void shift(float *x, int n, int it) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 0.001f * (float)((i + it) % 7) - 0.003f;
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 20000);
  const int n = (int)arg_long(argc, argv, 2, 65536);
  std::vector<float> h(n);
  Rng rng(4242);
  for (int i = 0; i < n; ++i) h[i] = rng.uniform(-1.0f, 1.0f);
  float *a, *b;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMemcpy(a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const int blocks = (n + T - 1) / T;
  std::vector<float> probes;

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    shift<<<blocks, T>>>(a, n, (int)it);
    diffuse_step(b, a, n, 0.2f);
    shift<<<blocks, T>>>(b, n, (int)it + 1);
    diffuse_step(a, b, n, 0.2f);
    if (it % 1000 == 999) probes.push_back(probe(a));
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  Fnv1a64 f;
  f.add_device(a, n);
  for (float v : probes) f.add(&v, sizeof v);
  printf("across_files: %ld iterations on %d elements, %zu probes\n", iters, n, probes.size());
  f.print();
  print_loop_ms(t1 - t0);
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  return 0;
}
