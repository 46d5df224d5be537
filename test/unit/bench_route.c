/* bench_route.c - what a routed launch costs the host, on the fake backend
 * (no GPU, no CUDA): nanoseconds per launch, the region's begin and end
 * shared out over its launches, for
 *   no region         the entry point finds no recording segment;
 *   eager for good    a segment that passes through (PYGRAPH_MODE=eager:
 *                     the same state as a graph fault or "signature
 *                     unstable");
 *   eager by decision one kernel an iteration, below PYGRAPH_MIN_OPS
 *                     (bitonic-sort's shape), its probes included (they
 *                     only count ops);
 *   recording         graph mode replaying every iteration: each launch
 *                     recorded (arguments copied), the iteration hashed,
 *                     compared and launched.
 * The backend's calls do nothing (the fake's logging would dominate);
 * NVTX ranges are the fake's counters.  A tool to read, not a test: its
 * numbers depend on the machine.
 *
 *   pygraph_bench_route [launches [case]]   (default 2000000 per case; a case
 *                                            by its name: only that one) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "abi/launch_counter.h"
#include "abi/record.h"
#include "harness.h"

static struct pygraph_backend bench_backend;

static cudaError_t null_execute(const struct pygraph_op *op)
{
  (void)op;
  return cudaSuccess;
}

static cudaError_t null_update(void *graph, size_t index, const struct pygraph_op *op)
{
  (void)graph;
  (void)index;
  (void)op;
  return cudaSuccess;
}

static cudaError_t null_launch(void *graph, int *ran)
{
  (void)graph;
  *ran = 1;
  return cudaSuccess;
}

static volatile int sink;

/* What "CUDA" does with a launch that passes through. */
static __attribute__((noinline)) void plain_launch(const void *func, void **args)
{
  sink += *(const int *)args[0] + (int)(unsigned long)func;
}

/* The entry point's path (cuda_entry_points.c, defer_kernel). */
static __attribute__((noinline)) void routed_launch(const pygraph_site *site, int func, int a)
{
  int a0 = a;
  long long a1 = 7;
  void *args[] = {&a0, &a1};
  dim3 grid = {1, 1, 1}, block = {32, 1, 1};
  pygraph_count_launch();
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_kernel(seg, site, FAKE_FUNC(func), grid, block, 0,
                                   pygraph_normalize_stream(S1, 0), args) == PYGRAPH_DEFERRED)
    return;
  plain_launch(FAKE_FUNC(func), args);
}

static double now_ns(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* ns per launch: `iters` iterations of `per_iter` launches (r NULL: no
 * region around them); the best of 5 runs. */
static double measure(pygraph_region *r, unsigned per_iter, unsigned long iters)
{
  static pygraph_site site = {.kernel = "bench_kernel", .file = "bench.c", .line = 1};
  double best = 0;
  for (int rep = 0; rep < 5; rep++) {
    double t0 = now_ns();
    for (unsigned long i = 0; i < iters; i++) {
      if (r)
        begin(r, 0);
      for (unsigned k = 0; k < per_iter; k++)
        routed_launch(&site, 1 + (int)k, 3);
      if (r)
        end(r);
    }
    double ns = (now_ns() - t0) / (double)(iters * per_iter);
    if (rep == 0 || ns < best)
      best = ns;
  }
  return best;
}

static pygraph_region *region_in(enum pygraph_mode mode, unsigned min_ops, const char *name)
{
  harness_settings(mode, 1, 16);
  harness_min_ops(min_ops);
  pygraph_region *r = harness_region(name, 1);
  for (int i = 0; i < 300; i++) {             /* past warm-up and first probes */
    begin(r, 0);
    routed_launch(NULL, 1, 3);
    end(r);
  }
  return r;
}

static const char *only;                    /* run only the cases named so (argv[2]) */

static void row(const char *what, pygraph_region *r, unsigned per_iter, unsigned long launches)
{
  if (only && strcmp(only, what) != 0)
    return;
  printf("%-20s %3u launch%s/iter  %7.1f ns/launch\n", what, per_iter,
         per_iter == 1 ? " " : "es", measure(r, per_iter, launches / per_iter));
}

int main(int argc, char **argv)
{
  unsigned long launches = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000000ul;
  only = argc > 2 ? argv[2] : NULL;
  if (!launches)
    launches = 1;
  fake_reset();
  bench_backend = fake_backend;
  bench_backend.execute = null_execute;
  bench_backend.graph_update_node = null_update;
  bench_backend.graph_launch = null_launch;
  harness_backend(&bench_backend);
  pygraph_region *eager = region_in(PYGRAPH_MODE_EAGER, 1, "bench_eager");
  pygraph_region *decided = region_in(PYGRAPH_MODE_AUTO, PYGRAPH_DEFAULT_MIN_OPS, "bench_min_ops");
  pygraph_region *graph1 = region_in(PYGRAPH_MODE_GRAPH, 1, "bench_graph1");
  for (unsigned per_iter = 1; per_iter <= 8; per_iter *= 8) {
    row("no region", NULL, per_iter, launches);
    row("eager for good", eager, per_iter, launches);
    if (per_iter == 1)
      row("eager by decision", decided, per_iter, launches);
    else {
      pygraph_region *graph8 = harness_region("bench_graph8", 1);
      for (int i = 0; i < 10; i++)
        measure(graph8, per_iter, 1);        /* captured with 8 ops */
      graph1 = graph8;
    }
    row("recording", graph1, per_iter, launches);
  }
  struct pygraph_segment *seg = harness_segment(decided, 0);
  printf("(eager by decision: %s, %llu of %llu iterations recorded by probes)\n",
         seg->sel.why, seg->stats.eager_iters, seg->stats.iters);
  (void)pygraph_total_launches();
  return 0;
}
