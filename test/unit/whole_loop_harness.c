/* whole_loop_harness.c - the whole-loop tests' shared pieces
 * (whole_loop_harness.h). */
#include "whole_loop_harness.h"

#include <stdint.h>

#include "abi/record.h"
#include "recording/whole_loop.h"

void harness_loop_kernel(const pygraph_site *site, int func, int v, int *target)
{
  int a0 = v;
  long long a1 = (long long)(uintptr_t)target;
  void *args[] = {&a0, &a1};
  dim3 grid = {1, 1, 1}, block = {32, 1, 1};
  if (pygraph_whole_loop_observing()) {
    struct pygraph_op op = {.kind = PYGRAPH_OP_KERNEL, .stream = S1, .func = FAKE_FUNC(func),
                            .site = site, .grid = grid, .block = block, .wait_link = -1};
    pygraph_whole_loop_observe(&fake_backend, &op, args);
  }
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_kernel(seg, site, FAKE_FUNC(func), grid, block, 0, S1, args) ==
                 PYGRAPH_DEFERRED)
    return;
  *target += v;
}

void harness_loop_settings(enum pygraph_mode mode, int whole)
{
  harness_settings(mode, 1, 16);
  struct pygraph_settings s = *pygraph_settings();
  s.indirect = PYGRAPH_INDIRECT_OFF;
  s.whole_loops = whole;
  pygraph_settings_override(&s);
}

struct find {
  const pygraph_whole_loop *wl;
  struct pygraph_whole_loop_summary s;
  int found;
};

static void find_visit(const struct pygraph_whole_loop_summary *s, void *ctx)
{
  struct find *f = ctx;
  if (s->wl == f->wl) {
    f->s = *s;
    f->found = 1;
  }
}

struct pygraph_whole_loop_summary harness_whole_loop_summary(const pygraph_whole_loop *wl)
{
  struct find f = {wl, {0}, 0};
  pygraph_whole_loops_foreach(find_visit, &f);
  if (!f.found)
    f.s.state = "none";
  return f.s;
}
