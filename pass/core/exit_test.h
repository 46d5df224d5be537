/* exit_test.h - a whole-loop candidate's exit tests as postfix programs
 * (struct pygraph_exit_node, runtime/include/pygraph_abi.h).
 *
 * A test's operands are status fields (loads of the copy's destination at
 * a constant offset), constants, invariants and induction counters, and
 * conversions of them; its operators are integer and float compares,
 * &&, || and !, however LLVM wrote them (and/or/xor of i1, selects of
 * i1).  A negated test is pushed down to the compares (inverse
 * predicates, De Morgan).  A value the iteration computes on the host
 * otherwise, or a test beyond PYGRAPH_EXIT_MAX_NODES nodes or
 * PYGRAPH_EXIT_MAX_DEPTH stack entries, makes the loop no candidate.
 */
#ifndef PYGRAPH_EXIT_TEST_H
#define PYGRAPH_EXIT_TEST_H

#include "whole_loop.h"

/* Appends the test of exit branch `br`: the loop leaves at `where` (enum
 * pygraph_exit_where) when `cond` is `leave_when` (0 or 1).  Status fields
 * must be read after the copy has completed unless the test is at the top.
 * 1 on success; 0 with the verdict set. */
int pg_wl_exit_test(pg_wl_ctx *c, LLVMValueRef br, LLVMValueRef cond, int leave_when,
                    unsigned where);

#endif
