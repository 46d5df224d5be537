/* test_throws_and_pointers.c - throw points and launches through a kernel
 * pointer (pygraph_abi.def): a throw ends the live iteration (what it
 * deferred runs once, the rest passes through, the region's own end is a
 * no-op); a pointer launch keeps the iteration only when the pointer is one
 * of the file's stubs. */
#include "check.h"
#include "harness.h"

#include "abi/kernel_pointers.h"

static void stub_a(void) {}
static void stub_b(void) {}
static void foreign(void) {}

static const void *const kStubs[] = {(const void *)stub_a, (const void *)stub_b};

/* A pointer to one of the stubs: the iteration goes on in its segment. */
static void test_known_pointer_keeps_the_segment(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("known", 2);
  fake_reset();
  for (int i = 0; i < 3; i++) {
    begin(r, 0);
    kernel(1, 0);
    kernel_pointer_call(NULL, 0, (const void *)stub_b, kStubs, 2);
    kernel(2, 0);                       /* the stub's launch */
    end(r);
  }
  CHECK_STR(fake_log(), "k1(0) k2(0) build(0 1<0) inst launch launch");
  CHECK(harness_segment(r, 0)->stats.flushes == 0);
  CHECK(harness_segment(r, 0)->stats.iters == 3);
}

/* Any other pointer (a stub of a file built without pygraph, which would
 * launch behind the runtime's back): what was deferred runs first. */
static void test_foreign_pointer_splits(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("foreign", 2);
  fake_reset();
  begin(r, 0);
  kernel(1, 0);
  kernel_pointer_call(NULL, 0, (const void *)foreign, kStubs, 2);
  CHECK_STR(fake_log(), "k1(0)");
  kernel(2, 0);
  end(r);
  CHECK_STR(fake_log(), "k1(0) p:k2(0)");
  CHECK(harness_segment(r, 0)->stats.flushes == 1);
  /* a known pointer after a foreign one in the same slot still is known */
  begin(r, 0);
  kernel_pointer_call(NULL, 0, (const void *)stub_a, kStubs, 2);
  kernel_pointer_call(NULL, 0, NULL, kStubs, 2);
  end(r);
  CHECK(harness_segment(r, 0)->stats.flushes == 2);
}

/* Pointers found before answer from the cache; an occupied cache slot
 * answers only for its own pointer (200 known pointers fill most of the
 * 64 slots: each foreign pointer is then very likely to meet one). */
static void test_cache_answers_only_for_known_pointers(void)
{
  static char fake_stubs[200];
  static const void *table[200];
  for (int i = 0; i < 200; i++)
    table[i] = &fake_stubs[i];
  for (int i = 0; i < 200; i++)
    CHECK(pygraph_kernel_pointer_known(table[i], table, 200));
  static char others[16];
  for (int i = 0; i < 16; i++) {
    CHECK(!pygraph_kernel_pointer_known(&others[i], table, 200));
    CHECK(!pygraph_kernel_pointer_known(&others[i], NULL, 0));
  }
}

/* A throw: the deferred launches run once, at the throw; the launches of a
 * handler run as they come; the region's end is a no-op and the next
 * iteration begins afresh. */
static void test_throw_point_ends_the_iteration(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("throw", 1);
  fake_reset();
  begin(r, 0);
  kernel(1, 0);
  kernel(2, 0);
  throw_point();
  CHECK_STR(fake_log(), "k1(0) k2(0)");
  CHECK(pygraph_open_region_depth() == 0);
  kernel(3, 0);                         /* in a handler: passes through */
  end(r);
  CHECK_STR(fake_log(), "k1(0) k2(0) p:k3(0)");
  for (int i = 0; i < 2; i++) {
    begin(r, 0);
    kernel(1, 0);
    kernel(2, 0);
    end(r);
  }
  CHECK(harness_segment(r, 0)->stats.iters == 3);
  throw_point();                        /* no live region: nothing to do */
  CHECK(pygraph_open_region_depth() == 0);
}

/* A foreign pointer with the live region's reserved segment: the
 * iteration splits there, the rest recorded in the reserved segment. */
static void test_foreign_pointer_splits_into_reserved_segment(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("reserved", 2);
  fake_reset();
  for (int i = 0; i < 3; i++) {
    begin(r, 0);
    kernel(1, 0);
    kernel_pointer_call(r, 1, (const void *)foreign, kStubs, 2);
    kernel(2, 0);
    end(r);
  }
  CHECK(harness_segment(r, 0)->stats.iters == 3);
  CHECK(harness_segment(r, 1)->stats.iters == 3);
  CHECK(harness_segment(r, 0)->stats.flushes == 0);
  CHECK_STR(fake_log(), "k1(0) k2(0) build(0) inst launch build(0) inst launch launch launch");
}

/* A throw inside a batchable loop's unit: what the unit recorded runs at
 * the throw point, once, in order, and the loop runs again afterwards. */
static void test_throw_inside_a_unit(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_batch_region("unit_throw", 4);
  fake_reset();
  loop_enter(r, 1000);
  for (int i = 0; i < 10; i++) {
    begin(r, 0);
    kernel(1, i);
    end(r);
  }
  fake_log_clear();
  begin(r, 0);                                  /* iteration 10 throws after its launch */
  kernel(1, 10);
  throw_point();
  CHECK_STR(fake_log(), "k1(8) k1(9) k1(10)");
  CHECK(pygraph_open_region_depth() == 0);
  loop_exit(r);                                 /* a landing pad's exit: nothing left */
  CHECK_STR(fake_log(), "k1(8) k1(9) k1(10)");
  fake_log_clear();
  loop_enter(r, 1000);
  for (int i = 100; i < 108; i++) {
    begin(r, 0);
    kernel(1, i);
    end(r);
  }
  loop_exit(r);
  CHECK(harness_count(fake_log(), "launch") == 2);
  CHECK(harness_segment(r, 0)->stats.captures == 1);
}

/* A foreign pointer inside a batchable loop's unit: what the unit recorded
 * runs there, once, in order, and the rest of the iteration passes
 * through; a known pointer leaves the unit alone. */
static void test_foreign_pointer_inside_a_unit(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_batch_region("unit_pointer", 4);
  fake_reset();
  loop_enter(r, 1000);
  for (int i = 0; i < 10; i++) {
    begin(r, 0);
    kernel(1, i);
    kernel_pointer_call(NULL, 0, (const void *)stub_a, kStubs, 2);
    end(r);
  }
  CHECK(harness_segment(r, 0)->stats.flushes == 0);
  fake_log_clear();
  begin(r, 0);
  kernel(1, 10);
  kernel_pointer_call(NULL, 0, (const void *)foreign, kStubs, 2);
  CHECK_STR(fake_log(), "k1(8) k1(9) k1(10)");
  kernel(2, 10);                                /* the foreign stub's own launch */
  end(r);
  loop_exit(r);
  CHECK_STR(fake_log(), "k1(8) k1(9) k1(10) p:k2(10)");
  CHECK(harness_segment(r, 0)->stats.flushes == 1);
}

int main(void)
{
  test_known_pointer_keeps_the_segment();
  test_foreign_pointer_splits();
  test_cache_answers_only_for_known_pointers();
  test_throw_point_ends_the_iteration();
  test_foreign_pointer_splits_into_reserved_segment();
  test_throw_inside_a_unit();
  test_foreign_pointer_inside_a_unit();
  return check_finish();
}
