/* test_undecided.c - an undecided segment never runs what its samples have
 * not shown faster, nothing is concluded below the floor of samples
 * (PYGRAPH_MEASURE_MIN a side), and verdicts do not hinge on one noisy
 * sample or on the order in which samples arrive (issue 39); an undecided
 * graph of a new launch sequence runs before its own samples only on a kept
 * sibling's clear gain, bounded. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/report.h"
#include "check.h"
#include "harness.h"
#include "selection/decide.h"
#include "selection/signatures.h"
#include "selection/verdicts.h"

static void one_kernel(pygraph_region *r, int a)
{
  begin(r, 0);
  kernel(1, a);
  end(r);
}

static void default_settings(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, PYGRAPH_DEFAULT_WARMUP, PYGRAPH_DEFAULT_MAX_CAPTURES);
  harness_eager_before_capture(PYGRAPH_DEFAULT_EAGER_BEFORE_CAPTURE);
  harness_measure(PYGRAPH_DEFAULT_MEASURE_ITERS, PYGRAPH_DEFAULT_MARGIN_PCT);
}

/* adam's and gelu's short loops in the field corpus: the warm-up's eager
 * samples read, then a GPU-bound tail whose graph samples never come back
 * before the loop ends.  They ended decision=graph, why="undecided after 9
 * iterations (eager x2, graph x0 samples)": graphs ran the whole loop on no
 * graph sample at all.  Now the graph runs only in its measuring turn, the
 * rest eagerly, and the report says so. */
static void test_short_loop_runs_eagerly(void)
{
  default_settings();
  pygraph_region *r = harness_region("adam_shape", 1);
  fake_reset();
  harness_fake_timing(10, 9);
  int a = 0;
  for (unsigned i = 0; i <= PYGRAPH_DEFAULT_EAGER_BEFORE_CAPTURE; i++)
    one_kernel(r, a++);                            /* the warm-up's samples, the capture */
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.captures == 1 && seg->sel.decision == PYGRAPH_UNDECIDED);
  fake.events_lag_us = 1e6;                        /* nothing read from here on */
  fake_log_clear();
  for (int i = 0; i < 9; i++)
    one_kernel(r, a++);
  CHECK(harness_count(fake_log(), "launch") <= (int)PYGRAPH_TURN_RUN);   /* its samples, in flight */
  CHECK(harness_count(fake_log(), "k1(") >= 9 - (int)PYGRAPH_TURN_RUN);
  const char *last = strrchr(fake_log(), ' ');
  CHECK(last && strncmp(last, " k1(", 4) == 0);    /* ends eager */
  char line[1024];
  pygraph_report_format_segment(line, sizeof line, seg);
  CHECK(strstr(line, " decision=eager eager_us=10.0 graph_us=0.0 variants=1 why=\"undecided: "
                     "eager (too few samples) after 9 iterations (eager x3, graph x0 "
                     "samples)\"") != NULL);
  fake.events_lag_us = 0;
}

/* A close case (graph 17 us, eager 20: faster by more than the margin, not
 * clearly): once the floor of samples shows the graph faster, the
 * iterations that are no measuring turn (samples in flight) run the graph,
 * untimed, and the report says so; the full windows then keep it.  Within
 * the margin (19.8 us) the graph is never shown faster. */
