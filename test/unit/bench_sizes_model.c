/* bench_sizes_model.c - what auto mode runs in hadamard's shape, on the
 * fake backend: three regions (one per element type), each entered for five
 * sizes in turn, a batchable loop of 100 one-launch iterations per size
 * (units of 8, no trip count known to the pass), a new launch sequence
 * (kernel) per size.  The host issues an eager launch in 5 us and a graph
 * launch in 2 us; the GPU takes 5 us an eager launch, 22 us a graph of a
 * unit, never running ahead of the host; a capture costs 150 us of host
 * time; timing samples become readable `lag` us of GPU work after they were
 * recorded.  Prints, per loop, the launches made eagerly and the graph
 * launches, and the totals: the numbers the selection policy's changes for
 * this shape were judged by (bench/results.md).  A tool to read, not a
 * test.
 *
 *   pygraph_bench_sizes_model [lag_us=100] [debug=0]
 *   TRACE=<size> also draws region 0's loop of that size on stderr, one
 *   character an iteration: e/E eager (one launch / a unit's), G a graph
 *   unit, . an iteration whose launches come at its unit's end. */
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

enum { REGIONS = 3, SIZES = 5, ITERATIONS = 100, UNIT = 8 };

struct loop_counts {
  int eager, graph;
};

static void trace(int eager, int graph)
{
  fputc(graph ? 'G' : eager > 1 ? 'E' : eager ? 'e' : '.', stderr);
}

static struct loop_counts run_loop(pygraph_region *r, int kernel_id, int traced)
{
  struct loop_counts out = {0, 0};
  loop_enter(r, ITERATIONS);
  for (int i = 0; i < ITERATIONS; i++) {
    begin(r, 0);
    kernel(kernel_id, 0);
    end(r);
    int eager = harness_count(fake_log(), "k"), graph = harness_count(fake_log(), "launch");
    harness_launch_bound_host(5.0, 2.0);
    if (traced)
      trace(eager, graph);
    out.eager += eager;
    out.graph += graph;
    fake_log_clear();
  }
  loop_exit(r);
  if (traced)
    fputc('\n', stderr);
  return out;
}

int main(int argc, char **argv)
{
  double lag = argc > 1 ? atof(argv[1]) : 100.0;
  const char *traced_size = getenv("TRACE");
  struct pygraph_settings s;
  pygraph_settings_defaults(&s);
  s.mode = PYGRAPH_MODE_AUTO;
  s.debug = argc > 2 && atoi(argv[2]);
  pygraph_settings_override(&s);
  fake_reset();
  harness_fake_timing(5, 22);
  fake.capture_host_us = 150;
  fake.events_lag_us = lag;
  struct loop_counts total = {0, 0};
  static const char *names[REGIONS] = {"float", "half", "bfloat16"};
  for (int t = 0; t < REGIONS; t++) {
    pygraph_region *r = harness_batch_region(names[t], UNIT);
    r->trip_count = -1;
    for (int size = 0; size < SIZES; size++) {
      int traced = t == 0 && traced_size && atoi(traced_size) == size;
      struct loop_counts c = run_loop(r, 10 + size, traced);
      printf("%-8s size %d: eager launches %3d, graph launches %2d, decision %s\n", names[t],
             size, c.eager, c.graph, pygraph_segment_decision_name(harness_segment(r, 0)));
      total.eager += c.eager;
      total.graph += c.graph;
    }
  }
  printf("total (lag %.0f us): eager launches %d of %d iterations, graph launches %d\n", lag,
         total.eager, REGIONS * SIZES * ITERATIONS, total.graph);
  return 0;
}
