// tiny_chain_bench.cu - the cost of changing kernel arguments in a CUDA graph.
//
// For N in {4, 16, 64, 256} tiny one-block kernels per iteration, every
// argument changing every iteration (rotating buffer ring + scalar):
//   eager      plain <<<>>> launches
//   static     one captured graph replayed with its arguments fixed (a floor:
//              it computes something else, but no launch path can beat it)
//   setparams  the captured graph with cudaGraphExecKernelNodeSetParams on
//              every node before every replay (the hand-written approach)
// Prints per-iteration and per-kernel times.  pygraph's own number is
// examples/tiny_chain built with the plugin (tiny_chain_pygraph <iters> <N>).
//
//   usage: tiny_chain_bench [launches_per_config=262144]
#define HAND_GRAPH 1
#include "../examples/common.h"

constexpr int LEN = 256, RING = 5;

__global__ void mix(const float *__restrict__ a, const float *__restrict__ b,
                    float *__restrict__ c, int n, float s) {
  int k = threadIdx.x;
  if (k < n) c[k] = s * a[k] + (1.0f - s) * b[k];
}

static float scalar_at(long it, int j) { return 0.3f + 0.004f * (float)((it * 31 + j) % 101); }

static void body(GraphRec *g, float **ring, long it, int K, cudaStream_t s) {
  for (int j = 0; j < K; ++j) {
    float *a = ring[(it + j) % RING], *b = ring[(it + j + 1) % RING], *c = ring[(it + j + 2) % RING];
    if (g)
      g->kernel(mix, dim3(1), dim3(LEN), 0, s, a, b, c, LEN, scalar_at(it, j));
    else
      mix<<<1, LEN, 0, s>>>(a, b, c, LEN, scalar_at(it, j));
  }
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

  printf("| kernels/iter | iters | eager us/iter | static-graph us/iter | setparams us/iter |"
         " eager us/kernel | static us/kernel | setparams us/kernel |\n");
  printf("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (int K : {4, 16, 64, 256}) {
    const long iters = launches / K > 200 ? launches / K : 200;
    double ms[3];
    for (int variant = 0; variant < 3; ++variant) {
      GraphRec g(s);
      // warm-up (and capture for the graph variants)
      if (variant == 0) {
        body(nullptr, ring, 0, K, s);
      } else {
        g.begin();
        body(&g, ring, 0, K, s);
        g.launch();
      }
      CHECK(cudaStreamSynchronize(s));
      const double t0 = now_ms();
      for (long it = 1; it <= iters; ++it) {
        if (variant == 0) {
          body(nullptr, ring, it, K, s);
        } else if (variant == 1) {
          CHECK(cudaGraphLaunch(g.exec, s));
        } else {
          g.begin();
          body(&g, ring, it, K, s);
          g.launch();
        }
      }
      CHECK(cudaGetLastError());
      CHECK(cudaStreamSynchronize(s));
      ms[variant] = now_ms() - t0;
    }
    printf("| %d | %ld | %.2f | %.2f | %.2f | %.3f | %.3f | %.3f |\n", K, iters,
           1e3 * ms[0] / iters, 1e3 * ms[1] / iters, 1e3 * ms[2] / iters,
           1e3 * ms[0] / iters / K, 1e3 * ms[1] / iters / K, 1e3 * ms[2] / iters / K);
    fflush(stdout);
  }
  CHECK(cudaStreamDestroy(s));
  for (auto &r : ring) CHECK(cudaFree(r));
  return 0;
}
