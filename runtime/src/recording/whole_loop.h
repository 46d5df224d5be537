/* whole_loop.h - a whole-loop descriptor (struct pygraph_whole_loop,
 * include/pygraph_abi.def) read on the CPU: its exit tests evaluated and
 * its operands' values in a given iteration.
 *
 * The evaluation is exit_eval.h's, whose text the device condition kernel
 * of a WHILE graph runs too (graphs/while_condition.h).  Nothing here
 * trusts the descriptor: every index, offset, type and the evaluation
 * stack are checked, and a descriptor that fails a check is malformed (the
 * loop then runs as it does without the descriptor).
 *
 * Values are passed as their bits in a uint64_t: integers and pointers in
 * the low bits (any extension: only the type's width is read), F32 as its
 * IEEE bits in the low 32 bits, F64 as its bits.
 */
#ifndef PYGRAPH_WHOLE_LOOP_EVAL_H
#define PYGRAPH_WHOLE_LOOP_EVAL_H

#include <stdint.h>

#include "pygraph_rt.h"

enum {
  PYGRAPH_EXIT_CONTINUE = -1,  /* no test at that position says leave */
  PYGRAPH_EXIT_MALFORMED = -2  /* the descriptor fails a check */
};

/* 1 when wl is well formed: counts within their bounds, every exit test a
 * complete postfix program of matching types within the stack bound,
 * every field inside the status, every invariant, rotation member and
 * evolution known. */
int pygraph_whole_loop_check(const pygraph_whole_loop *wl);

/* The exit tests of iteration `iteration` made at `where` (enum
 * pygraph_exit_where), in descriptor order, over `status` (status_bytes
 * bytes as the host destination holds them) and the n_invariants
 * `invariants`: the number of the first test that says leave (tests are
 * numbered from 0 over all positions, in descriptor order),
 * PYGRAPH_EXIT_CONTINUE when none does, PYGRAPH_EXIT_MALFORMED for a
 * malformed descriptor. */
int pygraph_exit_test_eval(const pygraph_whole_loop *wl, unsigned where, const void *status,
                           uint64_t iteration, const uint64_t *invariants);

/* The value of operand values[k] in iteration `iteration`: 1 and *out (its
 * bits, masked to its type's width) for an AFFINE or ROTATION operand; 0
 * for an INVARIANT one (its value is the one the program passes every
 * iteration) or when k or the descriptor is out of range. */
int pygraph_loop_value_at(const pygraph_whole_loop *wl, unsigned k, uint64_t iteration,
                          const uint64_t *invariants, uint64_t *out);

/* 1 when an operand of operation `op` evolves (AFFINE or ROTATION): the
 * WHILE graph runs that kernel as an indirect node, and its operands are
 * each execution's own. */
int pygraph_whole_loop_op_evolves(const pygraph_whole_loop *wl, size_t op);

/* A copy's or memset's operands are numbered as the CUDA call's
 * parameters (recording/loop_observe.h): a copy's source is this one. */
#define PYGRAPH_COPY_SOURCE_OPERAND 1u

/* The index in wl->values of operand `operand` of operation `op` when it
 * evolves (AFFINE or ROTATION), else -1. */
long pygraph_whole_loop_evolving_operand(const pygraph_whole_loop *wl, size_t op,
                                         unsigned operand);

/* 1 when the loop copies a status (its status fields are valid); 0 for a
 * counted loop (PYGRAPH_STATUS_NONE). */
int pygraph_whole_loop_has_status(const pygraph_whole_loop *wl);

#endif
