/* test_ranges.c - the timeline: every iteration of a segment is one range
 * named by its source, and the work at its end (eager, capture, replay,
 * flush) one range inside it; pushes and pops pair on every path; none
 * at all with PYGRAPH_NVTX=0. */
#include "check.h"
#include "harness.h"

#define NAME "f test.cu:10-20 seg 0"
#define IT "[" NAME " "
#define EAGER "[" NAME " eager "
#define CAPTURE "[" NAME " capture "
#define REPLAY "[" NAME " replay "
#define FLUSH "[" NAME " flush "

static void iteration(pygraph_region *r, int a)
{
  begin(r, 0);
  kernel(1, a);
  kernel(2, a);
  end(r);
}

/* Ranges balanced, none closed that was not open. */
static void check_balanced(void)
{
  CHECK(fake_range_depth == 0);
  CHECK(fake_range_underflows == 0);
}

static pygraph_region *graph_mode_region(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  fake_reset();
  fake.log_ranges = 1;
  return harness_region("f", 1);
}

/* Warm-up (shadowed: the ops run as they come, in the iteration's range),
 * capture, replay, a miss run eagerly. */
static void test_warmup_capture_replay_miss(void)
{
  pygraph_region *r = graph_mode_region();
  iteration(r, 0);
  CHECK_STR(fake_log(), IT "k1(0) k2(0) ]");
  fake_log_clear();
  iteration(r, 1);
  CHECK_STR(fake_log(), IT CAPTURE "build(0 1<0) inst launch ] ]");
  fake_log_clear();
  iteration(r, 2);
  CHECK_STR(fake_log(), IT REPLAY "upd0 upd1 launch ] ]");
  fake_log_clear();
  begin(r, 0);
  kernel(3, 0);
  end(r);
  CHECK_STR(fake_log(), IT EAGER "k3(0) ] ]");
  check_balanced();
}

/* A graph fault: the capture's range holds the eager rerun. */
static void test_fault(void)
{
  pygraph_region *r = graph_mode_region();
  iteration(r, 0);
  fake_log_clear();
  fake.fail_build = 1;
  iteration(r, 1);
  CHECK_STR(fake_log(), IT CAPTURE "build! clear " EAGER "k1(1) k2(1) ] ] ]");
  fake_log_clear();
  iteration(r, 2);                            /* eager for good: passes through */
  CHECK_STR(fake_log(), IT "p:k1(2) p:k2(2) ]");
  check_balanced();
}

/* A failed launch after a capture, and one of a replay. */
static void test_launch_fault(void)
{
  pygraph_region *r = graph_mode_region();
  iteration(r, 0);
  iteration(r, 1);
  fake_log_clear();
  fake.fail_launch = 1;
  iteration(r, 2);
  CHECK_STR(fake_log(), IT REPLAY "upd0 upd1 launch! clear destroy " EAGER "k1(2) k2(2) ] ] ]");
  check_balanced();
}

/* An op that cannot be deferred: what was recorded runs in a flush range. */
static void test_flush(void)
{
  pygraph_region *r = graph_mode_region();
  iteration(r, 0);
  iteration(r, 1);
  fake_log_clear();
  begin(r, 0);
  kernel(1, 5);
  undeferrable("drv");
  kernel(2, 5);
  end(r);
  CHECK_STR(fake_log(), IT FLUSH "k1(5) ] p:drv p:k2(5) ]");
  check_balanced();
}

/* The program captures a stream the iteration then uses: what was
 * recorded runs at once (a flush range), the rest goes into its capture. */
static void test_program_capture(void)
{
  pygraph_region *r = graph_mode_region();
  iteration(r, 0);
  iteration(r, 1);
  fake_log_clear();
  fake.captured_streams = 1u << 2;
  begin(r, 0);
  kernel_on(1, 3, S1);
  kernel_on(2, 3, S2);
  end(r);
  CHECK_STR(fake_log(), IT FLUSH "k1(3) ] p:k2(3) ]");
  check_balanced();
}

/* An iteration over PYGRAPH_MAX_OPS (flushed at the cap, eager for good),
 * and a decided-eager segment's probes (recorded, run eagerly). */
static void test_over_cap_and_probes(void)
{
  pygraph_region *r = graph_mode_region();
  harness_max_ops(2);
  r = harness_region("f", 1);
  iteration(r, 0);
  fake_log_clear();
  begin(r, 0);
  kernel(1, 1);
  kernel(2, 1);
  kernel(3, 1);
  end(r);
  CHECK_STR(fake_log(), IT FLUSH "k1(1) k2(1) ] p:k3(1) ]");
  check_balanced();

  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  harness_fake_timing(1.0, 50.0);             /* graphs lose: eager by decision */
  fake.log_ranges = 1;
  r = harness_region("f", 1);
  for (int i = 0; i < 200; i++)
    iteration(r, i);
  CHECK_STR(harness_mode_name(harness_segment(r, 0)), "eager");
  CHECK(strstr(fake_log(), IT "p:k1(199) p:k2(199) ]") != NULL);   /* passing through */
  /* A probe after pass-through iterations: recorded (shadowed), in its range. */
  const char *passed = strstr(fake_log(), "p:k2(");
  CHECK(passed && strstr(passed, "] " IT "k1(") != NULL);
  check_balanced();
}