static void test_graph_shown_faster_runs_meanwhile(void)
{
  default_settings();
  pygraph_region *r = harness_region("close_faster", 1);
  fake_reset();
  harness_fake_timing(20, 17);
  fake.events_lag_us = 150;                        /* samples ~8 iterations late */
  int a = 0;
  struct pygraph_segment *seg = NULL;
  int shown = 0;
  for (int i = 0; i < 300 && !shown; i++) {
    one_kernel(r, a++);
    seg = harness_segment(r, 0);
    shown = strncmp(seg->sel.why, "undecided: graph (faster so far)", 32) == 0;
  }
  CHECK(shown && seg->sel.decision == PYGRAPH_UNDECIDED);
  CHECK_STR(pygraph_segment_decision_name(seg), "graph");
  int records = fake_timing_records;
  fake_log_clear();
  for (int i = 0; i < 4 && seg->sel.decision == PYGRAPH_UNDECIDED; i++)
    one_kernel(r, a++);
  /* Some of these are turns (eager's, timed); the rest run the graph. */
  CHECK(harness_count(fake_log(), "launch") + harness_count(fake_log(), "k1(") == 4);
  CHECK(harness_count(fake_log(), "launch") >= 1);
  CHECK(fake_timing_records - records <= 4);
  for (int i = 0; i < 300 && seg->sel.decision == PYGRAPH_UNDECIDED; i++)
    one_kernel(r, a++);
  CHECK(seg->sel.decision == PYGRAPH_DECIDED_GRAPH);
  CHECK_STR(seg->sel.why, "graph faster (17.0 us vs 20.0 us per iteration)");

  /* 1% faster is within the margin: not shown faster, eager meanwhile. */
  pygraph_region *r2 = harness_region("close_within_margin", 1);
  fake_reset();
  harness_fake_timing(20, 19.8);
  fake.events_lag_us = 150;
  int settled = 0;
  for (int i = 0; i < 300 && !settled; i++) {
    one_kernel(r2, a++);
    seg = harness_segment(r2, 0);
    settled = strncmp(seg->sel.why, "undecided: eager (graph not faster)", 35) == 0;
    CHECK(strncmp(seg->sel.why, "undecided: graph", 16) != 0);
  }
  CHECK(settled && seg->sel.decision == PYGRAPH_UNDECIDED);
  CHECK_STR(pygraph_segment_decision_name(seg), "eager");
  for (int i = 0; i < 300 && seg->sel.decision == PYGRAPH_UNDECIDED; i++) {
    one_kernel(r2, a++);
    CHECK(strncmp(seg->sel.why, "undecided: graph", 16) != 0);
  }
  CHECK(seg->sel.decision == PYGRAPH_DECIDED_EAGER);
  fake.events_lag_us = 0;
}

/* ---- noisy timings ----------------------------------------------------- */

static unsigned long long rng_state;

