// across_files_helpers.cu - the other translation unit of across_files.cu:
// the solver's steps, as a project keeps them in a file of their own.  The
// pass compiling across_files.cu cannot see into these functions; built
// with pygraph too, they route their launches and report their one barrier
// (the host reading the residual) themselves.
#include "common.h"

constexpr int T = 256;

__global__ void diffuse(float *out, const float *in, int n, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float l = in[i == 0 ? n - 1 : i - 1], r = in[i + 1 == n ? 0 : i + 1];
    out[i] = in[i] + k * (l - 2.0f * in[i] + r);
  }
}

__global__ void damp(float *x, int n, float f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= f;
}

// Two launches, no barrier: one step of explicit diffusion, then damping.
void diffuse_step(float *out, const float *in, int n, float k) {
  diffuse<<<(n + T - 1) / T, T>>>(out, in, n, k);
  damp<<<(n + T - 1) / T, T>>>(out, n, 0.999f);
}

// A barrier: the host reads one value back (a progress probe).
float probe(const float *x) {
  float v = 0.0f;
  CHECK(cudaMemcpy(&v, x, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}
