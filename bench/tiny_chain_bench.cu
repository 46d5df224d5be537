// tiny_chain_bench.cu - the cost of changing kernel arguments in a CUDA graph.
//
// For N in {4, 16, 64, 256} tiny one-block kernels per iteration, every
// argument changing every iteration (rotating buffer ring + scalar), the
// hand-written ways of running the chain:
//   eager        plain <<<>>> launches
//   static       one captured graph replayed with its arguments fixed (a floor:
//                it computes something else, but no launch path can beat it)
//   setparams    the captured graph with cudaGraphExecKernelNodeSetParams on
//                every node before every replay
//   memcpy       kernels read their arguments from a device block; the graph's
//                first node copies it from a pinned host slot (a ring of slots
//                guarded by events); one memcpy-node update per replay
//   loader       the same device block, written by a first kernel node whose
//                parameters are the block (one kernel-node update per replay;
//                the update copies the parameters, so no ring, no events)
//   loader+pdl   loader, and the chain's kernels linked by programmatic edges:
//                each kernel lets its successor start early, the successor
//                loads its arguments, then waits for its predecessor
//                (griddepcontrol.wait) before touching data
//   static+pdl   the floor with the same programmatic edges
// Prints microseconds per iteration.  pygraph's own numbers are
// examples/tiny_chain built with the plugin (bench/indirection_bench.sh).
//
//   usage: tiny_chain_bench [launches_per_config=262144]
#define HAND_GRAPH 1
#include "../examples/common.h"

constexpr int LEN = 256, RING = 5, SLOTS = 8;

struct MixArgs {
  const float *a, *b;
  float *c;
  int n;
  float s;
};
static_assert(sizeof(MixArgs) == 32, "one 32-byte block per kernel");

__device__ __forceinline__ void mix_body(const MixArgs &m) {
  int k = threadIdx.x;
  if (k < m.n) m.c[k] = m.s * m.a[k] + (1.0f - m.s) * m.b[k];
}
__device__ __forceinline__ void allow_dependents() {
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
}
__device__ __forceinline__ void wait_prerequisites() {
  asm volatile("griddepcontrol.wait;" ::: "memory");
}

__global__ void mix(const float *__restrict__ a, const float *__restrict__ b,
                    float *__restrict__ c, int n, float s) {
  mix_body(MixArgs{a, b, c, n, s});
}
__global__ void mix_pdl(const float *__restrict__ a, const float *__restrict__ b,
                        float *__restrict__ c, int n, float s) {
  allow_dependents();
  wait_prerequisites();
  mix_body(MixArgs{a, b, c, n, s});
}
__global__ void mix_ind(const MixArgs *__restrict__ p) {
  MixArgs m = *p;
  mix_body(m);
}
__global__ void mix_ind_pdl(const MixArgs *__restrict__ p) {
  allow_dependents();
  MixArgs m = *p;
  wait_prerequisites();
  mix_body(m);
}

template <int K> struct Blob {
  int4 w[K * sizeof(MixArgs) / sizeof(int4)];
};
template <int K> __global__ void loader(const __grid_constant__ Blob<K> blob, int4 *dst) {
  constexpr int n = sizeof(blob.w) / sizeof(int4);
  for (int i = threadIdx.x; i < n; i += blockDim.x) dst[i] = blob.w[i];
}

static float scalar_at(long it, int j) { return 0.3f + 0.004f * (float)((it * 31 + j) % 101); }

static MixArgs args_at(float **ring, long it, int j) {
  return MixArgs{ring[(it + j) % RING], ring[(it + j + 1) % RING], ring[(it + j + 2) % RING],
                 LEN, scalar_at(it, j)};
}