/* PYGRAPH_MODE=eager: only the iteration's range, around the program's calls. */
static void test_pass_through(void)
{
  harness_settings(PYGRAPH_MODE_EAGER, 1, 8);
  fake_reset();
  fake.log_ranges = 1;
  pygraph_region *r = harness_region("f", 1);
  iteration(r, 0);
  CHECK_STR(fake_log(), IT "p:k1(0) p:k2(0) ]");
  check_balanced();
}

/* A batchable loop: one range per unit of K loop iterations; the tail unit
 * cut short by the loop's exit runs eagerly inside its own. */
static void test_batch_units(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  fake_reset();
  pygraph_region *r = harness_batch_region("f", 4);
  loop_enter(r, 1000);
  for (int i = 0; i < 12; i++) {
    begin(r, 0);
    kernel(1, i);
    end(r);
  }
  fake.log_ranges = 1;
  fake_log_clear();
  for (int i = 12; i < 18; i++) {
    begin(r, 0);
    kernel(1, i);
    end(r);
  }
  loop_exit(r);
  CHECK_STR(fake_log(), IT REPLAY "upd0 upd1 upd2 upd3 launch ] ] " IT EAGER "k1(16) k1(17) ] ]");
  check_balanced();
}

/* The names, built once per segment state: a later iteration pushes the
 * very same strings; colours per kind. */
static void test_names_and_colours(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  fake_reset();
  pygraph_region *r = harness_region("ns::g<int>(int)", 2);
  r->file = "src/x.cu";
  r->line_begin = 7;
  r->line_end = 99;
  begin(r, 1);
  kernel(1, 0);
  kernel(2, 0);
  end(r);
  const struct pygraph_segment *seg = harness_segment(r, 1);
  CHECK_STR(seg->ranges.names[PYGRAPH_RANGE_ITERATION], "ns::g<int>(int) src/x.cu:7-99 seg 1");
  CHECK_STR(seg->ranges.names[PYGRAPH_RANGE_REPLAY], "ns::g<int>(int) src/x.cu:7-99 seg 1 replay");
  CHECK_STR(seg->ranges.names[PYGRAPH_RANGE_CAPTURE], "ns::g<int>(int) src/x.cu:7-99 seg 1 capture");
  CHECK_STR(seg->ranges.names[PYGRAPH_RANGE_EAGER], "ns::g<int>(int) src/x.cu:7-99 seg 1 eager");
  CHECK_STR(seg->ranges.names[PYGRAPH_RANGE_FLUSH], "ns::g<int>(int) src/x.cu:7-99 seg 1 flush");
  const char *before = seg->ranges.names[PYGRAPH_RANGE_REPLAY];
  begin(r, 1);
  kernel(1, 1);
  kernel(2, 1);
  end(r);
  begin(r, 1);
  kernel(1, 2);
  kernel(2, 2);
  end(r);
  CHECK(seg->ranges.names[PYGRAPH_RANGE_REPLAY] == before);
  CHECK(fake_range_last_colour == pygraph_range_colour(PYGRAPH_RANGE_REPLAY));
  CHECK(pygraph_range_colour(PYGRAPH_RANGE_REPLAY) != pygraph_range_colour(PYGRAPH_RANGE_CAPTURE));
  CHECK(pygraph_range_colour(PYGRAPH_RANGE_ITERATION) == 0);
  CHECK(fake_range_pushes == 3 + 1 + 1);      /* 3 iterations, a capture, a replay */
  check_balanced();
}

/* PYGRAPH_NVTX=0: not one call, whatever runs. */
static void test_off(void)
{
  struct pygraph_settings s;
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  s = *pygraph_settings();
  s.nvtx = 0;
  pygraph_settings_override(&s);
  fake_reset();
  pygraph_region *r = harness_region("f", 1);
  for (int i = 0; i < 4; i++)
    iteration(r, i);
  begin(r, 0);
  kernel(1, 9);
  undeferrable("drv");
  end(r);
  CHECK(fake_range_pushes == 0 && fake_range_depth == 0 && fake_range_underflows == 0);
  CHECK(harness_segment(r, 0)->ranges.names[PYGRAPH_RANGE_ITERATION] == NULL);
}

/* No tool records ranges: no names are made (a region's first iteration
 * formats none) and no range is pushed, whatever runs. */
static void test_no_tool(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  fake_reset();
  fake_range_no_tool = 1;
  pygraph_region *r = harness_region("f", 1);
  for (int i = 0; i < 4; i++)
    iteration(r, i);
  CHECK(harness_segment(r, 0)->stats.replays >= 1);
  CHECK(fake_range_pushes == 0 && fake_range_depth == 0 && fake_range_underflows == 0);
  CHECK(harness_segment(r, 0)->ranges.names[PYGRAPH_RANGE_ITERATION] == NULL);
  fake_range_no_tool = 0;
}

int main(void)
{
  test_warmup_capture_replay_miss();
  test_fault();
  test_launch_fault();
  test_flush();
  test_pass_through();
  test_program_capture();
  test_over_cap_and_probes();
  test_batch_units();
  test_names_and_colours();
  test_off();
  test_no_tool();
  return check_finish();
}
