/* loop_values.h - how a value of the host code evolves from one iteration
 * of a loop to the next, as a whole-loop graph can reproduce it on the
 * device (enum pygraph_evolution):
 *   - invariant: defined outside the loop, a load of a private stack slot
 *     the loop never writes, or what ScalarEvolution finds unchanged;
 *   - affine: base + a + b * i by ScalarEvolution (an induction counter,
 *     a pointer advanced by a constant);
 *   - rotation: a header phi of a cycle of header phis, each taking the
 *     next one's value at the back edge (pointer ping-pong, triple
 *     buffering), each entered with one value from outside the loop.
 */
#ifndef PYGRAPH_LOOP_VALUES_H
#define PYGRAPH_LOOP_VALUES_H

#include "whole_loop.h"

/* The enum pygraph_value_type of an LLVM type, 0 when it has none (*out
 * set otherwise). */
int pg_wl_type_of(LLVMTypeRef t, unsigned *out);
/* The number of invariant v, added to the loop's table when new. */
unsigned pg_wl_invariant(pg_wl_ctx *c, LLVMValueRef v);
/* 1 when the loop cannot change v (first rule above). */
int pg_wl_is_invariant(pg_wl_ctx *c, LLVMValueRef v);
/* 1 when v is a plain (not volatile, not atomic) load through a pointer
 * the loop cannot change, of memory the loop never writes (c->written);
 * the first rule above adds that the memory is a private stack slot. */
int pg_wl_unwritten_load(pg_wl_ctx *c, LLVMValueRef v);
/* 1 when ptr points into the memory the loop writes (c->written). */
int pg_wl_writes(const pg_wl_ctx *c, LLVMValueRef ptr);
/* 1 when v is a load of the status copy's destination: *offset (from the
 * destination) and *type filled. */
int pg_wl_status_field(const pg_wl_ctx *c, LLVMValueRef v, unsigned *offset, unsigned *type);
/* How v evolves: out's evolution, type, base, count, a and b filled (op
 * and operand are the caller's).  0 when in no known pattern, *why says
 * what it is instead. */
int pg_wl_evolution(pg_wl_ctx *c, LLVMValueRef v, pg_wl_value *out, pg_wl_value_why *why);

#endif