static void body(GraphRec *g, float **ring, long it, int K, cudaStream_t s) {
  for (int j = 0; j < K; ++j) {
    MixArgs m = args_at(ring, it, j);
    if (g)
      g->kernel(mix, dim3(1), dim3(LEN), 0, s, m.a, m.b, m.c, LEN, m.s);
    else
      mix<<<1, LEN, 0, s>>>(m.a, m.b, m.c, LEN, m.s);
  }
}

// Launch with a programmatic edge to the previous kernel in the stream.
template <typename... KArgs, typename... Args>
static void launch_pdl(void (*k)(KArgs...), cudaStream_t s, Args... args) {
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3(1);
  cfg.blockDim = dim3(LEN);
  cfg.stream = s;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  CHECK(cudaLaunchKernelEx(&cfg, k, static_cast<KArgs>(args)...));
}

static cudaGraphNode_t first_node_of_type(cudaGraph_t g, cudaGraphNodeType type) {
  size_t n = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &n));
  std::vector<cudaGraphNode_t> nodes(n);
  CHECK(cudaGraphGetNodes(g, nodes.data(), &n));
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(node, &t));
    if (t == type) return node;
  }
  fprintf(stderr, "no node of type %d\n", (int)type);
  exit(1);
}

struct Timed {
  cudaStream_t s;
  long iters;
  template <typename F> double us_per_iter(F &&replay) {
    replay(0L);  // warm-up
    CHECK(cudaStreamSynchronize(s));
    const double t0 = now_ms();
    for (long it = 1; it <= iters; ++it) replay(it);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s));
    return 1e3 * (now_ms() - t0) / iters;
  }
};

// Chain of K indirect kernels reading blocks[j]; `pdl` links them
// programmatically.  Captured on s after whatever the caller captured.
static void capture_indirect_chain(MixArgs *blocks, int K, bool pdl, cudaStream_t s) {
  for (int j = 0; j < K; ++j) {
    if (pdl)
      launch_pdl(mix_ind_pdl, s, (const MixArgs *)(blocks + j));
    else
      mix_ind<<<1, LEN, 0, s>>>(blocks + j);
  }
}

static cudaGraphExec_t end_capture(cudaStream_t s, cudaGraph_t *g) {
  cudaGraphExec_t exec;
  CHECK(cudaStreamEndCapture(s, g));
  CHECK(cudaGraphInstantiate(&exec, *g, 0));
  return exec;
}

template <int K> static double loader_variant(Timed &t, float **ring, MixArgs *dev, bool pdl) {
  cudaStream_t s = t.s;
  Blob<K> blob;
  auto fill = [&](long it) {
    MixArgs m[K];
    for (int j = 0; j < K; ++j) m[j] = args_at(ring, it, j);
    memcpy(&blob, m, sizeof blob);
  };
  fill(0);
  int4 *dst = reinterpret_cast<int4 *>(dev);
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  loader<K><<<1, LEN, 0, s>>>(blob, dst);
  capture_indirect_chain(dev, K, pdl, s);
  cudaGraphExec_t exec = end_capture(s, &g);
  cudaGraphNode_t node = first_node_of_type(g, cudaGraphNodeTypeKernel);  // the root
  cudaKernelNodeParams p;
  CHECK(cudaGraphKernelNodeGetParams(node, &p));
  void *params[] = {&blob, &dst};
  p.kernelParams = params;
  p.extra = nullptr;
  double us = t.us_per_iter([&](long it) {
    fill(it);
    CHECK(cudaGraphExecKernelNodeSetParams(exec, node, &p));
    CHECK(cudaGraphLaunch(exec, s));
  });
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
  return us;
}

static double loader_for(int K, Timed &t, float **ring, MixArgs *dev, bool pdl) {
  switch (K) {
  case 4: return loader_variant<4>(t, ring, dev, pdl);
  case 16: return loader_variant<16>(t, ring, dev, pdl);
  case 64: return loader_variant<64>(t, ring, dev, pdl);
  default: return loader_variant<256>(t, ring, dev, pdl);
  }
}