static double uniform(void)
{
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* n costs around `base`: within +-3%, every fourth one an outlier 30% off
 * (up or down in turn): a host hiccup, a cold replay, a lucky one. */
static void noisy(double *out, unsigned n, double base, unsigned long long seed)
{
  rng_state = seed;
  for (unsigned i = 0; i < n; i++) {
    double e = i % 4 == 3 ? (i % 8 == 3 ? 0.30 : -0.30) : 0.06 * (uniform() - 0.5);
    out[i] = base * (1.0 + e);
  }
}

/* The same values in another order (seed 0: as they are). */
static void permute(double *v, unsigned n, unsigned long long seed)
{
  if (!seed)
    return;
  rng_state = seed;
  for (unsigned i = n; i > 1; i--) {
    unsigned j = (unsigned)(uniform() * i);
    double t = v[i - 1];
    v[i - 1] = v[j];
    v[j] = t;
  }
}

#define NOISY_N 64u

struct run_result {
  enum pygraph_decision_state decision;
  char why[24];                                 /* its words before the figures */
  unsigned long long in_graphs, iters;
};

/* One segment of 1-op iterations whose eager runs cost `eager` and whose
 * graph replays cost `graph` (both noisy), the samples in permutation
 * `perm`, the GPU `lag_us` behind, `iters` iterations. */
static struct run_result noisy_run(double eager, double graph, unsigned long long perm,
                                   double lag_us, unsigned iters)
{
  static double e[NOISY_N], g[NOISY_N];
  static unsigned serial;
  char name[32];
  snprintf(name, sizeof name, "noisy_%u", serial++);
  default_settings();
  pygraph_region *r = harness_region(strdup(name), 1);
  noisy(e, NOISY_N, eager, 1);
  noisy(g, NOISY_N, graph, 2);
  permute(e, NOISY_N, perm);
  permute(g, NOISY_N, perm + 1000);
  fake_reset();
  harness_fake_timing(eager, graph);
  fake.eager_costs = e;
  fake.n_eager_costs = NOISY_N;
  fake.graph_costs = g;
  fake.n_graph_costs = NOISY_N;
  fake.events_lag_us = lag_us;
  for (unsigned i = 0; i < iters; i++)
    one_kernel(r, (int)i);
  struct pygraph_segment *seg = harness_segment(r, 0);
  struct run_result out = {.decision = seg->sel.decision, .in_graphs = seg->stats.launches_in_graphs,
                           .iters = seg->stats.iters};
  snprintf(out.why, sizeof out.why, "%.*s", (int)strcspn(seg->sel.why, "("), seg->sel.why);
  if (getenv("DBG"))
    fprintf(stderr, "perm %llu: decision %d in graphs %llu: %s\n", perm, (int)out.decision,
            out.in_graphs, seg->sel.why);
  fake.eager_costs = fake.graph_costs = NULL;
  fake.n_eager_costs = fake.n_graph_costs = 0;
  fake.events_lag_us = 0;
  return out;
}

/* The same noisy costs, permuted: every permutation reaches the same
 * verdict, for the same reason. */
static void check_permutations(double eager, double graph, double lag_us, unsigned iters,
                               enum pygraph_decision_state expect)
{
  struct run_result first = noisy_run(eager, graph, 0, lag_us, iters);
  CHECK(first.decision == expect);
  for (unsigned long long perm = 1; perm <= 24; perm++) {
    struct run_result r = noisy_run(eager, graph, perm, lag_us, iters);
    CHECK(r.decision == first.decision);
    CHECK_STR(r.why, first.why);
  }
}

/* A graph 10% faster (outside the margin, not clearly): the full windows
 * keep it, whatever order the samples come in - the GPU on time, or behind
 * so that samples come back late and few. */
static void test_permuted_noise_same_verdict(void)
{
  check_permutations(20.0, 18.0, 0, 400, PYGRAPH_DECIDED_GRAPH);
  check_permutations(20.0, 18.0, 200, 400, PYGRAPH_DECIDED_GRAPH);
  /* No faster (within the margin): eager, in any order. */
  check_permutations(20.0, 20.0, 0, 400, PYGRAPH_DECIDED_EAGER);
  check_permutations(20.0, 20.0, 200, 400, PYGRAPH_DECIDED_EAGER);
}

static void two_kernels(pygraph_region *r, int k, int a)
{
  begin(r, 0);
  kernel(k, a);
  kernel(k + 1, a);
  end(r);
}

/* n iterations of launch sequence k (kernels k and k + 1): how many ran as
 * a graph (an iteration whose log holds a launch: a batchable loop's unit
 * counts at its last iteration), and how many eagerly after its capture
 * (the first build). */
struct sequence_runs {
  int graph, eager_after_capture, iterations;
};

static void add_iteration(struct sequence_runs *out, int k, int *captured)
{
  char eager_token[16];
  snprintf(eager_token, sizeof eager_token, "k%d(", k);
  *captured |= strstr(fake_log(), "build(") != NULL;
  int graph = harness_count(fake_log(), "launch") > 0;
  out->graph += graph;
  out->eager_after_capture += *captured && !graph && strstr(fake_log(), eager_token) != NULL;
  out->iterations++;
}

static struct sequence_runs run_sequence(pygraph_region *r, int k, int *a, int n)
{
  struct sequence_runs out = {0, 0, 0};
  int captured = 0;
  for (int i = 0; i < n; i++) {
    fake_log_clear();
    two_kernels(r, k, (*a)++);
    add_iteration(&out, k, &captured);
  }
  return out;
}

/* Settings at their defaults and fresh fake timings (eager 20 us an op, a
 * graph launch 8 us, samples readable lag_us of GPU work late), then launch
 * sequence 1 on r until its graph is kept (at most 300 iterations): the
 * segment's state. */
static struct pygraph_segment *decided_on_first_sequence(pygraph_region *r, double lag_us,
                                                         int *a)
{
  default_settings();
  fake_reset();
  harness_fake_timing(20, 8);
  fake.events_lag_us = lag_us;
  struct pygraph_segment *seg = NULL;
  for (int i = 0; i < 300 && (!seg || seg->sel.decision != PYGRAPH_DECIDED_GRAPH); i++) {
    two_kernels(r, 1, (*a)++);
    seg = harness_segment(r, 0);
  }
  return seg;
}

/* hadamard's shape: one segment, a launch sequence per size, a loop of a
 * few dozen iterations each, samples read ~8 iterations late.  Once one
 * sequence's graph was clearly faster, a new sequence's graph runs while
 * its own samples are in flight, and eager runs only for the floor of
 * samples its verdict needs (no eager window before the graph's samples
 * are read).  Its samples still decide: a new sequence whose graph is
 * slower runs eagerly once they are read, having run as a graph no longer
 * than they took. */
static void test_sibling_graph_runs_new_sequence_meanwhile(void)
{
  pygraph_region *r = harness_region("one_size_after_another", 1);
  int a = 0;
  struct pygraph_segment *seg = decided_on_first_sequence(r, 150, &a);
  CHECK(seg->sel.decision == PYGRAPH_DECIDED_GRAPH);
  CHECK(pygraph_sibling_clearly_faster(pygraph_verdicts_sibling_gain(&seg->sel)));
  CHECK(pygraph_sibling_clearly_faster(0.25) && !pygraph_sibling_clearly_faster(0.15) &&
        !pygraph_sibling_clearly_faster(0.0));    /* a clear case's ratio, 4/5 */

  struct sequence_runs next = run_sequence(r, 3, &a, 40);
  CHECK(seg->sel.decision == PYGRAPH_DECIDED_GRAPH);
  CHECK(next.eager_after_capture <= (int)PYGRAPH_MEASURE_MIN);
  CHECK(next.graph >= 40 - 2 * (int)PYGRAPH_DEFAULT_EAGER_BEFORE_CAPTURE - (int)PYGRAPH_MEASURE_MIN);

  /* A close slower one (44 us against eager's 40, the kept numbers still
   * 8 against 40): once its own floor of samples is read it runs only in
   * its measuring turns, as any undecided graph. */
  harness_fake_timing(20, 44);
  struct sequence_runs close = run_sequence(r, 7, &a, 53);
  CHECK(close.graph < 53 / 2);

  /* Samples that never come back (a GPU stuck far behind): a new sequence's
   * graph runs on the sibling's gain for PYGRAPH_SIBLING_TRUST_ITERS
   * iterations of its own at most, not until PYGRAPH_VERDICT_ITERS. */
  fake.events_lag_us = 1e12;
  harness_fake_timing(20, 80);
  struct sequence_runs unread = run_sequence(r, 9, &a, 120);
  CHECK(unread.graph <= (int)(PYGRAPH_SIBLING_TRUST_ITERS + PYGRAPH_TURN_RUN));
  fake.events_lag_us = 150;
  harness_fake_timing(5, 50);                      /* this sequence's graph: slower */
  struct sequence_runs slower = run_sequence(r, 5, &a, 60);
  CHECK(slower.graph >= 1 && slower.graph <= 12);
  struct sequence_runs after = run_sequence(r, 5, &a, 10);
  CHECK(after.graph == 0);                         /* eager once its samples were read */
  CHECK(seg->sel.decision == PYGRAPH_DECIDED_GRAPH);   /* the first sequences' graphs stay */
  fake.events_lag_us = 0;
}

/* A loop of one launch of kernel k, entered with its trip count n (a
 * batchable loop's units), run to its end by a launch-bound host. */
static struct sequence_runs run_loop(pygraph_region *r, int k, int *a, int n)
{
  struct sequence_runs out = {0, 0, 0};
  int captured = 0;
  loop_enter(r, n);
  for (int i = 0; i < n; i++) {
    fake_log_clear();
    begin(r, 0);
    kernel(k, (*a)++);
    end(r);
    add_iteration(&out, k, &captured);
    harness_launch_bound_host(5.0, 2.0);
  }
  loop_exit(r);
  return out;
}

/* The same in hadamard's own form: a batchable loop of 100 one-launch
 * iterations per size (units of 8, no trip count known to the pass),
 * samples ~3 units late from the start.  The first size runs eagerly (a
 * young segment's backlog is presumed GPU-bound), the second's graph is
 * measured in turns and kept; from the third on, eager's floor of samples
 * comes from the warm-up and, before the new graph's samples are read,
 * eager takes no window of turns (a clear case needs none): the graph
 * runs, no unit eagerly after the capture. */
static void test_sibling_graph_new_sequence_in_units(void)
{
  default_settings();
  pygraph_region *r = harness_batch_region("sizes_in_units", 8);
  r->trip_count = -1;
  fake_reset();
  harness_fake_timing(5, 22);
  fake.events_lag_us = 100;
  int a = 0;
  run_loop(r, 1, &a, 100);
  run_loop(r, 3, &a, 100);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->sel.decision == PYGRAPH_DECIDED_GRAPH);
  for (int k = 5; k <= 9; k += 2) {
    struct sequence_runs size = run_loop(r, k, &a, 100);
    CHECK(size.eager_after_capture == 0);
    CHECK(size.graph >= 9);                        /* units of the 12 */
    CHECK(seg->sel.decision == PYGRAPH_DECIDED_GRAPH);
  }
  fake.events_lag_us = 0;
}

