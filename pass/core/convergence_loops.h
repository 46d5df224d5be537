/* convergence_loops.h - which loops can run whole as one conditional WHILE
 * graph (issue 17), and why the others cannot.
 *
 * Judged: the loop of every loop scope that launches (a barrier-free one is
 * a counted loop at best, batchable.h's loops among them) and every
 * launching loop inside it that has a barrier (a convergence loop
 * synchronizes to read its status).  A loop is a candidate when one
 * iteration, followed from the header along the path on which every CUDA
 * call succeeds (error checks aside), is straight-line code that holds:
 *   - launches and the stream operations a graph can hold;
 *   - at most one device-to-host copy of a small status (none: a counted
 *     loop, PYGRAPH_STATUS_NONE, whose tests can read no status): cudaMemcpy or
 *     cudaMemcpyFromSymbol with a constant size of at most
 *     PYGRAPH_WL_MAX_STATUS_BYTES into a destination the loop does not
 *     move, or cudaMemcpyAsync followed by cudaStreamSynchronize on its
 *     stream or cudaDeviceSynchronize; other synchronizes are allowed;
 *   - exit tests (exit_test.h) at the top of the iteration, right after the
 *     copy, or at its end, never between two operations;
 *   - operands (kernel arguments, the copy's source, stream operation
 *     operands) that are invariant, affine or rotating (loop_values.h),
 *     and launch configurations that are invariant;
 *   - no host effect the loop would skip: the batchable rules
 *     (batchable.h) hold for every other instruction, no call with effects
 *     (only CUDA calls, intrinsics and calls that only read memory), no
 *     host write to the status, no store to a local variable read outside
 *     the loop, no value computed in the loop and used after it other than
 *     counters, rotating values, status fields and CUDA results.
 * A function compiled without optimisation (optnone, -O0) keeps its
 * variables in memory: its loops are judged no candidates, with a remark.
 */
#ifndef PYGRAPH_CONVERGENCE_LOOPS_H
#define PYGRAPH_CONVERGENCE_LOOPS_H

#include "region_builder.h"

/* Judges the loops of plan's loop scopes (scope->whole_loops). */
void pg_whole_loops_judge(const pg_call_map *calls, pg_batch_memo *memo, pg_function_plan *plan);
/* -Rpass-analysis: each candidate; -Rpass-missed: why each other judged
 * loop is none. */
void pg_whole_loops_remark(LLVMModuleRef m, const pg_classifier *cls,
                           const pg_function_plan *plan);
void pg_whole_loops_free(pg_function_plan *plan);

#endif
