/* test_faults.c - a failing graph call: eager for good, reason kept, error
 * cleared, and the iteration's ops run exactly once. */
#include "check.h"
#include "harness.h"

static void iteration(pygraph_region *r, int a)
{
  begin(r, 0);
  kernel(1, a);
  kernel(2, a);
  end(r);
}

/* Graph mode: iteration 0 eager, iteration 1 captured. */
static pygraph_region *region_before_capture(const char *name)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region(name, 1);
  fake_reset();
  iteration(r, 0);
  fake_log_clear();
  return r;
}

static void expect_eager_for_good(pygraph_region *r, const char *reason)
{
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK_STR(seg->fallback, reason);
  CHECK_STR(harness_mode_name(seg), "eager");
  CHECK(fake_live_graphs == 0);
  fake_log_clear();
  iteration(r, 9);
  CHECK_STR(fake_log(), "p:k1(9) p:k2(9)");
}

static void test_build_failure(void)
{
  pygraph_region *r = region_before_capture("build_fails");
  fake.fail_build = 1;
  iteration(r, 1);
  CHECK_STR(fake_log(), "build! clear k1(1) k2(1)");
  expect_eager_for_good(r, "graph build failed: cudaErrorInvalidValue");
}

static void test_instantiate_failure(void)
{
  pygraph_region *r = region_before_capture("instantiate_fails");
  fake.fail_instantiate = 1;
  iteration(r, 1);
  CHECK_STR(fake_log(), "build(0 1<0) inst! clear destroy k1(1) k2(1)");
  expect_eager_for_good(r, "graph instantiate failed: cudaErrorInvalidValue");
}

static void test_recapture_instantiate_failure_drops_both_graphs(void)
{
  pygraph_region *r = region_before_capture("recapture_fails");
  iteration(r, 1);                      /* capture */
  begin(r, 0);                          /* mismatch */
  kernel(3, 0);
  end(r);
  fake_log_clear();
  fake.fail_instantiate = 1;
  begin(r, 0);
  kernel(3, 1);
  end(r);
  CHECK_STR(fake_log(), "build(0) inst! clear destroy destroy k3(1)");
  CHECK(fake_live_graphs == 0);
}

static void test_update_failure(void)
{
  pygraph_region *r = region_before_capture("update_fails");
  iteration(r, 1);                      /* capture */
  fake_log_clear();
  fake.fail_update_at = 2;
  iteration(r, 2);                      /* both nodes need updating; the 2nd fails */
  CHECK_STR(fake_log(), "upd0 upd1! clear destroy k1(2) k2(2)");
  expect_eager_for_good(r, "graph update failed: cudaErrorInvalidValue");
}

static void test_launch_failure_at_capture(void)
{
  pygraph_region *r = region_before_capture("launch_fails");
  fake.fail_launch = 1;
  iteration(r, 1);
  CHECK_STR(fake_log(), "build(0 1<0) inst launch! clear destroy k1(1) k2(1)");
  expect_eager_for_good(r, "graph launch failed: cudaErrorLaunchFailure");
  CHECK(harness_segment(r, 0)->stats.captures == 1);
  CHECK(harness_segment(r, 0)->stats.launches_in_graphs == 0);
}

static void test_launch_failure_after_enqueue_does_not_rerun(void)
{
  pygraph_region *r = region_before_capture("launch_ran");
  iteration(r, 1);                      /* capture */
  fake_log_clear();
  fake.fail_launch = 1;
  fake.launch_ran_before_failing = 1;   /* e.g. the stream join after it failed */
  iteration(r, 1);
  CHECK_STR(fake_log(), "launch! clear destroy");
  expect_eager_for_good(r, "graph launch failed: cudaErrorLaunchFailure");
}

int main(void)
{
  test_build_failure();
  test_instantiate_failure();
  test_recapture_instantiate_failure_drops_both_graphs();
  test_update_failure();
  test_launch_failure_at_capture();
  test_launch_failure_after_enqueue_does_not_rerun();
  return check_finish();
}
