/* test_fault_inject.c - PYGRAPH_FAULT: the port decorator fails the chosen
 * graph step at its N-th call, and the runtime's fallback holds exactly as
 * for a real CUDA failure (work run once, eager for good, reported). */
#include <string.h>

#include "check.h"
#include "harness.h"
#include "port/fault_inject.h"

static const char *env_value;
static const char *fault_env(const char *name)
{
  return strcmp(name, "PYGRAPH_FAULT") == 0 ? env_value : NULL;
}

static struct pygraph_settings parse_fault(const char *value)
{
  struct pygraph_settings s;
  env_value = value;
  pygraph_settings_parse(&s, fault_env);
  return s;
}

static void test_parse(void)
{
  struct pygraph_settings s = parse_fault("launch:3,capture");
  CHECK(s.fault_at[PYGRAPH_FAULT_LAUNCH] == 3 && s.fault_at[PYGRAPH_FAULT_CAPTURE] == 1);
  CHECK(s.fault_at[PYGRAPH_FAULT_UPDATE] == 0 && s.n_problems == 0);
  s = parse_fault("update:2");
  CHECK(s.fault_at[PYGRAPH_FAULT_UPDATE] == 2);
  const char *const bad[] = {"launch:0", "lunch", "launch:", "launch:x", "capture,", ":3"};
  for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    s = parse_fault(bad[i]);
    CHECK(s.n_problems == 1 && s.fault_at[PYGRAPH_FAULT_LAUNCH] == 0 &&
          s.fault_at[PYGRAPH_FAULT_CAPTURE] == 0);
  }
}

static void iteration(pygraph_region *r, int a)
{
  begin(r, 0);
  kernel(1, a);
  kernel(2, a);
  end(r);
}

/* Graph mode on the decorated fake: iteration 0 eager, 1 captured, then
 * replays; `step` fails at its `at`-th call. */
static pygraph_region *run_with_fault(const char *name, enum pygraph_fault_step step, unsigned at)
{
  unsigned fault_at[PYGRAPH_FAULT_STEPS] = {0};
  fault_at[step] = at;
  const struct pygraph_backend *b = pygraph_fault_install(&fake_backend, fault_at);
  CHECK(b != &fake_backend);
  harness_backend(b);
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region(name, 1);
  fake_reset();
  iteration(r, 0);
  fake_log_clear();
  return r;
}

static void expect_fallback(pygraph_region *r, const char *reason)
{
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK_STR(seg->fallback, reason);
  CHECK_STR(harness_mode_name(seg), "eager");
  CHECK(fake_live_graphs == 0 && pygraph_faults_injected() == 1);
  fake_log_clear();
  iteration(r, 9);                      /* passes straight through from now on */
  CHECK_STR(fake_log(), "p:k1(9) p:k2(9)");
  harness_backend(NULL);
}

static void test_capture_fault(void)
{
  pygraph_region *r = run_with_fault("capture_fault", PYGRAPH_FAULT_CAPTURE, 1);
  iteration(r, 1);
  CHECK_STR(fake_log(), "clear k1(1) k2(1)");   /* no graph built; the work ran once */
  expect_fallback(r, "graph build failed: cudaErrorUnknown (injected by PYGRAPH_FAULT)");
}

static void test_instantiate_fault(void)
{
  pygraph_region *r = run_with_fault("instantiate_fault", PYGRAPH_FAULT_INSTANTIATE, 1);
  iteration(r, 1);
  CHECK_STR(fake_log(), "build(0 1<0) clear destroy k1(1) k2(1)");
  expect_fallback(r, "graph instantiate failed: cudaErrorUnknown (injected by PYGRAPH_FAULT)");
}

static void test_update_fault(void)
{
  pygraph_region *r = run_with_fault("update_fault", PYGRAPH_FAULT_UPDATE, 2);
  iteration(r, 1);                      /* captured */
  fake_log_clear();
  iteration(r, 2);                      /* both nodes change: the 2nd update fails */
  CHECK_STR(fake_log(), "upd0 clear destroy k1(2) k2(2)");
  expect_fallback(r, "graph update failed: cudaErrorUnknown (injected by PYGRAPH_FAULT)");
}

static void test_launch_fault_on_replay(void)
{
  pygraph_region *r = run_with_fault("launch_fault", PYGRAPH_FAULT_LAUNCH, 3);
  iteration(r, 1);                      /* captured, launch 1 */
  iteration(r, 1);                      /* replay, launch 2 */
  fake_log_clear();
  iteration(r, 1);                      /* launch 3 fails: the work runs once, eagerly */
  CHECK_STR(fake_log(), "clear destroy k1(1) k2(1)");
  expect_fallback(r, "graph launch failed: cudaErrorUnknown (injected by PYGRAPH_FAULT)");
  CHECK(harness_segment(r, 0)->stats.replays == 1);
}

static void test_no_fault_is_the_real_backend(void)
{
  unsigned none[PYGRAPH_FAULT_STEPS] = {0};
  CHECK(pygraph_fault_install(&fake_backend, none) == &fake_backend);
}

int main(void)
{
  test_parse();
  test_capture_fault();
  test_instantiate_fault();
  test_update_fault();
  test_launch_fault_on_replay();
  test_no_fault_is_the_real_backend();
  return check_finish();
}
