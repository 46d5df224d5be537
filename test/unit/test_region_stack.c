/* test_region_stack.c - begin/end protocol, nesting, threads. */
#include <pthread.h>
#include <semaphore.h>

#include "check.h"
#include "harness.h"

static void test_nested_regions_are_ignored(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  pygraph_region *outer = harness_region("outer", 1), *inner = harness_region("inner", 1);
  fake_reset();
  begin(outer, 0);
  kernel(1, 0);
  begin(inner, 0);
  CHECK(pygraph_open_region_depth() == 2);
  kernel(2, 0);                         /* still recorded by the outer region */
  end(inner);
  CHECK(pygraph_open_region_depth() == 1);
  CHECK_STR(fake_log(), "k1(0) k2(0)");  /* warm-up: run as they come */
  end(outer);
  CHECK_STR(fake_log(), "k1(0) k2(0)");  /* once */
  CHECK(harness_segment(outer, 0)->candidate->n_ops == 2);   /* recorded all the same */
  CHECK(inner->state == NULL);          /* never became live */
  CHECK(pygraph_open_region_depth() == 0);
}

static void test_end_of_non_innermost_is_noop(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  pygraph_region *a = harness_region("a", 1), *b = harness_region("b", 1);
  fake_reset();
  end(a);                               /* nothing open */
  CHECK(pygraph_open_region_depth() == 0);
  begin(a, 0);
  kernel(1, 0);
  begin(b, 0);
  end(a);                               /* b is innermost */
  CHECK(pygraph_open_region_depth() == 2);
  CHECK(pygraph_recording_segment() != NULL);
  CHECK_STR(fake_log(), "k1(0)");       /* warm-up: run as it came */
  end(b);
  end(b);                               /* b no longer open */
  CHECK(pygraph_open_region_depth() == 1);
  end(a);
  CHECK_STR(fake_log(), "k1(0)");
  CHECK(pygraph_recording_segment() == NULL);
}

static void test_begin_of_open_region_ends_it_first(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  pygraph_region *r = harness_region("rebegin", 2), *nested = harness_region("n", 1);
  fake_reset();
  begin(r, 0);
  kernel(1, 0);
  begin(nested, 0);                     /* left open; discarded with the iteration */
  begin(r, 0);                          /* next iteration without an end */
  CHECK_STR(fake_log(), "k1(0)");
  CHECK(pygraph_open_region_depth() == 1);
  kernel(1, 1);
  begin(r, 1);                          /* next segment */
  CHECK_STR(fake_log(), "k1(0) k1(1)");
  kernel(2, 2);
  end(r);
  CHECK_STR(fake_log(), "k1(0) k1(1) k2(2)");
  CHECK(harness_segment(r, 0)->stats.iters == 2);
  CHECK(harness_segment(r, 1)->stats.iters == 1);
}

static void test_unusable_regions_pass_through(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  pygraph_region *r = harness_region("range", 1), *old = harness_region("abi", 1);
  old->abi_version = PYGRAPH_ABI_VERSION + 1;
  fake_reset();
  begin(r, 3);                          /* no such segment */
  kernel(1, 0);
  end(r);
  begin(old, 0);
  kernel(1, 1);
  end(old);
  CHECK_STR(fake_log(), "p:k1(0) p:k1(1)");
  CHECK(old->state == NULL);
  CHECK(pygraph_open_region_depth() == 0);
}

static pygraph_region *shared_region;
static sem_t holder_started, holder_may_end;
static int holder_was_recording;

static void *hold_segment(void *arg)
{
  (void)arg;
  begin(shared_region, 0);
  holder_was_recording = pygraph_recording_segment() != NULL;
  sem_post(&holder_started);
  sem_wait(&holder_may_end);
  end(shared_region);
  return NULL;
}

/* A segment held by one thread does not stop another: each thread has its
 * own segment state (region_state.h).  The shared, busy-passes-through
 * case (threads beyond the per-segment table) is in test_threads.c. */
static void test_concurrent_threads_get_own_states(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  shared_region = harness_region("shared", 1);
  fake_reset();
  sem_init(&holder_started, 0, 0);
  sem_init(&holder_may_end, 0, 0);
  pthread_t holder;
  pthread_create(&holder, NULL, hold_segment, NULL);
  sem_wait(&holder_started);
  CHECK(holder_was_recording);
  CHECK(pygraph_recording_segment() == NULL);   /* thread-local */
  begin(shared_region, 0);              /* held by the holder: this thread gets its own */
  CHECK(pygraph_recording_segment() != NULL);
  CHECK(pygraph_recording_segment() != harness_segment(shared_region, 0));
  kernel(1, 0);
  end(shared_region);
  CHECK(pygraph_open_region_depth() == 0);
  sem_post(&holder_may_end);
  pthread_join(holder, NULL);
  CHECK_STR(fake_log(), "k1(0)");       /* recorded, run at region end */
  CHECK(harness_segment(shared_region, 0)->stats.iters == 1);   /* the holder's */
  CHECK(harness_thread_segment(shared_region, 0, 1)->stats.iters == 1);   /* this thread's */

  begin(shared_region, 0);              /* this thread's state again */
  CHECK(pygraph_recording_segment() == harness_thread_segment(shared_region, 0, 1));
  end(shared_region);
}

int main(void)
{
  test_nested_regions_are_ignored();
  test_end_of_non_innermost_is_noop();
  test_begin_of_open_region_ends_it_first();
  test_unusable_regions_pass_through();
  test_concurrent_threads_get_own_states();
  return check_finish();
}
