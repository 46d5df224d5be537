/* turns.h - what a measured iteration runs: while a signature's graphs
 * are undecided, its eager runs and each of its graphs take turns, in runs
 * of PYGRAPH_TURN_RUN iterations, until their windows are full, so all see
 * the same conditions; and which iterations are worth timing at all. */
#ifndef PYGRAPH_TURNS_H
#define PYGRAPH_TURNS_H

#include "selection/selection.h"

/* While v's signature is measured: what runs this iteration (*pv may
 * become its rival; TURN_RIVAL: a direct rival is captured from it). */
enum pygraph_turn pygraph_turns_next(struct pygraph_selection *sel,
                                     const struct pygraph_variant **pv, unsigned long long hash);

/* Is this iteration (hash's signature, v its graph or NULL) worth timing? */
int pygraph_turns_want_timing(struct pygraph_selection *sel, unsigned long long hash,
                              const struct pygraph_variant *v);

/* Eager samples of a signature read or still in flight. */
unsigned pygraph_turns_eager_planned(struct pygraph_selection *sel, unsigned long long hash);

/* A young segment whose timing events lag far behind (the GPU is busy with
 * earlier work; a short loop would be over before samples came back). */
int pygraph_turns_far_behind(const struct pygraph_selection *sel);

#endif /* PYGRAPH_TURNS_H */
