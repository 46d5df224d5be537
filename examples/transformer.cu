// transformer.cu - greedy decoding with a small decoder-only transformer in
// plain CUDA C++ (no cuBLAS): token embedding; per layer RMSNorm, fused QKV
// projection, rotary embedding + KV-cache append, attention over the cache,
// output projection, residual add, RMSNorm, SiLU-gated MLP, residual add;
// final RMSNorm, tied LM head and argmax on the device.
//
// The per-token loop is launch-bound: 56 small kernels per token whose
// position / KV-length arguments change every step.  Generated tokens stay on
// the device (the argmax kernel writes tokens[pos+1]) and are read back only
// at the end.  Random weights from a fixed seed; several prompts in sequence.
//
//   usage: transformer [tokens_per_sequence=200] [sequences=10]
//   build with -DHAND_GRAPH for the hand-written CUDA-graph reference.
#include "common.h"

#include <cmath>

constexpr int DIM = 384, HEADS = 6, HD = DIM / HEADS, LAYERS = 4, HIDDEN = 1024;
constexpr int VOCAB = 4096, MAXSEQ = 256, PROMPT = 8;
constexpr int MV_ROWS = 8;      // matvec rows per block (one warp each)
constexpr int MV_TILE = 512;    // x elements staged in shared memory per tile

// ---- kernels ---------------------------------------------------------------

__device__ __forceinline__ uint32_t hash_u32(uint32_t x) {
  x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
  return x;
}

__global__ void init_uniform(float *w, size_t n, uint32_t seed, float center, float scale) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)gridDim.x * blockDim.x) {
    uint32_t h = hash_u32((uint32_t)i * 0x9e3779b9u ^ hash_u32(seed + (uint32_t)(i >> 32)));
    w[i] = center + scale * ((float)(h >> 8) * (2.0f / 16777216.0f) - 1.0f);
  }
}

__global__ void embed(const int *tokens, int pos, const float *emb, float *x, int dim) {
  int tok = tokens[pos];
  for (int i = threadIdx.x; i < dim; i += blockDim.x) x[i] = emb[(size_t)tok * dim + i];
}

__global__ void rmsnorm(const float *x, const float *w, float *out, int dim) {
  __shared__ float sh[256];
  float s = 0.0f;
  for (int i = threadIdx.x; i < dim; i += blockDim.x) s += x[i] * x[i];
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) sh[threadIdx.x] += sh[threadIdx.x + k];
    __syncthreads();
  }
  float r = rsqrtf(sh[0] / (float)dim + 1e-5f);
  for (int i = threadIdx.x; i < dim; i += blockDim.x) out[i] = x[i] * r * w[i];
}

// y[r] = sum_c W[r][c] x[c]; one warp per row, x staged through shared memory
// in tiles; fixed-order warp reduction.
__global__ void matvec(const float *__restrict__ W, const float *__restrict__ x,
                       float *__restrict__ y, int in, int out) {
  __shared__ float xs[MV_TILE];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int row = blockIdx.x * MV_ROWS + warp;
  float acc = 0.0f;
  for (int base = 0; base < in; base += MV_TILE) {
    int len = min(MV_TILE, in - base);
    for (int i = threadIdx.x; i < len; i += blockDim.x) xs[i] = x[base + i];
    __syncthreads();
    if (row < out) {
      const float *wr = W + (size_t)row * in + base;
      for (int c = lane; c < len; c += 32) acc += wr[c] * xs[c];
    }
    __syncthreads();
  }
  for (int o = 16; o > 0; o >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, o);
  if (lane == 0 && row < out) y[row] = acc;
}

// Rotary embedding on q and k (in qkv), then append k and v to the cache.
__global__ void rope_cache(float *qkv, float *kc, float *vc, int pos, int dim, int hd) {
  int p = threadIdx.x;  // pair index over dim/2
  if (p >= dim / 2) return;
  int i = 2 * p;
  int j = i % hd;
  float freq = powf(10000.0f, -(float)j / (float)hd);
  float sn, cs;
  sincosf((float)pos * freq, &sn, &cs);
  float q0 = qkv[i], q1 = qkv[i + 1];
  qkv[i] = q0 * cs - q1 * sn;
  qkv[i + 1] = q0 * sn + q1 * cs;
  float k0 = qkv[dim + i], k1 = qkv[dim + i + 1];
  kc[(size_t)pos * dim + i] = k0 * cs - k1 * sn;
  kc[(size_t)pos * dim + i + 1] = k0 * sn + k1 * cs;
  vc[(size_t)pos * dim + i] = qkv[2 * dim + i];
  vc[(size_t)pos * dim + i + 1] = qkv[2 * dim + i + 1];
}

