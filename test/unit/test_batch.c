/* test_batch.c - batchable loops (PYGRAPH_REGION_BATCH): units of K loop
 * iterations recorded, captured and replayed as one graph; the choice of K;
 * tails, exits, flushes and faults running every op exactly once. */
#include <stdlib.h>

#include "segment/batch.h"
#include "check.h"
#include "harness.h"
#include "abi/report.h"

/* Occurrences of `token` (a whole word) in the fake log. */
static int count(const char *token)
{
  int n = 0;
  size_t len = strlen(token);
  for (const char *p = fake_log(); (p = strstr(p, token)) != NULL; p += len)
    if ((p == fake_log() || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
      n++;
  return n;
}

/* Was iteration i's kernel run eagerly (recorded or passed through)? */
static int ran_eagerly(int i)
{
  char a[32], b[32];
  snprintf(a, sizeof a, "k1(%d)", i);
  snprintf(b, sizeof b, "p:k1(%d)", i);
  return count(a) + count(b);
}

/* One loop iteration as the pass instruments it: begin at the header, the
 * launch, end before the latch's branch. */
static void iteration(pygraph_region *r, int i)
{
  begin(r, 0);
  kernel(1, i);
  end(r);
}

/* A whole loop run of n iterations, entered and left as the pass does. */
static void loop(pygraph_region *r, long long trips_hint, int first, int n)
{
  loop_enter(r, trips_hint);
  for (int i = first; i < first + n; i++)
    iteration(r, i);
  loop_exit(r);
}

static void test_choose_k(void)
{
  struct pygraph_batch_limits in = {.max = 32, .ops_per_iter = 1, .max_ops = 4096, .trips = -1};
  CHECK(pygraph_batch_choose_k(&in) == 32);
  in.max = 24;                                  /* a power of 2: even, period-2 swaps repeat */
  CHECK(pygraph_batch_choose_k(&in) == 16);
  in.max = 32;
  in.max_ops = 200;
  in.ops_per_iter = 5;                          /* half the op cap: 200 / 10 = 20 */
  CHECK(pygraph_batch_choose_k(&in) == 16);
  in.max_ops = 4096;
  in.ops_per_iter = PYGRAPH_BATCH_MAX_ITER_OPS - 1;
  CHECK(pygraph_batch_choose_k(&in) == 32);
  in.ops_per_iter = PYGRAPH_BATCH_MAX_ITER_OPS; /* its graph keeps the GPU busy already */
  CHECK(pygraph_batch_choose_k(&in) == 1);
  in.ops_per_iter = 3000;
  CHECK(pygraph_batch_choose_k(&in) == 1);
  in.ops_per_iter = 1;
  in.trips = 100;                               /* >= 8 full units: 12 -> 8 */
  CHECK(pygraph_batch_choose_k(&in) == 8);
  in.trips = 15;                                /* too short to batch */
  CHECK(pygraph_batch_choose_k(&in) == 1);
  in.trips = -1;
  in.several_streams = 1;                       /* multi-stream iterations: 2 a unit */
  CHECK(pygraph_batch_choose_k(&in) == PYGRAPH_BATCH_MULTISTREAM_K);
  in.several_streams = 0;
  CHECK(pygraph_batch_choose_k(&in) == 32);
  in.trips = 0;
  CHECK(pygraph_batch_choose_k(&in) == 1);
  in.trips = -1;
  in.max = 1;                                   /* batch=1 / PYGRAPH_BATCH=1 */
  CHECK(pygraph_batch_choose_k(&in) == 1);
}

/* Graph mode, K = 4: unit 0 runs as it comes (warm-up), unit 1 is captured,
 * units 2..4 replay, the 2-iteration tail runs eagerly. */
static void test_units_capture_replay_and_tail(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_batch_region("units", 4);
  fake_reset();
  loop(r, 1000, 0, 22);   /* the hint bounds K, not the run */
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->batch.k == 4);
  CHECK(seg->stats.captures == 1);
  CHECK(seg->stats.replays == 3);
  CHECK(seg->stats.graph_iters == 16);          /* 4 units of 4 */
  CHECK(seg->stats.tail_iters == 2);
  CHECK(count("launch") == 4);
  for (int i = 0; i < 22; i++)                  /* eager: warm-up and tail only */
    CHECK(ran_eagerly(i) == (i < 4 || i >= 20));
  CHECK(pygraph_open_region_depth() == 0);
  CHECK(pygraph_recording_segment() == NULL);
  char line[1024];
  pygraph_report_format_segment(line, sizeof line, seg);
  CHECK(strstr(line, " batched K=4 iters_per_graph=4.0 tail_iters=2\n") != NULL);
}

/* The graph's nodes get each unit's arguments: with indirection the last
 * unit launched reads iterations 16..19 from its block. */
static void test_replay_carries_each_iterations_arguments(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_indirect(1);
  pygraph_region *r = harness_batch_region("args", 4);
  fake_reset();
  loop_enter(r, 1000);
  for (int i = 0; i < 20; i++) {
    begin(r, 0);
    kernel_twin(1, i, 1);                       /* a launch whose kernel has a twin */
    end(r);
  }
  loop_exit(r);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.replays == 3);
  for (size_t op = 0; op < 4; op++)
    CHECK(fake_block_arg0(op) == 16 + (int)op);
  harness_indirect(0);
}

