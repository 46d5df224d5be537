// The IR the plugin leaves behind passes the verifier, host and device, at
// -O0 and -O2 (clang's cc1 runs without it, so a broken twin or region would
// otherwise crash code generation).  Kernels with loops give the twins' cloned
// bodies phis whose incoming block is the entry block.
// RUN: %cuda_device -O2 -fplugin=%plugin -S -emit-llvm %s -o - | opt -passes=verify -disable-output
// RUN: %cuda_device -O0 -fplugin=%plugin -S -emit-llvm %s -o - | opt -passes=verify -disable-output
// RUN: %cuda_host -O2 -fplugin=%plugin -S -emit-llvm %s -o - | opt -passes=verify -disable-output
// RUN: %cuda_host -O0 -fplugin=%plugin -S -emit-llvm %s -o - | opt -passes=verify -disable-output
// RUN: %cuda -O2 -fplugin=%plugin -c %s -o /dev/null
__global__ void reduce(const float *a, int n, float *out) {
  float s = 0.0f;
  for (int k = threadIdx.x; k < n; k += blockDim.x) s += a[k];
  if (threadIdx.x == 0) *out = s;
}
__global__ void scale(float *a, int n, float f) {
  for (int k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x)
    a[k] *= f;
}
void run(float *a, float *o, int n, int steps) {
  for (int t = 0; t < steps; ++t) {
    reduce<<<1, 128>>>(a, n, o);
    scale<<<4, 128>>>(a, n, 0.5f + t);
  }
}
