/* test_across_files.c - checked external calls and barrier points
 * (pygraph_rt.h, "Across files"): the live iteration splits into the
 * reserved segment only where the callee is not pygraph-compiled or reaches
 * a barrier, and nothing deferred runs twice or is lost. */
#include "check.h"
#include "harness.h"

static const char kAware;                 /* a callee's marker */

/* A marked callee: the iteration goes on in its segment, the callee's
 * launches recorded with the caller's. */
static void test_aware_callee_keeps_the_segment(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("aware", 2);
  fake_reset();
  for (int i = 0; i < 3; i++) {
    begin(r, 0);
    kernel(1, 0);
    external_call(r, 1, &kAware);
    kernel(2, 0);                       /* the callee's launch */
    kernel(3, 0);
    end(r);
  }
  CHECK_STR(fake_log(), "k1(0) k2(0) k3(0) build(0 1<0 2<1) inst launch launch");
  CHECK(harness_segment(r, 0)->stats.iters == 3);
  CHECK(harness_segment(r, 1)->stats.iters == 0);
  CHECK(harness_segment(r, 0)->stats.flushes == 0);
}

/* An unmarked callee: the iteration splits at the call, into the reserved
 * segment, which records and graphs the rest on its own. */
static void test_unaware_callee_splits_into_reserved_segment(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("unaware", 2);
  fake_reset();
  for (int i = 0; i < 3; i++) {
    begin(r, 0);
    kernel(1, 0);
    kernel(2, 0);
    external_call(r, 1, NULL);
    kernel(3, 0);
    kernel(4, 0);
    end(r);
  }
  CHECK_STR(fake_log(), "k1(0) k2(0) k3(0) k4(0) build(0 1<0) inst launch build(0 1<0) inst launch "
                        "launch launch");
  CHECK(harness_segment(r, 0)->stats.iters == 3);
  CHECK(harness_segment(r, 1)->stats.iters == 3);
  CHECK(harness_segment(r, 0)->stats.flushes == 0);
}

/* A barrier inside a marked callee splits like an unmarked call; a second
 * one starts another iteration of the reserved segment. */
static void test_barrier_point_in_callee_splits(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  pygraph_region *r = harness_region("barrier", 2);
  fake_reset();
  begin(r, 0);
  kernel(1, 0);
  external_call(r, 1, &kAware);
  kernel(2, 0);
  barrier_point();
  CHECK_STR(fake_log(), "k1(0) k2(0)");  /* deferred work ran before the barrier */
  kernel(3, 0);
  barrier_point();
  kernel(4, 0);
  end(r);
  CHECK_STR(fake_log(), "k1(0) k2(0) k3(0) k4(0)");
  CHECK(harness_segment(r, 0)->stats.iters == 1);
  CHECK(harness_segment(r, 1)->stats.iters == 2);
  CHECK(pygraph_recording_segment() == NULL);
}

/* No reserved segment (the call was in no instrumented segment, or another
 * region's): a split runs what was deferred and the rest passes through. */
static void test_split_without_reserved_segment_passes_through(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("through", 2), *other = harness_region("other", 2);
  fake_reset();
  begin(r, 0);
  kernel(1, 0);
  external_call(other, 1, &kAware);     /* not the live region: no reservation */
  external_call(NULL, 0, NULL);
  kernel(2, 0);
  end(r);
  CHECK_STR(fake_log(), "k1(0) p:k2(0)");
  CHECK(harness_segment(r, 0)->stats.flushes == 1);
  CHECK(other->state == NULL);
}

/* Outside any region both are no-ops; a reservation does not outlive its
 * iteration. */
static void test_no_live_region_no_effect(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("idle", 2);
  fake_reset();
  external_call(NULL, 0, NULL);
  barrier_point();
  begin(r, 0);
  external_call(r, 1, &kAware);
  end(r);
  begin(r, 0);
  kernel(1, 0);
  barrier_point();                      /* the reservation was the last iteration's */
  kernel(2, 0);
  end(r);
  CHECK_STR(fake_log(), "k1(0) p:k2(0)");
  CHECK(harness_segment(r, 1)->stats.iters == 0);
}

int main(void)
{
  test_aware_callee_keeps_the_segment();
  test_unaware_callee_splits_into_reserved_segment();
  test_barrier_point_in_callee_splits();
  test_split_without_reserved_segment_passes_through();
  test_no_live_region_no_effect();
  return check_finish();
}