static double memcpy_variant(Timed &t, float **ring, MixArgs *dev, MixArgs *pinned,
                             cudaEvent_t *done, int K) {
  cudaStream_t s = t.s;
  size_t bytes = K * sizeof(MixArgs);
  for (int j = 0; j < K; ++j) pinned[j] = args_at(ring, 0, j);
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpyAsync(dev, pinned, bytes, cudaMemcpyHostToDevice, s));
  capture_indirect_chain(dev, K, false, s);
  cudaGraphExec_t exec = end_capture(s, &g);
  cudaGraphNode_t node = first_node_of_type(g, cudaGraphNodeTypeMemcpy);
  double us = t.us_per_iter([&](long it) {
    int slot = (int)(it % SLOTS);
    MixArgs *src = pinned + (size_t)slot * K;
    CHECK(cudaEventSynchronize(done[slot]));  // the replay that read it is done
    for (int j = 0; j < K; ++j) src[j] = args_at(ring, it, j);
    CHECK(cudaGraphExecMemcpyNodeSetParams1D(exec, node, dev, src, bytes,
                                             cudaMemcpyHostToDevice));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaEventRecord(done[slot], s));
  });
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(g));
  return us;
}

int main(int argc, char **argv) {
  const long launches = arg_long(argc, argv, 1, 262144);
  float *ring[RING];
  for (auto &r : ring) {
    CHECK(cudaMalloc(&r, LEN * sizeof(float)));
    CHECK(cudaMemset(r, 0, LEN * sizeof(float)));
  }
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  MixArgs *dev, *pinned;
  CHECK(cudaMalloc(&dev, 256 * sizeof(MixArgs)));
  CHECK(cudaMallocHost(&pinned, SLOTS * 256 * sizeof(MixArgs)));
  cudaEvent_t done[SLOTS];
  for (auto &e : done) {
    CHECK(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
    CHECK(cudaEventRecord(e, s));
  }

  printf("| kernels/iter | iters | eager | static | setparams | memcpy | loader | loader+pdl |"
         " static+pdl |\n");
  printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int K : {4, 16, 64, 256}) {
    Timed t{s, launches / K > 200 ? launches / K : 200};
    double eager = t.us_per_iter([&](long it) { body(nullptr, ring, it, K, s); });

    GraphRec fixed(s);  // captured at iteration 0, never patched
    double stat = t.us_per_iter([&](long it) {
      if (it == 0) {
        fixed.begin();
        body(&fixed, ring, 0, K, s);
        fixed.launch();
      } else {
        CHECK(cudaGraphLaunch(fixed.exec, s));
      }
    });

    GraphRec patched(s);
    double setp = t.us_per_iter([&](long it) {
      patched.begin();
      body(&patched, ring, it, K, s);
      patched.launch();
    });

    double mcpy = memcpy_variant(t, ring, dev, pinned, done, K);
    double load = loader_for(K, t, ring, dev, false);
    double load_pdl = loader_for(K, t, ring, dev, true);

    cudaGraph_t g;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for (int j = 0; j < K; ++j) {
      MixArgs m = args_at(ring, 0, j);
      launch_pdl(mix_pdl, s, m.a, m.b, m.c, LEN, m.s);
    }
    cudaGraphExec_t exec = end_capture(s, &g);
    double stat_pdl = t.us_per_iter([&](long) { CHECK(cudaGraphLaunch(exec, s)); });
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(g));

    printf("| %d | %ld | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f |\n", K, t.iters, eager,
           stat, setp, mcpy, load, load_pdl, stat_pdl);
    fflush(stdout);
  }
  printf("(microseconds per iteration)\n");
  for (auto &e : done) CHECK(cudaEventDestroy(e));
  CHECK(cudaFreeHost(pinned));
  CHECK(cudaFree(dev));
  CHECK(cudaStreamDestroy(s));
  for (auto &r : ring) CHECK(cudaFree(r));
  return 0;
}