/* A break inside a unit: what the unit recorded runs at the exit, once, in
 * order; the graph is not launched for a partial unit. */
static void test_exit_inside_a_unit(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_batch_region("break", 4);
  fake_reset();
  loop_enter(r, 1000);
  for (int i = 0; i < 10; i++)
    iteration(r, i);
  fake_log_clear();
  begin(r, 0);                                  /* iteration 10 breaks after its launch */
  kernel(1, 10);
  loop_exit(r);
  CHECK_STR(fake_log(), "k1(8) k1(9) k1(10)");
  CHECK(harness_segment(r, 0)->stats.tail_iters == 2);  /* the break left before its end */
  CHECK(pygraph_open_region_depth() == 0);
  /* The loop runs again: the graph of full units is still there. */
  fake_log_clear();
  loop(r, 1000, 100, 8);
  CHECK(harness_segment(r, 0)->stats.captures == 1);
  CHECK(count("launch") == 2);
  CHECK(ran_eagerly(100) == 0 && ran_eagerly(107) == 0);
}

/* -O0 shape: the header's begin comes before the exit test, so the last
 * begin opens an iteration that leaves at once. */
static void test_exit_at_the_header(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_batch_region("header_exit", 4);
  fake_reset();
  loop_enter(r, 1000);
  for (int i = 0; i < 12; i++)
    iteration(r, i);
  begin(r, 0);
  loop_exit(r);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.captures == 1 && seg->stats.replays == 1);
  for (int i = 0; i < 12; i++)
    CHECK(ran_eagerly(i) == (i < 4));
  CHECK(pygraph_open_region_depth() == 0);
}

/* K is frozen per run from that run's trip count. */
static void test_k_follows_the_trip_count(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_batch_region("trips", 32);
  fake_reset();
  loop(r, 40, 0, 40);                           /* 40 / 8 = 5 -> 4 */
  CHECK(harness_segment(r, 0)->batch.k == 4);
  loop(r, 10, 0, 10);                           /* too short: one iteration a unit */
  CHECK(harness_segment(r, 0)->batch.k == 1);
  r->trip_count = -1;
  loop(r, -1, 0, 64);                           /* unknown: the previous run's 10 */
  CHECK(harness_segment(r, 0)->batch.k == 1);
  loop(r, -1, 0, 300);                          /* the previous run's 64 -> 8 */
  CHECK(harness_segment(r, 0)->batch.k == 8);
  harness_batch(2);                             /* PYGRAPH_BATCH caps new regions */
  pygraph_region *capped = harness_batch_region("capped", 32);
  loop(capped, 1000, 0, 16);
  CHECK(harness_segment(capped, 0)->batch.k == 2);
  harness_batch(0);
}

