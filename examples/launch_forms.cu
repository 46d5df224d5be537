// launch_forms.cu - issue 18: a loop whose launches come in the forms that
// ended regions before pygraph took them in:
//
//   cudaFuncSetAttribute(stencil, MaxDynamicSharedMemorySize, 64 KiB)   every iteration
//   stencil<<<blocks, 256, 64 KiB>>>(y, x, it)                          needs that limit
//   cudaLaunchKernelEx(cluster dimension 2, priority): pairs(x, y)       launch attributes
//   cudaTextureObject_t made once, destroyed after the loop; read by blend<<<>>>
//
// The attribute call is made at once (a kernel setting touches no stream);
// the cluster launch keeps its attributes on its graph node.  Everything
// runs on the legacy default stream.  The checksum hashes x after the loop.
//
//   usage: launch_forms [iterations=20000] [elements=65536]
#include "common.h"

constexpr int T = 256;
constexpr int kSmem = 64 * 1024;          // above the 48 KiB default: needs the attribute

// y[i] = mean of x over a window staged in dynamic shared memory, + 0.001 (it % 13)
__global__ void stencil(float *y, const float *x, int n, int it) {
  extern __shared__ float s[];
  const int per = kSmem / sizeof(float) / T;      // floats each thread stages
  int base = blockIdx.x * T;
  for (int k = 0; k < per; ++k) {
    int j = base + (threadIdx.x * per + k) % (T * 2);
    s[threadIdx.x * per + k] = x[j % n];
  }
  __syncthreads();
  int i = base + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
    for (int k = 0; k < per; ++k) acc += s[((threadIdx.x + 1) % T) * per + k];
    y[i] = acc / (float)per + 0.001f * (float)(it % 13);
  }
}

// x[i] = 0.5 y[i] + 0.5 y[partner] (the same place in the other block of
// its pair), kept in [-4, 4).  Launched in clusters of 2 blocks (a launch
// attribute): the result does not depend on it, the launch form does.
__global__ void pairs(float *x, const float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int partner = (blockIdx.x ^ 1) * blockDim.x + threadIdx.x;
  if (i < n && partner < n) {
    float v = 0.5f * y[i] + 0.5f * y[partner];
    x[i] = v - 8.0f * floorf((v + 4.0f) * 0.125f);
  }
}

// x[i] += 0.01 * tex(i) (a texture object over a constant table)
__global__ void blend(float *x, cudaTextureObject_t tex, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 0.01f * tex1Dfetch<float>(tex, i % 1024);
}

int main(int argc, char **argv) {
  const long iters = arg_long(argc, argv, 1, 20000);
  int n = (int)arg_long(argc, argv, 2, 65536);
  n = (n + 2 * T - 1) / (2 * T) * (2 * T);        // whole clusters of 2 blocks
  std::vector<float> h(n), table(1024);
  Rng rng(3141);
  for (int i = 0; i < n; ++i) h[i] = rng.uniform(-1.0f, 1.0f);
  for (int i = 0; i < 1024; ++i) table[i] = rng.uniform(-1.0f, 1.0f);
  float *x, *y, *d_table;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  CHECK(cudaMalloc(&y, n * sizeof(float)));
  CHECK(cudaMalloc(&d_table, 1024 * sizeof(float)));
  CHECK(cudaMemcpy(x, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_table, table.data(), 1024 * sizeof(float), cudaMemcpyHostToDevice));
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeLinear;
  rd.res.linear.devPtr = d_table;
  rd.res.linear.desc = cudaCreateChannelDesc<float>();
  rd.res.linear.sizeInBytes = 1024 * sizeof(float);
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t tex;
  CHECK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
  const int blocks = n / T;

  cudaLaunchAttribute attrs[2];
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[0].val.clusterDim.x = 2;
  attrs[0].val.clusterDim.y = 1;
  attrs[0].val.clusterDim.z = 1;
  attrs[1].id = cudaLaunchAttributePriority;
  attrs[1].val.priority = 0;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(T);
  config.attrs = attrs;
  config.numAttrs = 2;

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long it = 0; it < iters; ++it) {
    CHECK(cudaFuncSetAttribute(stencil, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem));
    stencil<<<blocks, T, kSmem>>>(y, x, n, (int)it);
    CHECK(cudaLaunchKernelEx(&config, pairs, x, (const float *)y, n));
    blend<<<blocks, T>>>(x, tex, n);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  Fnv1a64 f;
  f.add_device(x, n);
  printf("launch_forms: %ld iterations on %d elements\n", iters, n);
  f.print();
  print_loop_ms(t1 - t0);
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(d_table));
  return 0;
}
