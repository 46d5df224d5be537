// bfs.cu - level-synchronous breadth-first search on a random graph (CSR),
// repeated from many sources.  Per level: an expand kernel and a two-kernel
// count of the new frontier, then the host reads the frontier size with
// cudaMemcpy to decide whether to continue (a data-dependent trip count).
//
//   usage: bfs [sources=1500]
//   build with -DHAND_GRAPH for the hand-written CUDA-graph reference: the
//   per-level launches are a graph (the host read of the frontier size stays
//   a barrier between levels); the first level of a source, which also
//   resets the distances, is a second graph.
#include "common.h"

constexpr int NV = 1 << 16, AVG_DEG = 8, T = 256, RED_BLOCKS = 64;
constexpr int INF = 0x7fffffff;

__global__ void init_dist(int *dist, int n, int src) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) dist[v] = (v == src) ? 0 : INF;
}

// Every vertex at `level` labels its unvisited neighbours level+1 (all
// writers store the same value, so the result is deterministic).
__global__ void expand(const int *rowptr, const int *col, int *dist, int n, int level) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || dist[v] != level) return;
  for (int e = rowptr[v]; e < rowptr[v + 1]; ++e) {
    int u = col[e];
    if (dist[u] == INF) dist[u] = level + 1;
  }
}

__global__ void count_partial(const int *dist, int n, int level, int *partial) {
  __shared__ int sh[T];
  int c = 0;
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    c += (dist[v] == level);
  sh[threadIdx.x] = c;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w >>= 1) {
    if (threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sh[0];
}

__global__ void count_final(const int *partial, int nparts, int *out) {
  if (threadIdx.x != 0) return;
  int c = 0;
  for (int k = 0; k < nparts; ++k) c += partial[k];
  *out = c;
}

int main(int argc, char **argv) {
  const long sources = arg_long(argc, argv, 1, 1500);

  // Random graph: each vertex gets AVG_DEG/2 random out-edges, symmetrized.
  Rng rng(1234);
  std::vector<std::vector<int>> adj(NV);
  for (int v = 0; v < NV; ++v)
    for (int k = 0; k < AVG_DEG / 2; ++k) {
      int u = (int)(rng.next() % NV);
      if (u == v) continue;
      adj[v].push_back(u);
      adj[u].push_back(v);
    }
  std::vector<int> rowptr(NV + 1, 0), col;
  for (int v = 0; v < NV; ++v) {
    rowptr[v + 1] = rowptr[v] + (int)adj[v].size();
    col.insert(col.end(), adj[v].begin(), adj[v].end());
  }
  int *d_row, *d_col, *d_dist, *d_partial, *d_count;
  CHECK(cudaMalloc(&d_row, rowptr.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_col, col.size() * sizeof(int)));
  CHECK(cudaMalloc(&d_dist, NV * sizeof(int)));
  CHECK(cudaMalloc(&d_partial, RED_BLOCKS * sizeof(int)));
  CHECK(cudaMalloc(&d_count, sizeof(int)));
  CHECK(cudaMemcpy(d_row, rowptr.data(), rowptr.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_col, col.data(), col.size() * sizeof(int), cudaMemcpyHostToDevice));
  const int B = (NV + T - 1) / T;

  std::vector<int> level_sizes;  // per source: frontier sizes, then -1
  long total_levels = 0;
#ifdef HAND_GRAPH
  // Stream capture does not work on the legacy default stream: the graphs
  // run on a created stream, and the frontier size is read from it.
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  GraphRec g_first(s), g_level(s);
  int *h_frontier;
  CHECK(cudaMallocHost(&h_frontier, sizeof(int)));
#endif

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (long q = 0; q < sources; ++q) {
    const int src = (int)((q * 7919) % NV);
#ifndef HAND_GRAPH
    init_dist<<<B, T>>>(d_dist, NV, src);
    CHECK(cudaGetLastError());
#endif
    for (int level = 0;; ++level) {
#ifndef HAND_GRAPH
      expand<<<B, T>>>(d_row, d_col, d_dist, NV, level);
      CHECK(cudaGetLastError());
      count_partial<<<RED_BLOCKS, T>>>(d_dist, NV, level + 1, d_partial);
      CHECK(cudaGetLastError());
      count_final<<<1, 32>>>(d_partial, RED_BLOCKS, d_count);
      CHECK(cudaGetLastError());
      int frontier = 0;
      CHECK(cudaMemcpy(&frontier, d_count, sizeof(int), cudaMemcpyDeviceToHost));
#else
      GraphRec &g = level == 0 ? g_first : g_level;
      g.begin();
      if (level == 0) g.kernel(init_dist, dim3(B), dim3(T), 0, s, d_dist, NV, src);
      g.kernel(expand, dim3(B), dim3(T), 0, s, d_row, d_col, d_dist, NV, level);
      g.kernel(count_partial, dim3(RED_BLOCKS), dim3(T), 0, s, d_dist, NV, level + 1, d_partial);
      g.kernel(count_final, dim3(1), dim3(32), 0, s, d_partial, RED_BLOCKS, d_count);
      g.launch();
      CHECK(cudaMemcpyAsync(h_frontier, d_count, sizeof(int), cudaMemcpyDeviceToHost, s));
      CHECK(cudaStreamSynchronize(s));
      const int frontier = *h_frontier;
#endif
      if (frontier == 0) break;
      level_sizes.push_back(frontier);
      ++total_levels;
    }
    level_sizes.push_back(-1);
  }
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  std::vector<int> dist(NV);
  CHECK(cudaMemcpy(dist.data(), d_dist, NV * sizeof(int), cudaMemcpyDeviceToHost));
  // Self-check the last BFS against a host BFS.
  std::vector<int> ref(NV, INF), queue;
  const int src = (int)(((sources - 1) * 7919) % NV);
  ref[src] = 0;
  queue.push_back(src);
  for (size_t h = 0; h < queue.size(); ++h)
    for (int e = rowptr[queue[h]]; e < rowptr[queue[h] + 1]; ++e)
      if (ref[col[e]] == INF) ref[col[e]] = ref[queue[h]] + 1, queue.push_back(col[e]);
  const bool ok = (ref == dist);
  printf("bfs: %d vertices, %zu edges, %ld sources, %ld levels in total\n", NV, col.size(),
         sources, total_levels);
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  Fnv1a64 f;
  f.add_host(dist);
  f.add_host(level_sizes);
  f.print();
  print_loop_ms(t1 - t0);
#ifdef HAND_GRAPH
  CHECK(cudaFreeHost(h_frontier));
  CHECK(cudaStreamDestroy(s));
#endif
  return ok ? 0 : 1;
}
