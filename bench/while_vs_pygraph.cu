// while_vs_pygraph.cu - pygraph's WHILE graph against a hand-made one over
// the same four kernels in the same process (while_body_bench.cu's
// converge-shaped body: clear, relax, measure, judge over n floats, then the
// status copied to the host and tested, capped at `iters` iterations).
// Built with the plugin (-fplugin-arg-pygraph-whole-loops=2), `loop` is a
// whole-loop candidate: run with PYGRAPH_MODE=graph it becomes one WHILE
// graph (after the first execution, which pygraph observes); `hand` is the
// same loop as a WHILE graph built by hand (the program's own capture,
// which pygraph leaves alone).  Prints microseconds per iteration of each,
// best of `rounds` executions after one warm-up execution.
//
// build: clang++ -x cuda --cuda-gpu-arch=sm_90 -O2 -fplugin=libpygraph.so
//        -fplugin-arg-pygraph-whole-loops=2 while_vs_pygraph.cu -x none
//        libpygraph_rt.a -lcudart_static -ldl -lrt -lpthread
// usage: while_vs_pygraph [n=16384] [iters=4000] [rounds=3]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#include "while_bench_body.h"

// The loop pygraph makes one WHILE graph: returns the iterations it ran.
__attribute__((noinline)) static int loop(float *a, float *b, Status *st, int n, int iters, cudaStream_t s) {
  const int blocks = (n + 255) / 256;
  Status host;
  int it = 0;
  do {
    clear_status<<<1, 1, 0, s>>>(st);
    relax<<<blocks, 256, 0, s>>>(b, a, n);
    measure<<<blocks, 256, 0, s>>>(b, a, st, n);
    judge<<<1, 1, 0, s>>>(st);
    cudaMemcpyAsync(&host, st, sizeof host, cudaMemcpyDeviceToHost, s);
    cudaStreamSynchronize(s);
    ++it;
  } while (host.pad == 0 && it < iters);
  return it;
}

struct Counter {
  unsigned long long it, limit;
};

__global__ void cond(Counter *c, const Status *st, cudaGraphConditionalHandle h) {
  unsigned keep = ++c->it < c->limit && st->pad == 0;
  cudaGraphSetConditional(h, keep);
}

// The same loop as a WHILE graph made by hand.
static cudaGraphExec_t hand_graph(float *a, float *b, Status *st, Counter *c, int n,
                                  cudaStream_t s) {
  const int blocks = (n + 255) / 256;
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
  clear_status<<<1, 1, 0, s>>>(st);
  relax<<<blocks, 256, 0, s>>>(b, a, n);
  measure<<<blocks, 256, 0, s>>>(b, a, st, n);
  judge<<<1, 1, 0, s>>>(st);
  cond<<<1, 1, 0, s>>>(c, st, h);
  CHECK(cudaStreamEndCapture(s, &body));
  cudaGraphExec_t x;
  CHECK(cudaGraphInstantiate(&x, g, 0));
  CHECK(cudaGraphDestroy(g));
  return x;
}

static double now_us() {
  return std::chrono::duration<double, std::micro>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 16384;
  int iters = argc > 2 ? atoi(argv[2]) : 4000;
  int rounds = argc > 3 ? atoi(argv[3]) : 3;
  float *a, *b;
  Status *st;
  Counter *c;
  CHECK(cudaMalloc(&a, n * sizeof(float)));
  CHECK(cudaMalloc(&b, n * sizeof(float)));
  CHECK(cudaMemset(a, 0, n * sizeof(float)));
  CHECK(cudaMemset(b, 0, n * sizeof(float)));
  CHECK(cudaMalloc(&st, sizeof(Status)));
  CHECK(cudaMemset(st, 0, sizeof(Status)));
  CHECK(cudaMalloc(&c, sizeof(Counter)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  double best_loop = 1e30, best_hand = 1e30;
  cudaGraphExec_t x = hand_graph(a, b, st, c, n, s);
  for (int r = 0; r <= rounds; r++) {
    double t0 = now_us();
    int ran = loop(a, b, st, n, iters, s);
    double t1 = now_us();
    if (ran != iters)
      fprintf(stderr, "loop ran %d iterations, not %d\n", ran, iters);
    Counter c0 = {0, (unsigned long long)iters};
    CHECK(cudaMemcpy(c, &c0, sizeof c0, cudaMemcpyHostToDevice));
    double t2 = now_us();
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    double t3 = now_us();
    if (r > 0) {                       // round 0: pygraph observes, both warm up
      best_loop = (t1 - t0) / iters < best_loop ? (t1 - t0) / iters : best_loop;
      best_hand = (t3 - t2) / iters < best_hand ? (t3 - t2) / iters : best_hand;
    }
  }
  printf("n=%d iters=%d: loop %.2f us/iteration, hand WHILE %.2f us/iteration\n", n, iters,
         best_loop, best_hand);
  return 0;
}