// att[h][t] = q_h . k_h[t] * scale for t < kvlen; one block per head.
__global__ void attn_scores(const float *q, const float *kc, float *att, int kvlen, int dim,
                            int hd, float scale) {
  int h = blockIdx.x;
  for (int t = threadIdx.x; t < kvlen; t += blockDim.x) {
    const float *k = kc + (size_t)t * dim + h * hd;
    float s = 0.0f;
    for (int d = 0; d < hd; ++d) s += q[h * hd + d] * k[d];
    att[h * MAXSEQ + t] = s * scale;
  }
}

__global__ void softmax_rows(float *att, int kvlen) {
  __shared__ float sh[128];
  float *a = att + blockIdx.x * MAXSEQ;
  float m = -INFINITY;
  for (int t = threadIdx.x; t < kvlen; t += blockDim.x) m = fmaxf(m, a[t]);
  sh[threadIdx.x] = m;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) sh[threadIdx.x] = fmaxf(sh[threadIdx.x], sh[threadIdx.x + k]);
    __syncthreads();
  }
  m = sh[0];
  __syncthreads();
  float s = 0.0f;
  for (int t = threadIdx.x; t < kvlen; t += blockDim.x) {
    float e = expf(a[t] - m);
    a[t] = e;
    s += e;
  }
  sh[threadIdx.x] = s;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) sh[threadIdx.x] += sh[threadIdx.x + k];
    __syncthreads();
  }
  float inv = 1.0f / sh[0];
  for (int t = threadIdx.x; t < kvlen; t += blockDim.x) a[t] *= inv;
}

// out[h*hd + d] = sum_t att[h][t] * v[t][h*hd + d]; one block per head.
__global__ void attn_out(const float *att, const float *vc, float *out, int kvlen, int dim,
                         int hd) {
  int h = blockIdx.x, d = threadIdx.x;
  if (d >= hd) return;
  float s = 0.0f;
  for (int t = 0; t < kvlen; ++t) s += att[h * MAXSEQ + t] * vc[(size_t)t * dim + h * hd + d];
  out[h * hd + d] = s;
}

__global__ void residual_add(float *x, const float *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += d[i];
}

// h = silu(gate) * up, gu = [gate | up]
__global__ void silu_mul(const float *gu, float *h, int hidden) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= hidden) return;
  float g = gu[i];
  h[i] = g / (1.0f + expf(-g)) * gu[hidden + i];
}

// Greedy next token (ties -> lowest id); prompt positions are not overwritten.
__global__ void argmax_next(const float *logits, int vocab, int *tokens, int pos, int prompt_len) {
  __shared__ float sv[1024];
  __shared__ int si[1024];
  float bv = -INFINITY;
  int bi = 0x7fffffff;
  for (int i = threadIdx.x; i < vocab; i += blockDim.x)
    if (logits[i] > bv) { bv = logits[i]; bi = i; }
  sv[threadIdx.x] = bv;
  si[threadIdx.x] = bi;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) {
      float ov = sv[threadIdx.x + k];
      int oi = si[threadIdx.x + k];
      if (ov > sv[threadIdx.x] || (ov == sv[threadIdx.x] && oi < si[threadIdx.x])) {
        sv[threadIdx.x] = ov;
        si[threadIdx.x] = oi;
      }
    }
    __syncthreads();
  }
  if (threadIdx.x == 0 && pos + 1 >= prompt_len) tokens[pos + 1] = si[0];
}

// ---- model -----------------------------------------------------------------

struct Layer {
  float *norm1, *wqkv, *wo, *norm2, *wgu, *wdown, *kcache, *vcache;
};
struct Model {
  float *emb, *norm_f;
  Layer layer[LAYERS];
  // activations
  float *x, *xn, *qkv, *att, *ao, *tmp, *gu, *hid, *logits;
};