/* An op that cannot be deferred inside a unit: the unit's recorded ops run
 * first, then it, then the rest of the unit passes through; the next unit
 * starts afresh. */
static void test_flush_inside_a_unit(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_batch_region("flush", 4);
  fake_reset();
  loop_enter(r, 1000);
  for (int i = 0; i < 8; i++)
    iteration(r, i);                            /* warm-up, capture */
  fake_log_clear();
  iteration(r, 8);
  begin(r, 0);
  kernel(1, 9);
  undeferrable("drv");
  kernel(1, 99);
  end(r);
  CHECK_STR(fake_log(), "k1(8) k1(9) p:drv p:k1(99)");
  fake_log_clear();
  for (int i = 10; i < 14; i++)
    iteration(r, i);
  loop_exit(r);
  CHECK(count("launch") == 1);                  /* 10..13, a full unit */
  CHECK(harness_segment(r, 0)->stats.flushes == 1);
}

/* A failing replay: eager for good, the unit's ops run exactly once. */
static void test_fault_in_a_unit(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_batch_region("fault", 4);
  fake_reset();
  loop_enter(r, 1000);
  for (int i = 0; i < 8; i++)
    iteration(r, i);
  fake_log_clear();
  fake.fail_launch = 1;
  for (int i = 8; i < 12; i++)
    iteration(r, i);
  for (int i = 8; i < 12; i++)
    CHECK(ran_eagerly(i) == 1);
  CHECK_STR(harness_mode_name(harness_segment(r, 0)), "eager");
  fake.fail_launch = 0;
  fake_log_clear();
  iteration(r, 12);                             /* passes through at once */
  CHECK_STR(fake_log(), "p:k1(12)");
  loop_exit(r);
}

/* A unit over PYGRAPH_MAX_OPS: batching is dropped, not graphs. */
static void test_unit_over_the_op_cap(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_max_ops(8);
  pygraph_region *r = harness_batch_region("cap", 4);
  fake_reset();
  loop_enter(r, 1000);
  iteration(r, 0);                              /* 1 op: K = min(4, 8 / 2) = 4 */
  for (int i = 1; i < 4; i++) {                 /* then 3 ops an iteration */
    begin(r, 0);
    kernel(1, i);
    kernel(2, i);
    kernel(3, i);
    end(r);
  }
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->batch.given_up);
  CHECK(seg->final == 0);
  CHECK_STR(harness_mode_name(seg), "warmup");
  CHECK(count("k1(3)") + count("p:k1(3)") == 1 && count("k3(3)") + count("p:k3(3)") == 1);
  for (int i = 4; i < 8; i++)
    iteration(r, i);
  loop_exit(r);
  CHECK(seg->stats.captures == 1);              /* one iteration per graph now */
  CHECK(seg->batch.k == 1);
  harness_max_ops(4096);
}

/* PYGRAPH_MODE=eager: every iteration passes straight through. */
static void test_eager_mode_passes_through(void)
{
  harness_settings(PYGRAPH_MODE_EAGER, 1, 8);
  pygraph_region *r = harness_batch_region("eager", 4);
  fake_reset();
  loop_enter(r, 100);
  iteration(r, 0);
  CHECK_STR(fake_log(), "p:k1(0)");
  iteration(r, 1);
  loop_exit(r);
  CHECK_STR(fake_log(), "p:k1(0) p:k1(1)");
}

/* A batchable loop in a callee, inside another region's iteration: nested,
 * ignored, and its exit pops it. */
