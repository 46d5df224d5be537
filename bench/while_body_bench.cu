// while_body_bench.cu - what one iteration of a WHILE graph's body costs on
// the GPU, by node kind: converge's four kernels (clear, relax, measure,
// judge over n floats) followed by
//   cond      a condition kernel that reads the status where the kernels
//             wrote it (the hand-written whole loop),
//   copy      a 16-byte device-to-device memcpy node of the status into a
//             second block, then the condition kernel reading that block
//             (how pygraph's WHILE body delivered the status),
//   kcopy     the condition kernel copying the 16 bytes itself,
//   cond+...  cond with what pygraph's body adds, one at a time and all:
//             pdl (its twins' griddepcontrol prologue), argblk (the kernels
//             load their arguments from a device block, as twins do), wide
//             (a 128-thread condition kernel staging 512 bytes in shared
//             memory, as pygraph's does), tag (argblk kernels with a
//             1000-byte unused by-value parameter, a twin's layout tag), local
//             (the condition kernel with a stack frame in local memory), lib (the condition kernel loaded
//             from PTX at run time, bench/while_body_cond.cu, given as the
//             third argument),
// against the same four kernels as one graph per iteration with the status
// copied to the host and tested there (per-iteration graphs), and eager.
// Every variant runs `iters` iterations (the test counts, it does not
// converge), timed with events; prints microseconds per iteration.
//
// build: nvcc -O2 -arch=sm_90 bench/while_body_bench.cu -o while_body_bench
// usage: while_body_bench [n=16384] [iters=10000] [cond.ptx]
//   (cond.ptx: clang++ --cuda-device-only -S --cuda-gpu-arch=sm_90 -O2
//    bench/while_body_cond.cu -o cond.ptx)
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime.h>

#include "while_bench_body.h"

// The same kernels reading their arguments from a device block (as twins do),
// with an unused by-value parameter of T bytes (a twin's layout tag: up to
// 1021 bytes; T = 1 stands for none).
struct KArgs {
  float *a, *b;
  Status *st;
  int n;
};

template <int T> struct Tag {
  char bytes[T];
};

template <int T> __global__ void clear_k(const KArgs *k, int pdl, Tag<T>) {
  prologue(pdl);
  k->st->notconv = k->st->above = 0;
  k->st->maxdiff = 0;
}

template <int T> __global__ void relax_k(const KArgs *k, int pdl, Tag<T>) {
  float *out = k->b;
  const float *in = k->a;
  int n = k->n;
  prologue(pdl);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i == 0 || i == n - 1 ? in[i] : 0.5f * in[i] + 0.25f * (in[i - 1] + in[i + 1]);
}

template <int T> __global__ void measure_k(const KArgs *k, int pdl, Tag<T>) {
  const float *out = k->b, *in = k->a;
  Status *st = k->st;
  int n = k->n;
  prologue(pdl);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && fabsf(out[i] - in[i]) > 1e-6f)
    atomicAdd(&st->above, 1);
}

template <int T> __global__ void judge_k(const KArgs *k, int pdl, Tag<T>) {
  prologue(pdl);
  k->st->notconv = k->st->above > 0;
}

struct Counter {
  unsigned long long it, limit;
  Status seen;
};

// Keeps going while it < limit; `st` is where it reads the status from.
// Launched wide (the "wide" variants), its threads first copy `stage_bytes`
// of c into shared memory, as pygraph's condition kernel stages its block.
__global__ void cond(Counter *c, const Status *st, int copy_itself, cudaGraphConditionalHandle h,
                     int stage_bytes = 0) {
  extern __shared__ unsigned long long stage[];
  for (int k = threadIdx.x; k < stage_bytes / 8; k += blockDim.x)
    stage[k] = ((const unsigned long long *)c)[k % (sizeof(Counter) / 8)];
  if (stage_bytes)
    __syncthreads();
  if (threadIdx.x != 0)
    return;
  if (copy_itself == 2) {            // the "local" variant: a stack frame in local memory
    volatile unsigned frame[32];
    for (int k = 0; k < 32; k++)
      frame[k] = (unsigned)c->it + k;
    if (frame[c->it % 32] == 0xffffffffu)
      c->seen.pad = 1;
  }
  if (copy_itself == 1)
    c->seen = *st;
  unsigned keep = ++c->it < c->limit && (c->seen.pad == 0 || st->pad == 0);
  cudaGraphSetConditional(h, keep);
}

