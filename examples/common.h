// common.h - small helpers shared by the pygraph examples.
//
// Every example prints exactly one "checksum: <16 hex digits>" line (FNV-1a 64
// over the raw bytes of its final output arrays) and one "loop_ms: <float>"
// line (host wall time of the hot loop, device synchronized before the clock
// stops).  Nothing in here is specific to pygraph: it is ordinary CUDA host
// code, and the HAND_GRAPH helpers at the bottom are what a CUDA-graph expert
// would write by hand.
#pragma once

#include <cuda_runtime.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <utility>
#include <vector>

#define CHECK(call)                                                          \
  do {                                                                       \
    cudaError_t err_ = (call);                                               \
    if (err_ != cudaSuccess) {                                               \
      fprintf(stderr, "CUDA error %s (%d) at %s:%d: %s\n  in %s\n",          \
              cudaGetErrorName(err_), (int)err_, __FILE__, __LINE__,         \
              cudaGetErrorString(err_), #call);                              \
      exit(1);                                                               \
    }                                                                        \
  } while (0)

// The usual "did that launch work?" check after a <<<>>> launch.
#define CHECK_LAUNCH() CHECK(cudaGetLastError())

// ---- checksum --------------------------------------------------------------

struct Fnv1a64 {
  uint64_t h = 0xcbf29ce484222325ull;
  void add(const void *p, size_t n) {
    const unsigned char *b = static_cast<const unsigned char *>(p);
    for (size_t i = 0; i < n; ++i) {
      h ^= b[i];
      h *= 0x100000001b3ull;
    }
  }
  template <typename T> void add_host(const std::vector<T> &v) {
    add(v.data(), v.size() * sizeof(T));
  }
  // Copies `n` elements from device memory and hashes their bytes.
  template <typename T> void add_device(const T *d, size_t n) {
    std::vector<T> h(n);
    CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
    add_host(h);
  }
  void print() const { printf("checksum: %016llx\n", (unsigned long long)h); }
};

// ---- timing / arguments ----------------------------------------------------

static inline double now_ms() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

static inline void print_loop_ms(double ms) { printf("loop_ms: %.3f\n", ms); }

// argv[i] as a positive integer, or `def` when absent.
static inline long arg_long(int argc, char **argv, int i, long def) {
  if (argc <= i) return def;
  char *end = nullptr;
  long v = strtol(argv[i], &end, 10);
  if (!argv[i][0] || *end || v <= 0) {
    fprintf(stderr, "usage: %s [iterations] ... (got '%s')\n", argv[0], argv[i]);
    exit(2);
  }
  return v;
}

// ---- deterministic host RNG (splitmix64) -----------------------------------

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  // Uniform in [lo, hi), from 24 random bits (exactly representable).
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * (float)(next() >> 40) * (1.0f / 16777216.0f);
  }
};

// ---- hand-written CUDA graph helper (HAND_GRAPH builds only) ---------------
//
// The expert pattern: capture the loop body once with stream capture, keep
// each kernel node's handle, and before every replay patch only the nodes
// whose arguments changed with cudaGraphExecKernelNodeSetParams.  The body is
// written once against GraphRec: the first call captures, later calls patch.
#ifdef HAND_GRAPH
struct GraphRec {
  struct Node {
    cudaGraphNode_t node;
    cudaKernelNodeParams params;
    std::vector<unsigned char> argbytes;  // last arguments set, to skip no-ops
  };
  cudaStream_t stream = nullptr;  // the stream the body is captured on / replayed on
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  std::vector<Node> nodes;
  size_t idx = 0;
  bool capturing = false;

  explicit GraphRec(cudaStream_t s) : stream(s) {}
  ~GraphRec() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
  // Call before the body.
  void begin() {
    idx = 0;
    capturing = (exec == nullptr);
    if (capturing) CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  }
  // Call after the body: instantiates on the first call, then launches.
  void launch() {
    if (capturing) {
      CHECK(cudaStreamEndCapture(stream, &graph));
      CHECK(cudaGraphInstantiate(&exec, graph, 0));
      capturing = false;
    } else if (idx != nodes.size()) {
      fprintf(stderr, "GraphRec: body launched %zu kernels, captured %zu\n", idx, nodes.size());
      exit(1);
    }
    CHECK(cudaGraphLaunch(exec, stream));
  }

  template <typename... KArgs, typename... Args>
  void kernel(void (*k)(KArgs...), dim3 grid, dim3 block, size_t shmem, cudaStream_t s,
              Args... args) {
    std::tuple<KArgs...> vals(static_cast<KArgs>(args)...);
    kernel_impl(reinterpret_cast<const void *>(k), grid, block, shmem, s, vals,
                std::index_sequence_for<KArgs...>{});
  }

 private:
  template <typename Tuple, size_t... I>
  void kernel_impl(const void *f, dim3 grid, dim3 block, size_t shmem, cudaStream_t s,
                   Tuple &vals, std::index_sequence<I...>) {
    void *ptrs[sizeof...(I) + 1] = {(void *)&std::get<I>(vals)..., nullptr};
    std::vector<unsigned char> bytes;
    size_t sizes[sizeof...(I) + 1] = {sizeof(std::get<I>(vals))..., 0};
    for (size_t i = 0; i < sizeof...(I); ++i)
      bytes.insert(bytes.end(), (unsigned char *)ptrs[i], (unsigned char *)ptrs[i] + sizes[i]);
    if (capturing) {
      CHECK(cudaLaunchKernel(f, grid, block, ptrs, shmem, s));
      cudaStreamCaptureStatus st;
      const cudaGraphNode_t *deps = nullptr;
      size_t ndeps = 0;
      CHECK(cudaStreamGetCaptureInfo(s, &st, nullptr, nullptr, &deps, nullptr, &ndeps));
      if (st != cudaStreamCaptureStatusActive || ndeps != 1) {
        fprintf(stderr, "GraphRec: unexpected capture state\n");
        exit(1);
      }
      Node n;
      n.node = deps[0];
      CHECK(cudaGraphKernelNodeGetParams(n.node, &n.params));
      n.argbytes = std::move(bytes);
      nodes.push_back(std::move(n));
    } else {
      if (idx >= nodes.size()) {
        fprintf(stderr, "GraphRec: more launches than captured\n");
        exit(1);
      }
      Node &n = nodes[idx];
      if (n.argbytes != bytes) {
        cudaKernelNodeParams p = n.params;
        p.kernelParams = ptrs;
        p.extra = nullptr;
        CHECK(cudaGraphExecKernelNodeSetParams(exec, n.node, &p));
        n.argbytes = std::move(bytes);
      }
    }
    ++idx;
  }
};
#endif
