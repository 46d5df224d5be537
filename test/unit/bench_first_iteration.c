/* bench_first_iteration.c - what a region's first iteration costs the host,
 * on the fake backend (no GPU, no CUDA calls): the time from the loop's
 * entry to the end of its first iteration of one launch, for the first
 * region of each mode (eager's is the process's first) and for later new
 * ones, in eager and auto mode.  In a
 * GPU-bound timed loop this comes once, before the first launch reaches an
 * idle GPU (bench/results.md: adam's and gelu's one-time loss).  A tool to
 * read, not a test: its numbers depend on the machine.
 *
 *   pygraph_bench_first_iteration [regions]   (default 200 a mode) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "harness.h"

static double now_us(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

/* A new region's loop entry and first iteration, in microseconds. */
static double first_iteration_us(unsigned k, enum pygraph_mode mode)
{
  size_t room = 48;
  char *name = malloc(room);        /* the region keeps its name */
  if (!name)
    return 0;
  snprintf(name, room, "first_%s_%u", mode == PYGRAPH_MODE_EAGER ? "eager" : "auto", k);
  pygraph_region *r = harness_batch_region(name, 32);
  double t0 = now_us();
  loop_enter(r, 100);
  begin(r, 0);
  kernel(1, 0);
  end(r);
  double t = now_us() - t0;
  loop_exit(r);
  fake_log_clear();
  return t;
}

static int by_value(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
  unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 200u;
  if (n < 2)
    n = 2;
  double *t = malloc(n * sizeof *t);
  if (!t)
    return 1;
  fake_reset();
  fake_range_no_tool = 1;           /* a run without a profiler: NVTX finds no tool */
  const enum pygraph_mode modes[2] = {PYGRAPH_MODE_EAGER, PYGRAPH_MODE_AUTO};
  for (int m = 0; m < 2; m++) {
    harness_settings(modes[m], 2, 16);
    for (unsigned k = 0; k < n; k++)
      t[k] = first_iteration_us(k, modes[m]);
    double first = t[0];
    qsort(t + 1, n - 1, sizeof *t, by_value);
    printf("%-5s first region %6.1f us%s; later new regions: median %5.1f us, min %5.1f, "
           "max %6.1f\n", m ? "auto" : "eager", first, m ? "" : " (the process's first)",
           t[1 + (n - 1) / 2], t[1], t[n - 1]);
  }
  free(t);
  return 0;
}