static void test_nested_batch_region(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *outer = harness_region("outer", 1), *inner = harness_batch_region("inner", 4);
  fake_reset();
  begin(outer, 0);
  loop_enter(inner, 3);
  begin(inner, 0);
  kernel(1, 0);
  end(inner);
  begin(inner, 0);                              /* exits at the header */
  CHECK(pygraph_open_region_depth() == 2);
  loop_exit(inner);
  CHECK(pygraph_open_region_depth() == 1);
  loop_exit(inner);                             /* not open: nothing */
  CHECK(pygraph_open_region_depth() == 1);
  end(outer);
  CHECK(inner->state == NULL);
  CHECK(pygraph_open_region_depth() == 0);
}

/* The exit of an unwinding path forgets what a throwing callee left open. */
static void test_exit_forgets_nested_entries(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_batch_region("unwind", 4), *callee = harness_region("callee", 1);
  fake_reset();
  loop_enter(r, 100);
  iteration(r, 0);
  begin(r, 0);
  kernel(1, 1);
  begin(callee, 0);                             /* the callee throws before its end */
  loop_exit(r);                                 /* the landing pad */
  CHECK(pygraph_open_region_depth() == 0);
  CHECK(ran_eagerly(0) == 1 && ran_eagerly(1) == 1);
}

/* auto mode, K = 4: the fake GPU takes gpu_us per eager kernel and
 * graph_us per graph launch (a unit of 4 kernels) while the host spends
 * host_us on an iteration, host_graphed_us once a graph exists or is about
 * to be captured; returns the segment after `iters` loop iterations of a
 * loop that says it runs 100000. */
static struct pygraph_segment *timed_loop(const char *name, double gpu_us, double graph_us,
                                          double host_us, double host_graphed_us, int iters)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  harness_measure(4, 3);
  pygraph_region *r = harness_batch_region(name, 4);
  fake_reset();
  harness_fake_timing(gpu_us, graph_us);
  loop_enter(r, 100000);
  for (int i = 0; i < iters; i++) {
    struct pygraph_segment *seg = i ? harness_segment(r, 0) : NULL;
    fake_host_us += seg && (seg->cache.n_variants || seg->cand.capture_next) ? host_graphed_us : host_us;
    iteration(r, i);
  }
  loop_exit(r);
  fake.timing = 0;
  return harness_segment(r, 0);
}

/* Host-bound (tiny kernels): the units are graphed. */
static void test_auto_graphs_host_bound_loops(void)
{
  struct pygraph_segment *host_bound = timed_loop("host_bound", 1, 2, 5, 5, 200);
  CHECK(host_bound->stats.captures >= 1);
  CHECK(host_bound->stats.replays > 10);
}

/* GPU-bound (50 us kernels, the host 4 us an iteration): a graph saves no
 * host time, only the GPU's gaps between kernels.  A long loop is worth a
 * capture to measure that: the graph is kept when its units are faster
 * (by more than the margin), not when they take the GPU as long. */
static void test_auto_measures_long_gpu_bound_loops(void)
{
  struct pygraph_segment *same = timed_loop("gpu_bound_same", 50, 200, 4, 4, 400);
  CHECK(same->stats.captures >= 1);
  CHECK_STR(pygraph_segment_decision_name(same), "eager");
  CHECK(same->sel.host_period_us > 0);
  struct pygraph_segment *gaps = timed_loop("gpu_bound_gaps", 50, 180, 4, 4, 400);
  CHECK(gaps->stats.captures >= 1);
  CHECK_STR(pygraph_segment_decision_name(gaps), "graph");
}

/* A GPU-bound loop too short for the gaps to pay back a capture stays
 * eager, and says why. */
static void test_auto_keeps_short_gpu_bound_loops_eager(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  harness_measure(4, 3);
  pygraph_region *r = harness_batch_region("gpu_bound_short", 4);
  fake_reset();
  harness_fake_timing(50, 180);
  loop_enter(r, 100);
  for (int i = 0; i < 100; i++) {
    fake_host_us += 4;
    iteration(r, i);
  }
  loop_exit(r);
  fake.timing = 0;
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.captures == 0);
  CHECK_STR(pygraph_segment_decision_name(seg), "eager");
  CHECK(strstr(seg->sel.why, "GPU-bound") != NULL);
}

