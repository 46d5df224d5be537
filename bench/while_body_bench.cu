// while_body_bench.cu - what one iteration of a WHILE graph's body costs on
// the GPU, by node kind: converge's four kernels (clear, relax, measure,
// judge over n floats) followed by
//   cond      a condition kernel that reads the status where the kernels
//             wrote it (the hand-written whole loop),
//   copy      a 16-byte device-to-device memcpy node of the status into a
//             second block, then the condition kernel reading that block
//             (how pygraph's WHILE body delivered the status),
//   kcopy     the condition kernel copying the 16 bytes itself,
// against the same four kernels as one graph per iteration with the status
// copied to the host and tested there (per-iteration graphs), and eager.
// Every variant runs `iters` iterations (the test counts, it does not
// converge), timed with events; prints microseconds per iteration.
//
// build: nvcc -O2 -arch=sm_90 bench/while_body_bench.cu -o while_body_bench
// usage: while_body_bench [n=16384] [iters=10000]
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#define CHECK(x)                                                                    \
  do {                                                                              \
    cudaError_t e_ = (x);                                                           \
    if (e_ != cudaSuccess) {                                                        \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                      \
    }                                                                               \
  } while (0)

struct Status {
  int notconv, above;
  unsigned maxdiff;
  int pad;
};

__global__ void clear_status(Status *st) { st->notconv = st->above = 0; st->maxdiff = 0; }
__global__ void relax(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i == 0 || i == n - 1 ? in[i] : 0.5f * in[i] + 0.25f * (in[i - 1] + in[i + 1]);
}
__global__ void measure(const float *out, const float *in, Status *st, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && fabsf(out[i] - in[i]) > 1e-6f)
    atomicAdd(&st->above, 1);
}
__global__ void judge(Status *st) { st->notconv = st->above > 0; }

struct Counter {
  unsigned long long it, limit;
  Status seen;
};

// Keeps going while it < limit; `st` is where it reads the status from.
__global__ void cond(Counter *c, const Status *st, int copy_itself, cudaGraphConditionalHandle h) {
  if (copy_itself)
    c->seen = *st;
  unsigned keep = ++c->it < c->limit && (c->seen.pad == 0 || st->pad == 0);
  cudaGraphSetConditional(h, keep);
}

struct Bufs {
  float *a, *b;
  Status *st, *blk;
  Counter *c;
  int n, blocks;
};

static void body_kernels(cudaStream_t s, const Bufs &B) {
  clear_status<<<1, 1, 0, s>>>(B.st);
  relax<<<B.blocks, 256, 0, s>>>(B.b, B.a, B.n);
  measure<<<B.blocks, 256, 0, s>>>(B.b, B.a, B.st, B.n);
  judge<<<1, 1, 0, s>>>(B.st);
}

// One WHILE graph: body = kernels [+ memcpy node] + cond, captured into the body.
static cudaGraphExec_t while_graph(cudaStream_t s, const Bufs &B, const char *variant) {
  cudaGraph_t g;
  CHECK(cudaGraphCreate(&g, 0));
  cudaGraphConditionalHandle h;
  CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = cudaGraphCondTypeWhile;
  p.conditional.size = 1;
  cudaGraphNode_t node;
  CHECK(cudaGraphAddNode(&node, g, NULL, NULL, 0, &p));
  cudaGraph_t body = p.conditional.phGraph_out[0];
  CHECK(cudaStreamBeginCaptureToGraph(s, body, NULL, NULL, 0, cudaStreamCaptureModeThreadLocal));
  body_kernels(s, B);
  if (!strcmp(variant, "copy")) {
    CHECK(cudaMemcpyAsync(&B.c->seen, B.st, sizeof(Status), cudaMemcpyDeviceToDevice, s));
    cond<<<1, 1, 0, s>>>(B.c, &B.c->seen, 0, h);
  } else {
    cond<<<1, 1, 0, s>>>(B.c, B.st, !strcmp(variant, "kcopy"), h);
  }
  CHECK(cudaStreamEndCapture(s, &body));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  CHECK(cudaGraphDestroy(g));
  return x;
}

static double timed(cudaStream_t s, const Bufs &B, const char *variant, long iters) {
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  Counter c0 = {0, (unsigned long long)iters, {0, 0, 0, 0}};
  cudaGraphExec_t x = NULL;
  Status host;
  if (!strncmp(variant, "cond", 4) || !strcmp(variant, "copy") || !strcmp(variant, "kcopy")) {
    x = while_graph(s, B, variant);
  } else if (!strcmp(variant, "graph")) {
    cudaGraph_t g;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    body_kernels(s, B);
    CHECK(cudaStreamEndCapture(s, &g));
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphDestroy(g));
  }
  double best = 1e30;
  for (int round = 0; round < 3; round++) {
    CHECK(cudaMemcpy(B.c, &c0, sizeof c0, cudaMemcpyHostToDevice));
    CHECK(cudaEventRecord(e0, s));
    if (!strcmp(variant, "eager") || !strcmp(variant, "graph")) {
      for (long i = 0; i < iters; i++) {
        if (x)
          CHECK(cudaGraphLaunch(x, s));
        else
          body_kernels(s, B);
        CHECK(cudaMemcpyAsync(&host, B.st, sizeof host, cudaMemcpyDeviceToHost, s));
        CHECK(cudaStreamSynchronize(s));
        if (host.pad)
          break;
      }
    } else {
      CHECK(cudaGraphLaunch(x, s));
    }
    CHECK(cudaEventRecord(e1, s));
    CHECK(cudaEventSynchronize(e1));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    if (ms < best)
      best = ms;
  }
  Counter c;
  CHECK(cudaMemcpy(&c, B.c, sizeof c, cudaMemcpyDeviceToHost));
  if (x && strcmp(variant, "graph") && c.it != (unsigned long long)iters) {
    fprintf(stderr, "%s: ran %llu iterations, not %ld\n", variant, c.it, iters);
    exit(1);
  }
  if (x)
    CHECK(cudaGraphExecDestroy(x));
  return best * 1000.0 / iters;
}

int main(int argc, char **argv) {
  Bufs B;
  B.n = argc > 1 ? atoi(argv[1]) : 16384;
  long iters = argc > 2 ? atol(argv[2]) : 10000;
  B.blocks = (B.n + 255) / 256;
  CHECK(cudaMalloc(&B.a, B.n * sizeof(float)));
  CHECK(cudaMalloc(&B.b, B.n * sizeof(float)));
  CHECK(cudaMemset(B.a, 0, B.n * sizeof(float)));
  CHECK(cudaMemset(B.b, 0, B.n * sizeof(float)));
  CHECK(cudaMalloc(&B.st, sizeof(Status)));
  CHECK(cudaMalloc(&B.c, sizeof(Counter)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const char *variants[] = {"eager", "graph", "cond", "copy", "kcopy"};
  printf("n=%d iters=%ld (us per iteration, best of 3)\n", B.n, iters);
  for (const char *v : variants)
    printf("%-6s %8.2f\n", v, timed(s, B, v, iters));
  return 0;
}
