/* whole_loop_instrument.h - the whole-loop protocol around a candidate
 * loop (runtime/include/pygraph_rt.h says what it guarantees), with
 * whole-loops=2:
 *
 *   entry:      %inv = alloca [n x i64]; %left = alloca i64
 *   preheader:  ... the region's end ...; the invariants computed (an
 *               invariant the loop computes is computed here again) and
 *               stored as bits into %inv;
 *               call __pygraph_whole_loop_enter(region, wl, %inv)
 *   header:     phis; %k = call __pygraph_whole_loop_try(region, wl, %left)
 *               switch %k: default -> the iteration as written (the rest of
 *               the header, split off); t -> pg.wl.left.t for each exit test t
 *   pg.wl.left.t: %i = load %left; the exit test t's branch leads to X:
 *               every phi of X gets, from here, its value when the loop
 *               leaves by test t in iteration %i; br X
 *   each exit X of the loop: call __pygraph_whole_loop_exit(region, wl,
 *               mask of the tests whose branch leads to X), first
 * and the status copy routed (host_pass.c, after the other calls).
 *
 * The loop is put in LCSSA form first, so that every value it leaves is a
 * phi of an exit block.  Such a value is recomputed from the iteration:
 * a CUDA call's result is cudaSuccess, a status field is loaded again
 * from the destination (the runtime wrote the last copy there), an
 * invariant is its value computed before the loop, a counter or pointer
 * is base + a + b * step * i, a rotating value the member (a + i) % count
 * of its set. */
#ifndef PYGRAPH_WHOLE_LOOP_INSTRUMENT_H
#define PYGRAPH_WHOLE_LOOP_INSTRUMENT_H

#include "region_builder.h"
#include "whole_loop.h"

/* Sets wl->not_run when a candidate cannot carry the protocol (or NULL):
 * whole-loops below 2, its scope forms no region, a loop inside the
 * region's loop, a status copy from a symbol, an invariant or a value
 * after the loop it cannot compute before the loop or at its exits. */
void pg_wl_instrument_check(const pg_scope *s, pg_whole_loop *wl);

/* Instruments every candidate of the plan's scopes whose not_run is NULL
 * (descs[k]: scope k's region descriptor, NULL when it has none) and sets
 * its `instrumented`.  Runs after the region protocol is in place. */
void pg_whole_loops_instrument(LLVMModuleRef m, pg_function_plan *plan, LLVMValueRef *descs);

#endif
