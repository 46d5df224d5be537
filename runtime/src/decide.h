/* decide.h - when does a warming-up segment get a graph?
 *
 * Kept apart so that cost-based policies (PYGRAPH_MODE=auto measuring
 * launch overhead vs. graph overhead) can replace it without touching the
 * state machine. */
#ifndef PYGRAPH_DECIDE_H
#define PYGRAPH_DECIDE_H

#include "settings.h"

enum pygraph_decision {
  PYGRAPH_KEEP_WARMING,
  PYGRAPH_CAPTURE_NEXT,
  PYGRAPH_GO_EAGER
};

struct pygraph_decide_input {
  unsigned stable_iterations;   /* consecutive warm-up iterations with one signature */
  unsigned captures;            /* graphs built so far by this segment */
  unsigned long n_ops;          /* ops in the last iteration */
};

/* Called after every completed (not flushed) warm-up iteration.  On
 * PYGRAPH_GO_EAGER, *reason says why. */
enum pygraph_decision pygraph_decide(const struct pygraph_settings *settings,
                                     const struct pygraph_decide_input *in,
                                     const char **reason);

#endif /* PYGRAPH_DECIDE_H */