/* The same short loop with its timing samples late (the GPU far behind the
 * host while the eager units before a capture are timed: adam's and gelu's
 * timed loops of 100 launches of 10-17 us kernels): no eager cost is read
 * by the time the capture is asked about, and a GPU that far behind is
 * itself the evidence of a GPU-bound loop: the capture is weighed by the
 * GPU's gaps, not by the host time an eager launch can cost, and a loop too
 * short for those stays eager. */
static void test_auto_keeps_short_loops_eager_when_far_behind(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  harness_measure(4, 3);
  pygraph_region *r = harness_batch_region("gpu_far_behind", 32);
  fake_reset();
  harness_fake_timing(10, 72);
  fake.events_lag_us = 300;                     /* ~4 units of 8 queued ahead of the host */
  loop_enter(r, 100);
  for (int i = 0; i < 100; i++) {
    fake_host_us += 3;
    iteration(r, i);
  }
  loop_exit(r);
  fake.timing = 0;
  fake.events_lag_us = 0;
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->batch.k == 8);
  CHECK(seg->stats.captures == 0);
  CHECK_STR(pygraph_segment_decision_name(seg), "eager");
  CHECK(strstr(seg->sel.why, "GPU-bound") != NULL);
  for (int i = 0; i < 100; i++)
    CHECK(ran_eagerly(i) == 1);
}

/* A plain loop region (kind LOOP) ends its unit at every end, as before. */
static void test_loop_regions_do_not_batch(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("plain_loop", 1);
  r->batch_max = 32;                            /* ignored: not a BATCH region */
  fake_reset();
  for (int i = 0; i < 4; i++)
    iteration(r, i);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.iters == 4);
  CHECK(seg->stats.captures == 1 && seg->stats.replays == 2);
}

/* The host period is that of eager units: once a graph exists, a replayed
 * unit costs the host one graph launch (here 0.1 us an iteration), which
 * would make a host-bound loop look GPU-bound to a later capture question. */
static void test_host_period_from_eager_units(void)
{
  struct pygraph_segment *seg = timed_loop("period", 1, 2, 5, 0.1, 200);
  CHECK(seg->stats.captures >= 1);
  CHECK(seg->sel.host_period_us > 19.9 && seg->sel.host_period_us < 20.1);   /* 4 x 5 us */
}

/* A loop whose iterations launch on two streams batches 2 iterations a
 * unit: the stream count of the run's first iteration reaches the choice. */
static void test_multistream_units_stay_small(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_batch_region("batch_streams", 32);
  fake_reset();
  loop_enter(r, 64);
  for (int i = 0; i < 64; i++) {
    begin(r, 0);
    kernel_on(1, i, FAKE_STREAM(1));
    kernel_on(2, i, FAKE_STREAM(2));
    end(r);
  }
  loop_exit(r);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->batch.k == PYGRAPH_BATCH_MULTISTREAM_K);
  CHECK(seg->stats.replays > 0 && seg->stats.flushes == 0);
}

int main(void)
{
  test_choose_k();
  test_multistream_units_stay_small();
  test_units_capture_replay_and_tail();
  test_replay_carries_each_iterations_arguments();
  test_exit_inside_a_unit();
  test_exit_at_the_header();
  test_k_follows_the_trip_count();
  test_flush_inside_a_unit();
  test_fault_in_a_unit();
  test_unit_over_the_op_cap();
  test_eager_mode_passes_through();
  test_nested_batch_region();
  test_exit_forgets_nested_entries();
  test_loop_regions_do_not_batch();
  test_auto_graphs_host_bound_loops();
  test_auto_measures_long_gpu_bound_loops();
  test_auto_keeps_short_gpu_bound_loops_eager();
  test_auto_keeps_short_loops_eager_when_far_behind();
  test_host_period_from_eager_units();
  return check_finish();
}
