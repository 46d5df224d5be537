/* test_flush.c - ops that cannot be deferred, and deferral rules. */
#include "check.h"
#include "harness.h"

static void test_flush_runs_recorded_ops_then_passes_through(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("flush", 1);
  fake_reset();
  begin(r, 0);
  kernel(1, 0);
  kernel(2, 0);
  undeferrable("drv");
  kernel(3, 0);
  end(r);
  CHECK_STR(fake_log(), "k1(0) k2(0) p:drv p:k3(0)");
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 1);
  CHECK(seg->stats.iters == 1);
  CHECK_STR(seg->last_flush_reason, "drv");
  CHECK(seg->phase == PYGRAPH_PHASE_WARMUP);
}

static void test_flushed_iteration_does_not_count_toward_capture(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("flush_warmup", 1);
  fake_reset();
  begin(r, 0);                          /* stable (warm-up 1): capture next ... */
  kernel(1, 0);
  end(r);
  begin(r, 0);                          /* ... but this one flushes */
  kernel(1, 1);
  undeferrable("drv");
  end(r);
  CHECK(harness_segment(r, 0)->phase == PYGRAPH_PHASE_WARMUP);
  begin(r, 0);
  kernel(1, 2);
  end(r);
  begin(r, 0);
  kernel(1, 3);
  end(r);
  CHECK_STR(fake_log(), "k1(0) k1(1) p:drv k1(2) build(0) inst launch");
}

static void test_flush_during_replay_keeps_graph(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("flush_replay", 1);
  fake_reset();
  for (int i = 0; i < 2; i++) {
    begin(r, 0);
    kernel(1, 0);
    end(r);
  }
  fake_log_clear();
  begin(r, 0);
  kernel(1, 5);
  undeferrable("drv");
  end(r);
  begin(r, 0);
  kernel(1, 0);                         /* same args as the graph still holds */
  end(r);
  CHECK_STR(fake_log(), "k1(5) p:drv launch");
  CHECK(harness_segment(r, 0)->stats.replays == 1);
}

static void test_memcpy_kinds(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("memcpy", 1);
  fake_reset();
  begin(r, 0);
  memcpy_op(1, 8, cudaMemcpyDeviceToDevice);
  fake.memcpy_default_is_device = 1;
  memcpy_op(2, 8, cudaMemcpyDefault);
  CHECK_STR(fake_log(), "mc(1) mc(2)");  /* warm-up: recorded, run as they come */
  fake.memcpy_default_is_device = 0;
  memcpy_op(3, 8, cudaMemcpyDefault);   /* host memory involved */
  memcpy_op(4, 8, cudaMemcpyDeviceToDevice);
  end(r);
  CHECK_STR(fake_log(), "mc(1) mc(2) p:mc(3) p:mc(4)");
  CHECK_STR(harness_segment(r, 0)->last_flush_reason, "memcpy not device-to-device");

  fake_log_clear();
  begin(r, 0);
  memcpy_op(5, 8, cudaMemcpyHostToDevice);
  end(r);
  CHECK_STR(fake_log(), "p:mc(5)");
  CHECK(harness_segment(r, 0)->stats.flushes == 2);
}

static void test_kernel_layouts(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("layouts", 1);
  fake_reset();
  int queries = fake_layout_queries;
  for (int i = 0; i < 3; i++) {
    begin(r, 0);
    kernel(40, i);
    kernel(41, i);
    kernel(40, i);
    end(r);
  }
  CHECK(fake_layout_queries == queries + 2);    /* once per kernel, ever */
  fake_log_clear();
  begin(r, 0);
  kernel(64, 0);                        /* no parameters */
  kernel(FAKE_NO_LAYOUT, 1);
  kernel(42, 2);
  end(r);
  CHECK_STR(fake_log(), "k64() p:k99(1) p:k42(2)");
  CHECK_STR(harness_segment(r, 0)->last_flush_reason, "kernel parameter layout unavailable");
}

static void test_event_rules(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("events", 1);
  fake_reset();
  begin(r, 0);
  event_wait(S1, 5);                    /* recorded before the region: wait node */
  kernel(1, 0);
  event_record(5, S1);                  /* would change what that wait sees */
  kernel(2, 0);
  end(r);
  CHECK_STR(fake_log(), "ew5 k1(0) p:er5 p:k2(0)");
  CHECK_STR(harness_segment(r, 0)->last_flush_reason,
            "event recorded after an external wait on it");

  fake_log_clear();
  for (int i = 0; i < 2; i++) {
    begin(r, 0);
    event_record(6, S1);
    event_wait(S2, 6);                  /* recorded in the iteration: an edge */
    event_wait(S1, 7);
    end(r);
  }
  /* (the edge forwarded: nothing depends on the wait, so no node) */
  CHECK_STR(fake_log(), "er6 ew6 ew7 build(0 1~ 2<0) inst launch");

  /* An event recorded twice: the second record follows the first (the
   * event holds the last one after the graph, as after the eager calls);
   * recording another event there instead is another signature. */
  pygraph_region *r2 = harness_region("events-twice", 1);
  fake_log_clear();
  for (int i = 0; i < 2; i++) {
    begin(r2, 0);
    event_record(8, S1);
    kernel_on(1, 0, S2);
    event_record(8, S2);
    end(r2);
  }
  CHECK_STR(fake_log(), "er8 k1(0) er8 build(0 1 2<1,0) inst launch");
  fake_log_clear();
  begin(r2, 0);
  event_record(8, S1);
  kernel_on(1, 0, S2);
  event_record(9, S2);
  end(r2);
  CHECK_STR(fake_log(), "er8 k1(0) er9");            /* a miss: eager */
  CHECK(harness_segment(r2, 0)->stats.mismatches == 1);
}

/* Events made with cudaEventDisableTiming: a record some wait of the
 * iteration joins is made after the graph launch, and the fork/join it
 * makes stays as kernel-to-kernel edges; a record nothing waits on keeps
 * its node (the host may be polling it), and so does every earlier record
 * of its event (the event must end up holding the last one). */
static void test_untimed_event_records_after_graph(void)
{
  pygraph_region *r = harness_region("fork-join", 1);
  fake_reset();
  fake.untimed_events = 1;
  for (int i = 0; i < 2; i++) {
    begin(r, 0);
    kernel_on(1, 0, S1);                /* 0 */
    event_record(6, S1);                /* 1: fork */
    event_wait(S2, 6);                  /* 2 */
    kernel_on(2, 0, S2);                /* 3 */
    kernel_on(3, 0, S1);                /* 4 */
    event_record(7, S2);                /* 5: join */
    event_wait(S1, 7);                  /* 6 */
    kernel_on(4, 0, S1);                /* 7: after both branches */
    event_record(6, S1);                /* 8: fork again, nothing waits: a node,
                                           and 1 keeps its node too */
    end(r);
  }
  CHECK_STR(fake_log(), "k1(0) er6 ew6 k2(0) k3(0) er7 ew7 k4(0) er6 "
                        "build(0 1<0 2~ 3<1 4<1 5~ 6~ 7<4,3 8<7,1; after 5) inst launch");
  fake.untimed_events = 0;
}

int main(void)
{
  test_flush_runs_recorded_ops_then_passes_through();
  test_flushed_iteration_does_not_count_toward_capture();
  test_flush_during_replay_keeps_graph();
  test_memcpy_kinds();
  test_kernel_layouts();
  test_event_rules();
  test_untimed_event_records_after_graph();
  return check_finish();
}
