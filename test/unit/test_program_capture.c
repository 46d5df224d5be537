/* test_program_capture.c - streams the program itself is capturing (a
 * capture begun where the pass cannot see it): pass-through, in order, with
 * no work of pygraph's own. */
#include "check.h"
#include "harness.h"
#include "abi/report.h"

#define CAPTURE(id) (1u << (id))

static void iteration(pygraph_region *r, int arg)
{
  begin(r, 0);
  memset_op(7, 16);
  kernel(1, arg);
  kernel(2, arg);
  end(r);
}

static void test_captured_stream_passes_through_with_nothing_of_ours(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  harness_indirect(1);
  pygraph_region *r = harness_region("captured", 1);
  fake_reset();
  fake.timing = 1;
  fake.captured_streams = CAPTURE(1);
  int allocs = fake_live_allocs, events = fake_live_timing_events;
  for (int i = 0; i < 6; i++)
    iteration(r, i);
  CHECK_STR(fake_log(), "p:ms(7) p:k1(0) p:k2(0) p:ms(7) p:k1(1) p:k2(1) p:ms(7) p:k1(2) p:k2(2) "
                        "p:ms(7) p:k1(3) p:k2(3) p:ms(7) p:k1(4) p:k2(4) p:ms(7) p:k1(5) p:k2(5)");
  CHECK(fake_timing_records == 0 && fake_timing_queries == 0);
  CHECK(fake_live_timing_events == events);
  CHECK(fake_live_allocs == allocs);
  CHECK(fake_capture_queries == 6);            /* once per iteration, then recording stops */
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.program_captured == 6);
  CHECK(seg->stats.flushes == 0 && seg->stats.captures == 0);
  char line[1024];
  pygraph_report_format_segment(line, sizeof line, seg);
  CHECK(strstr(line, "fallback=\"stream captured by the program\"") != NULL);
  CHECK(strstr(line, "program_captured=6") != NULL);
}

static void test_one_query_per_stream_per_iteration(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("queries", 1);
  fake_reset();
  for (int i = 0; i < 3; i++) {
    begin(r, 0);
    kernel_on(1, 0, S1);
    kernel_on(2, 0, S2);
    kernel_on(3, 0, S1);
    kernel_on(4, 0, S2);
    end(r);
  }
  CHECK(fake_capture_queries == 6);            /* 2 streams x 3 iterations */
  CHECK(harness_segment(r, 0)->stats.replays == 1);
}

static void test_captured_in_one_iteration_not_the_next(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("sometimes", 1);
  fake_reset();
  begin(r, 0);
  kernel(1, 0);
  end(r);                                      /* warm-up: eager */
  fake.captured_streams = CAPTURE(1);
  begin(r, 0);
  kernel(1, 1);
  end(r);                                      /* into the program's capture */
  fake.captured_streams = 0;
  begin(r, 0);
  kernel(1, 2);
  end(r);                                      /* the warm-up still counts: captured */
  fake.captured_streams = CAPTURE(1);
  begin(r, 0);
  kernel(1, 3);
  end(r);                                      /* the program's again: no graph launch */
  fake.captured_streams = 0;
  begin(r, 0);
  kernel(1, 4);
  end(r);                                      /* replay */
  CHECK_STR(fake_log(), "k1(0) p:k1(1) build(0) inst launch p:k1(3) upd0 launch");
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.program_captured == 2);
  CHECK(seg->stats.replays == 1 && seg->stats.captures == 1);
}

/* A capture met mid-iteration (a stream joins later, or another stream is
 * the captured one): what was recorded runs first, once, in order. */
static void test_recorded_ops_run_first_in_order(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_indirect(1);
  pygraph_region *r = harness_region("mid", 1);
  fake_reset();
  int allocs = fake_live_allocs;
  for (int i = 0; i < 2; i++) {                /* warm-up, then capture next ... */
    begin(r, 0);
    kernel_on(3, i, S2);
    event_record(5, S2);
    kernel_on(1, i, S1);
    end(r);
  }
  fake_log_clear();
  fake.captured_streams = CAPTURE(1);          /* ... but S1 is now the program's */
  begin(r, 0);
  kernel_on(3, 9, S2);
  event_record(5, S2);
  event_wait(S1, 5);
  kernel_on(1, 9, S1);
  kernel_on(4, 9, S2);                         /* after it: straight through too */
  end(r);
  CHECK_STR(fake_log(), "k3(9) er5 p:ew5 p:k1(9) p:k4(9)");
  CHECK(fake_live_allocs == allocs);
  CHECK(harness_segment(r, 0)->stats.program_captured == 1);
}

/* A graph whose launch stream the program now captures cannot be waited
 * for: its argument block stays allocated instead of being freed under
 * launches that may still read it. */
static void test_block_kept_when_launch_stream_captured(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_indirect(1);
  pygraph_region *r = harness_region("keep_block", 1);
  fake_reset();
  int allocs = fake_live_allocs;
  for (int a = 0; a < 2; a++) {                /* warm-up, capture (args change) */
    begin(r, 0);
    kernel_twin(1, a, 1);
    kernel_twin(2, a, 2);
    end(r);
  }
  CHECK(fake_live_allocs == allocs + 1);
  fake.launch_stream_captured = 1;
  fake.fail_launch = 1;                        /* a fault drops the graph */
  begin(r, 0);
  kernel_twin(1, 5, 1);
  kernel_twin(2, 5, 2);
  end(r);
  CHECK(strstr(fake_log(), "gsync!") != NULL);
  CHECK(fake_live_allocs == allocs + 1);       /* kept, not freed */
}

int main(void)
{
  test_captured_stream_passes_through_with_nothing_of_ours();
  test_one_query_per_stream_per_iteration();
  test_captured_in_one_iteration_not_the_next();
  test_recorded_ops_run_first_in_order();
  test_block_kept_when_launch_stream_captured();
  return check_finish();
}