/* The live graph of `sel` whose verdict is (not) decided, or NULL. */
static const struct pygraph_variant *graph_decided(struct pygraph_selection *sel, int decided)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *v = pygraph_sel_live(sel, i);
    if (v && pygraph_sel_verdict(sel, v)->decided == decided)
      return v;
  }
  return NULL;
}

/* A sibling's gain counts only while a graph of another sequence is kept:
 * after a re-evaluation (every graph measured afresh, the segment's numbers
 * those of its old verdict) a new sequence's graph waits for its samples. */
static void test_sibling_gain_needs_a_kept_graph(void)
{
  pygraph_region *r = harness_region("kept_sibling", 1);
  int a = 0;
  struct pygraph_segment *seg = decided_on_first_sequence(r, 0, &a);
  fake.events_lag_us = 1e12;                       /* the new graph's samples: unread */
  run_sequence(r, 3, &a, 8);
  const struct pygraph_variant *kept = graph_decided(&seg->sel, 1);
  const struct pygraph_variant *fresh = graph_decided(&seg->sel, 0);
  CHECK(kept && fresh && kept->hash != fresh->hash);
  CHECK(fresh && pygraph_verdicts_runs_on_sibling(&seg->sel, fresh));
  if (kept && fresh) {
    pygraph_sel_verdict(&seg->sel, kept)->decided = 0;   /* as a re-evaluation leaves it */
    CHECK(!pygraph_verdicts_runs_on_sibling(&seg->sel, fresh));
    pygraph_sel_verdict(&seg->sel, kept)->decided = 1;
  }
  fake.events_lag_us = 0;
}

int main(void)
{
  test_short_loop_runs_eagerly();
  test_graph_shown_faster_runs_meanwhile();
  test_permuted_noise_same_verdict();
  test_sibling_graph_runs_new_sequence_meanwhile();
  test_sibling_graph_new_sequence_in_units();
  test_sibling_gain_needs_a_kept_graph();
  return check_finish();
}