static float *alloc_init(size_t n, uint32_t seed, float center, float scale) {
  float *p;
  CHECK(cudaMalloc(&p, n * sizeof(float)));
  init_uniform<<<256, 256>>>(p, n, seed, center, scale);
  CHECK(cudaGetLastError());
  return p;
}
static float *alloc_zero(size_t n) {
  float *p;
  CHECK(cudaMalloc(&p, n * sizeof(float)));
  CHECK(cudaMemset(p, 0, n * sizeof(float)));
  return p;
}

static Model make_model() {
  Model m;
  uint32_t seed = 1;
  m.emb = alloc_init((size_t)VOCAB * DIM, seed++, 0.0f, 1.0f);
  m.norm_f = alloc_init(DIM, seed++, 1.0f, 0.1f);
  for (Layer &l : m.layer) {
    l.norm1 = alloc_init(DIM, seed++, 1.0f, 0.1f);
    l.wqkv = alloc_init((size_t)3 * DIM * DIM, seed++, 0.0f, 1.0f / sqrtf((float)DIM));
    l.wo = alloc_init((size_t)DIM * DIM, seed++, 0.0f, 1.0f / sqrtf((float)DIM));
    l.norm2 = alloc_init(DIM, seed++, 1.0f, 0.1f);
    l.wgu = alloc_init((size_t)2 * HIDDEN * DIM, seed++, 0.0f, 1.0f / sqrtf((float)DIM));
    l.wdown = alloc_init((size_t)DIM * HIDDEN, seed++, 0.0f, 1.0f / sqrtf((float)HIDDEN));
    l.kcache = alloc_zero((size_t)MAXSEQ * DIM);
    l.vcache = alloc_zero((size_t)MAXSEQ * DIM);
  }
  m.x = alloc_zero(DIM);
  m.xn = alloc_zero(DIM);
  m.qkv = alloc_zero(3 * DIM);
  m.att = alloc_zero(HEADS * MAXSEQ);
  m.ao = alloc_zero(DIM);
  m.tmp = alloc_zero(DIM);
  m.gu = alloc_zero(2 * HIDDEN);
  m.hid = alloc_zero(HIDDEN);
  m.logits = alloc_zero(VOCAB);
  return m;
}

// One decode step: consume tokens[pos], write tokens[pos+1].
#ifndef HAND_GRAPH
#define LAUNCH(k, grid, block, ...)                \
  do {                                             \
    k<<<grid, block, 0, s>>>(__VA_ARGS__);         \
    CHECK(cudaGetLastError());                     \
  } while (0)
