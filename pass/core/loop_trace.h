/* loop_trace.h - one iteration of a loop judged as a whole-loop graph,
 * followed from the header to the back edge along the path on which every
 * CUDA call succeeds (a branch on a CUDA call's result compared with
 * cudaSuccess takes its success side; the other side runs only on an error,
 * when the runtime falls back, and is not judged).  On the way it notes
 * the iteration's operations, its exit branches, the status copy and the
 * host writes, and judges each instruction's effects (convergence_loops.h
 * has the rules).
 */
#ifndef PYGRAPH_LOOP_TRACE_H
#define PYGRAPH_LOOP_TRACE_H

#include "whole_loop.h"

/* Fills c->trace, ops, exits, writes, latch and the status copy; 1 when the
 * iteration is straight-line code with no effect the rules refuse, 0 with
 * the verdict set. */
int pg_wl_trace(pg_wl_ctx *c);
/* The call of __cudaPushCallConfiguration that configures `launch`: the
 * nearest before it in the trace, NULL when there is none. */
LLVMValueRef pg_wl_push_config(const pg_wl_ctx *c, LLVMValueRef launch);
/* The last instruction before `before` in the trace that writes the bytes
 * at obj + off (a store or a memory intrinsic), NULL when none does. */
LLVMValueRef pg_wl_last_write(const pg_wl_ctx *c, LLVMValueRef before, LLVMValueRef obj,
                              long long off);

#endif
