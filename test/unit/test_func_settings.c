/* test_func_settings.c - cudaFuncSetAttribute / cudaFuncSetCacheConfig
 * inside recorded iterations (record.h): made at once, no flush while no
 * launch of that kernel is deferred in the iteration, or while the kernel
 * already holds the value; otherwise the deferred launches run first, under
 * the setting they were made with. */
#include "check.h"
#include "harness.h"

#define MAX_DYNAMIC_SMEM 8   /* cudaFuncAttributeMaxDynamicSharedMemorySize */

/* The usual shape: raise kernel 1's limit, launch it, then kernel 2. */
static void raise_then_launch(pygraph_region *r, int i)
{
  begin(r, 0);
  func_setting(1, MAX_DYNAMIC_SMEM, 65536);
  kernel(1, i);
  kernel(2, i);
  end(r);
}

static void test_setting_before_its_launch_replays(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("settings_before", 1);
  fake_reset();
  for (int i = 0; i < 5; i++)
    raise_then_launch(r, 7);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 0 && seg->stats.replays >= 3);
  CHECK(harness_count(fake_log(), "p:attr1") == 5);
  CHECK(fake_attribute_queries == 0);       /* nothing deferred to protect: no query */
}

/* A batched unit defers kernel 1 of its first loop iteration when the
 * second one sets kernel 1's attribute again: kept deferred only when the
 * kernel already holds the value. */
static unsigned long long batched_flushes(int holds)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_batch(4);
  pygraph_region *r = harness_batch_region(holds ? "settings_hold" : "settings_change", 4);
  fake_reset();
  fake.attribute_holds = holds;
  loop_enter(r, 16);
  for (int i = 0; i < 16; i++)
    raise_then_launch(r, 3);
  loop_exit(r);
  return harness_segment(r, 0)->stats.flushes;
}

static void test_batched_unit_keeps_deferring_when_value_holds(void)
{
  CHECK(batched_flushes(1) == 0);
  CHECK(fake_attribute_queries > 0);
  CHECK(batched_flushes(0) > 0);
  /* the flush ran the deferred kernel 1 before the setting was made */
  const char *log = fake_log();
  const char *first_attr = strstr(log, "p:attr1");
  const char *second_attr = first_attr ? strstr(first_attr + 1, "p:attr1") : NULL;
  const char *k1 = first_attr ? strstr(first_attr, "k1(3)") : NULL;
  CHECK(second_attr && k1 && k1 < second_attr);
}

/* The cache preference cannot be asked: a deferred launch of the kernel
 * always runs first. */
static void test_cache_config_after_launch_flushes(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("settings_cache", 1);
  fake_reset();
  fake.attribute_holds = 1;
  for (int i = 0; i < 2; i++) {
    begin(r, 0);
    kernel(1, 4);
    func_setting(1, -1, 2);
    kernel(1, 5);
    end(r);
  }
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 2);
  CHECK_STR(seg->last_flush_reason, "kernel setting changed after a launch of the kernel");
  CHECK(fake_attribute_queries == 0);
  /* A setting of another kernel leaves the recording alone. */
  fake_log_clear();
  for (int i = 0; i < 3; i++) {
    begin(r, 0);
    kernel(1, 4);
    func_setting(2, -1, 2);
    kernel(1, 5);
    end(r);
  }
  CHECK(seg->stats.flushes == 2);
}

int main(void)
{
  test_setting_before_its_launch_replays();
  test_batched_unit_keeps_deferring_when_value_holds();
  test_cache_config_after_launch_flushes();
  return check_finish();
}
