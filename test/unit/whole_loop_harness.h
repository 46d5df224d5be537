/* whole_loop_harness.h - what the whole-loop tests (test_whole_loop_run.c,
 * test_whole_loop_counted.c) share: a kernel launch routed as the pass
 * routes one inside a whole-loop candidate, their settings, and the
 * report's summary of one loop. */
#ifndef PYGRAPH_TEST_WHOLE_LOOP_HARNESS_H
#define PYGRAPH_TEST_WHOLE_LOOP_HARNESS_H

#include "harness.h"
#include "abi/whole_loop.h"

/* Launch of fake kernel `func` on S1 with arguments (int v, int *target):
 * observed while the runtime checks the loop, recorded when the thread's
 * region records, else run on the host (*target += v). */
void harness_loop_kernel(const pygraph_site *site, int func, int v, int *target);

/* harness_settings(mode, 1, 16) with parameter indirection off and
 * PYGRAPH_WHOLE_LOOPS=whole. */
void harness_loop_settings(enum pygraph_mode mode, int whole);

/* The report's summary of loop `wl`; state "none" when it was never entered. */
struct pygraph_whole_loop_summary harness_whole_loop_summary(const pygraph_whole_loop *wl);

#endif /* PYGRAPH_TEST_WHOLE_LOOP_HARNESS_H */
