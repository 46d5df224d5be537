// unpredictable.cu - a launch loop whose shape changes unpredictably: every
// iteration draws, from a fixed-seed host RNG (data-independent), how many
// kernels to launch (1..12), which of four kernels each one is, which ring
// buffers it reads and writes, and its scalar argument.  Consecutive
// iterations almost never launch the same sequence, so a CUDA graph would be
// rebuilt nearly every iteration: the case where graphs should NOT be used,
// and where a pygraph build must not run slower than the plain one.
//
//   usage: unpredictable [iterations=40000]
#include "common.h"

#include <cmath>

constexpr int LEN = 1024;        // elements per buffer (small: launch-bound)
constexpr int T = 256;
constexpr int B = LEN / T;
constexpr int RING = 6;          // buffers in the ring
constexpr int MAX_K = 12;        // kernels per iteration: 1 .. MAX_K
constexpr uint64_t SEED = 0x5eed2024ull;

// c = s*a + (1-s)*b
__global__ void k_mix(const float *__restrict__ a, const float *__restrict__ b,
                      float *__restrict__ c, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = s * a[i] + (1.0f - s) * b[i];
}

// c = a + 0.1*s*sin(a + 0.05 i)   (the phase keeps the elements distinct;
// mix and shift alone would average every buffer to a constant)
__global__ void k_wobble(const float *__restrict__ a, float *__restrict__ c, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + 0.1f * s * sinf(a[i] + 0.05f * (float)i);
}

// c[i] = 0.5 (a[i] + a[(i + off) % n])
__global__ void k_shift(const float *__restrict__ a, float *__restrict__ c, int n, int off) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = 0.5f * (a[i] + a[(i + off) % n]);
}

// c = clamp(c * s, -4, 4)   (in place)
__global__ void k_scale(float *c, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = fminf(fmaxf(c[i] * s, -4.0f), 4.0f);
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 40000);

  float *ring[RING];
  Rng init(31337);
  std::vector<float> h(LEN);
  for (int r = 0; r < RING; ++r) {
    CHECK(cudaMalloc(&ring[r], LEN * sizeof(float)));
    for (float &x : h) x = init.uniform(-2.0f, 2.0f);
    CHECK(cudaMemcpy(ring[r], h.data(), LEN * sizeof(float), cudaMemcpyHostToDevice));
  }
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  // The schedule comes only from this RNG (never from device data), so every
  // build and every run launches exactly the same sequence.
  Rng rng(SEED);
  long launches = 0;
  long per_kind[4] = {0, 0, 0, 0};

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    const int nk = 1 + (int)(rng.next() % MAX_K);
    for (int k = 0; k < nk; ++k) {
      const uint64_t r = rng.next();
      const int kind = (int)(r & 3);
      // Destination and two distinct sources, never aliasing the destination.
      const int dst = (int)((r >> 8) % RING);
      const int src1 = (dst + 1 + (int)((r >> 16) % (RING - 1))) % RING;
      const int src2 = (dst + 1 + (int)((r >> 24) % (RING - 1))) % RING;
      float *c = ring[dst];
      const float *a = ring[src1], *b = ring[src2];
      switch (kind) {
      case 0:
        k_mix<<<B, T, 0, s>>>(a, b, c, LEN, rng.uniform(0.2f, 0.8f));
        break;
      case 1:
        k_wobble<<<B, T, 0, s>>>(a, c, LEN, rng.uniform(0.5f, 1.5f));
        break;
      case 2:
        k_shift<<<B, T, 0, s>>>(a, c, LEN, 1 + (int)((r >> 32) % (LEN - 1)));
        break;
      default:
        k_scale<<<B, T, 0, s>>>(c, LEN, rng.uniform(0.6f, 1.4f));
        break;
      }
      CHECK(cudaGetLastError());
      ++per_kind[kind];
    }
    launches += nk;
  }
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  Fnv1a64 f;
  bool ok = true;
  for (int r = 0; r < RING; ++r) {
    CHECK(cudaMemcpy(h.data(), ring[r], LEN * sizeof(float), cudaMemcpyDeviceToHost));
    for (float x : h)
      if (!std::isfinite(x) || std::fabs(x) > 8.0f) ok = false;
    f.add_host(h);
  }
  printf("unpredictable: %ld iterations, %ld launches (mix %ld, wobble %ld, shift %ld, scale %ld)\n",
         iters, launches, per_kind[0], per_kind[1], per_kind[2], per_kind[3]);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  f.print();
  print_loop_ms(t1 - t0);

  CHECK(cudaStreamDestroy(s));
  for (int r = 0; r < RING; ++r) CHECK(cudaFree(ring[r]));
  return ok ? 0 : 1;
}
