/* test_site_facts.c - what the pass tells the runtime besides the ops
 * themselves, so that the runtime need not ask CUDA questions whose only
 * answer is an error: a launch's argument slots (pygraph_site.arg_slots,
 * handed to the backend's parameter-layout query) and which events cannot
 * time (the routed cudaEventCreate* / cudaEventDestroy calls). */
#include "check.h"
#include "fake_backend.h"
#include "harness.h"
#include "recording/event_kinds.h"

/* A kernel's first sighting asks the backend with its site's slots; the
 * layout is then cached per kernel. */
static void test_arg_slots_reach_the_backend(void)
{
  fake_reset();
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 4);
  pygraph_region *r = harness_region("slots", 1);
  static const pygraph_site three = {.kernel = "k3", .arg_slots = 3};
  static const pygraph_site unknown = {.kernel = "k4", .arg_slots = 0};
  begin(r, 0);
  kernel_at(&three, 41, 1);
  CHECK(fake_layout_queries == 1 && fake_layout_last_slots == 3);
  kernel_at(&unknown, 42, 1);
  CHECK(fake_layout_queries == 2 && fake_layout_last_slots == 0);
  kernel_at(&three, 41, 2);
  CHECK(fake_layout_queries == 2);
  end(r);
}

static void test_event_kinds(void)
{
  static char handles[4];
  cudaEvent_t untimed = (cudaEvent_t)&handles[0], timed = (cudaEvent_t)&handles[1];
  cudaEvent_t foreign = (cudaEvent_t)&handles[2];
  pygraph_event_kinds_created(untimed, cudaEventDisableTiming | cudaEventBlockingSync);
  pygraph_event_kinds_created(timed, cudaEventBlockingSync);
  CHECK(pygraph_event_kinds_times(untimed) == 0);
  CHECK(pygraph_event_kinds_times(timed) == 1);
  CHECK(pygraph_event_kinds_times(foreign) == 1);      /* not seen: taken to time */
  CHECK(pygraph_event_kinds_times(NULL) == 1);
  /* A destroyed handle may come back as an event that times. */
  pygraph_event_kinds_destroyed(untimed);
  CHECK(pygraph_event_kinds_times(untimed) == 1);
  pygraph_event_kinds_created(untimed, cudaEventDisableTiming);
  CHECK(pygraph_event_kinds_times(untimed) == 0);
  pygraph_event_kinds_created(untimed, cudaEventDefault);
  CHECK(pygraph_event_kinds_times(untimed) == 1);
}

int main(void)
{
  test_arg_slots_reach_the_backend();
  test_event_kinds();
  return check_finish();
}