struct Bufs {
  float *a, *b;
  Status *st, *blk;
  Counter *c;
  KArgs *k;
  int n, blocks;
};

// The variants' knobs: the twins' prologue, arguments from a block, a wide
// staging condition kernel.
static int g_pdl, g_argblk, g_wide, g_tag;
// The condition kernel loaded from PTX at run time (cudaLibraryLoadFromFile
// of argv[3], as pygraph loads its own): the "lib" variant.
static cudaKernel_t g_lib_kernel, g_lib;

static void body_kernels(cudaStream_t s, const Bufs &B) {
  if (g_argblk) {
    if (g_tag) {
      Tag<1000> t = {};
      clear_k<<<1, 1, 0, s>>>(B.k, g_pdl, t);
      relax_k<<<B.blocks, 256, 0, s>>>(B.k, g_pdl, t);
      measure_k<<<B.blocks, 256, 0, s>>>(B.k, g_pdl, t);
      judge_k<<<1, 1, 0, s>>>(B.k, g_pdl, t);
    } else {
      Tag<1> t = {};
      clear_k<<<1, 1, 0, s>>>(B.k, g_pdl, t);
      relax_k<<<B.blocks, 256, 0, s>>>(B.k, g_pdl, t);
      measure_k<<<B.blocks, 256, 0, s>>>(B.k, g_pdl, t);
      judge_k<<<1, 1, 0, s>>>(B.k, g_pdl, t);
    }
    return;
  }
  clear_status<<<1, 1, 0, s>>>(B.st, g_pdl);
  relax<<<B.blocks, 256, 0, s>>>(B.b, B.a, B.n, g_pdl);
  measure<<<B.blocks, 256, 0, s>>>(B.b, B.a, B.st, B.n, g_pdl);
  judge<<<1, 1, 0, s>>>(B.st, g_pdl);
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
  } else if (g_lib) {
    int zero = 0, copy = 0;
    void *args[] = {(void *)&B.c, (void *)&B.st, &copy, &h, &zero};
    CHECK(cudaLaunchKernel((const void *)g_lib, dim3(1), dim3(1), args, 0, s));
  } else if (strstr(variant, "local")) {
    cond<<<1, 1, 0, s>>>(B.c, B.st, 2, h);
  } else if (g_wide) {
    cond<<<1, 128, 512, s>>>(B.c, B.st, 0, h, 512);
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
  g_pdl = strstr(variant, "pdl") != NULL;
  g_argblk = strstr(variant, "argblk") != NULL;
  g_wide = strstr(variant, "wide") != NULL;
  g_tag = strstr(variant, "tag") != NULL;
  g_lib = strstr(variant, "lib") ? g_lib_kernel : NULL;
  if (!strncmp(variant, "cond", 4) || !strcmp(variant, "copy") || !strcmp(variant, "kcopy")) {
    x = while_graph(s, B, variant);
  } else if (!strncmp(variant, "graph", 5)) {
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
    if (!strcmp(variant, "eager") || !strncmp(variant, "graph", 5)) {
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
  if (x && strncmp(variant, "graph", 5) && c.it != (unsigned long long)iters) {
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
  KArgs k0 = {B.a, B.b, B.st, B.n};
  CHECK(cudaMalloc(&B.k, sizeof(KArgs)));
  CHECK(cudaMemcpy(B.k, &k0, sizeof k0, cudaMemcpyHostToDevice));
  const char *variants[] = {"eager", "graph", "cond", "copy", "kcopy", "cond+pdl",
                            "cond+argblk", "cond+wide", "cond+pdl+argblk+wide", "cond+argblk+tag",
                            "graph+argblk+tag", "cond+lib", "cond+local"};
  if (argc > 3) {
    cudaLibrary_t lib;
    CHECK(cudaLibraryLoadFromFile(&lib, argv[3], NULL, NULL, 0, NULL, NULL, 0));
    CHECK(cudaLibraryGetKernel(&g_lib_kernel, lib, "cond_lib"));
  }
  printf("n=%d iters=%ld (us per iteration, best of 3)\n", B.n, iters);
  for (const char *v : variants)
    if (!strstr(v, "lib") || g_lib_kernel)
      printf("%-22s %8.2f\n", v, timed(s, B, v, iters));
  return 0;
}
