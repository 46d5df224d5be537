/* whole_loop_text.h - the remarks of convergence_loops.c: a candidate with
 * its exit tests, or the first reason a loop is none. */
#ifndef PYGRAPH_WHOLE_LOOP_TEXT_H
#define PYGRAPH_WHOLE_LOOP_TEXT_H

#include "whole_loop.h"

/* "whole loop as one conditional graph: candidate (exit test: after the
 * status copy, leave when status.i32@0 == 0 || (1 + i) >= inv0; ...)";
 * in_region: whether its scope formed a region (the descriptor is emitted
 * with the region).  malloc'd. */
char *pg_wl_candidate_text(const pg_whole_loop *wl, int in_region);
/* The exit tests alone ("after the status copy, leave when ..."). */
char *pg_wl_tests_text(const pg_whole_loop *wl);
/* "loop (lines 12-18) not a whole-loop candidate: <first reason>". */
char *pg_wl_refusal_text(const pg_classifier *cls, const pg_whole_loop *wl);

#endif
