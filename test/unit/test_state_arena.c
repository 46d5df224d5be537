/* test_state_arena.c - segment states come from the load-time resident
 * arena (common/state_arena.h) while it has room, and from malloc after;
 * either kind is given back safely. */
#include <stdint.h>

#include "check.h"
#include "common/state_arena.h"
#include "harness.h"

/* A region's first entry takes its segment's ~21 KB state from the arena. */
static void test_first_entry_uses_the_arena(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 16);
  pygraph_region *r = harness_batch_region("arena_first", 32);
  fake_reset();
  size_t before = pygraph_state_arena_used();
  loop_enter(r, 10);
  begin(r, 0);
  kernel(1, 0);
  end(r);
  loop_exit(r);
  CHECK(pygraph_state_arena_used() - before >= sizeof(struct pygraph_segment));
  CHECK((uintptr_t)harness_segment(r, 0) % 64 == 0);
}

/* Once the arena is used up, states come from malloc; both kinds are given
 * back without harm (an arena block is never passed to free). */
static void test_used_up_arena_falls_back_to_malloc(void)
{
  void *from_arena = pygraph_state_alloc(100);
  CHECK(from_arena != NULL);
  pygraph_state_free(from_arena);
  size_t used = pygraph_state_arena_used();
  void *p;
  unsigned n = 0;
  while ((p = pygraph_state_alloc(4096)) != NULL && pygraph_state_arena_used() != used) {
    used = pygraph_state_arena_used();
    n++;
    CHECK(n < 1000);                 /* the arena is bounded */
    if (n >= 1000)
      return;
  }
  CHECK(p != NULL);                  /* the first block that did not fit: malloc's */
  ((char *)p)[4095] = 1;
  pygraph_state_free(p);
}

/* A state that lost its creation race is discarded with what its init
 * allocated (range names, verify mode's text): from the arena or the heap,
 * given back without harm. */
static void test_discarded_states_give_back_their_parts(void)
{
  struct pygraph_settings s = *pygraph_settings();
  s.nvtx = 1;
  s.verify = 2;
  pygraph_region *r = harness_region("discarded", 1);
  for (int i = 0; i < 40; i++) {     /* past the arena's end: malloc'ed states too */
    struct pygraph_segment *seg = pygraph_segment_create(&fake_backend, &s, r, 0);
    CHECK(seg != NULL && seg->ranges.names[0] != NULL && seg->verify.status != NULL);
    pygraph_segment_discard(seg);
  }
}

int main(void)
{
  test_first_entry_uses_the_arena();
  test_discarded_states_give_back_their_parts();
  test_used_up_arena_falls_back_to_malloc();
  return check_finish();
}