static void decode_step(const Model &m, int *tokens, int pos, cudaStream_t s) {
#else
#define LAUNCH(k, grid, block, ...) g.kernel(k, dim3(grid), dim3(block), 0, s, __VA_ARGS__)
static void decode_step(GraphRec &g, const Model &m, int *tokens, int pos, cudaStream_t s) {
#endif
  const int kvlen = pos + 1;
  const float scale = 1.0f / sqrtf((float)HD);
  const int mvb = 32 * MV_ROWS;
  LAUNCH(embed, 1, 128, tokens, pos, m.emb, m.x, DIM);
  for (int l = 0; l < LAYERS; ++l) {
    const Layer &L = m.layer[l];
    LAUNCH(rmsnorm, 1, 256, m.x, L.norm1, m.xn, DIM);
    LAUNCH(matvec, (3 * DIM + MV_ROWS - 1) / MV_ROWS, mvb, L.wqkv, m.xn, m.qkv, DIM, 3 * DIM);
    LAUNCH(rope_cache, 1, DIM / 2, m.qkv, L.kcache, L.vcache, pos, DIM, HD);
    LAUNCH(attn_scores, HEADS, 128, m.qkv, L.kcache, m.att, kvlen, DIM, HD, scale);
    LAUNCH(softmax_rows, HEADS, 128, m.att, kvlen);
    LAUNCH(attn_out, HEADS, HD, m.att, L.vcache, m.ao, kvlen, DIM, HD);
    LAUNCH(matvec, (DIM + MV_ROWS - 1) / MV_ROWS, mvb, L.wo, m.ao, m.tmp, DIM, DIM);
    LAUNCH(residual_add, (DIM + 127) / 128, 128, m.x, m.tmp, DIM);
    LAUNCH(rmsnorm, 1, 256, m.x, L.norm2, m.xn, DIM);
    LAUNCH(matvec, (2 * HIDDEN + MV_ROWS - 1) / MV_ROWS, mvb, L.wgu, m.xn, m.gu, DIM, 2 * HIDDEN);
    LAUNCH(silu_mul, (HIDDEN + 127) / 128, 128, m.gu, m.hid, HIDDEN);
    LAUNCH(matvec, (DIM + MV_ROWS - 1) / MV_ROWS, mvb, L.wdown, m.hid, m.tmp, HIDDEN, DIM);
    LAUNCH(residual_add, (DIM + 127) / 128, 128, m.x, m.tmp, DIM);
  }
  LAUNCH(rmsnorm, 1, 256, m.x, m.norm_f, m.xn, DIM);
  LAUNCH(matvec, (VOCAB + MV_ROWS - 1) / MV_ROWS, mvb, m.emb, m.xn, m.logits, DIM, VOCAB);
  LAUNCH(argmax_next, 1, 1024, m.logits, VOCAB, tokens, pos, PROMPT);
}

int main(int argc, char **argv) {
  const int gen = (int)arg_long(argc, argv, 1, 200);
  const int seqs = (int)arg_long(argc, argv, 2, 10);
  if (PROMPT + gen > MAXSEQ) {
    fprintf(stderr, "tokens_per_sequence must be <= %d\n", MAXSEQ - PROMPT);
    return 2;
  }
  Model m = make_model();

  std::vector<int> h_tok((size_t)seqs * MAXSEQ, -1);
  Rng rng(4242);
  for (int q = 0; q < seqs; ++q)
    for (int i = 0; i < PROMPT; ++i) h_tok[(size_t)q * MAXSEQ + i] = (int)(rng.next() % VOCAB);
  int *d_tok;
  CHECK(cudaMalloc(&d_tok, h_tok.size() * sizeof(int)));
  CHECK(cudaMemcpy(d_tok, h_tok.data(), h_tok.size() * sizeof(int), cudaMemcpyHostToDevice));

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
#ifdef HAND_GRAPH
  GraphRec g(s);
#endif
  const int steps = PROMPT + gen - 1;

  CHECK(cudaDeviceSynchronize());
  const double t0 = now_ms();
  for (int q = 0; q < seqs; ++q) {
    int *tokens = d_tok + (size_t)q * MAXSEQ;
    for (int pos = 0; pos < steps; ++pos) {
#ifndef HAND_GRAPH
      decode_step(m, tokens, pos, s);
#else
      g.begin();
      decode_step(g, m, tokens, pos, s);
      g.launch();
#endif
    }
  }
  CHECK(cudaDeviceSynchronize());
  const double t1 = now_ms();

  CHECK(cudaMemcpy(h_tok.data(), d_tok, h_tok.size() * sizeof(int), cudaMemcpyDeviceToHost));
  std::vector<int> generated;
  bool ok = true;
  for (int q = 0; q < seqs; ++q)
    for (int i = 0; i < PROMPT + gen; ++i) {
      int t = h_tok[(size_t)q * MAXSEQ + i];
      if (t < 0 || t >= VOCAB) ok = false;
      generated.push_back(t);
    }
  printf("transformer: %d layers, dim %d, vocab %d; %d sequences x %d tokens (%d launches/token)\n",
         LAYERS, DIM, VOCAB, seqs, gen, 1 + 13 * LAYERS + 3);
  printf("first tokens:");
  for (int i = 0; i < 16 && i < PROMPT + gen; ++i) printf(" %d", generated[i]);
  printf("\n");
  printf("self-check: %s\n", ok ? "OK" : "FAILED");
  Fnv1a64 f;
  f.add_host(generated);
  f.print();
  print_loop_ms(t1 - t0);
  CHECK(cudaStreamDestroy(s));
  return ok ? 0 : 1;
}
