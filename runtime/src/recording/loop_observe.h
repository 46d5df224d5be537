/* loop_observe.h - an operation of an observed iteration of a whole loop
 * checked against the loop's descriptor (struct pygraph_whole_loop,
 * include/pygraph_abi.def) and against the same operation of a reference
 * iteration.
 *
 * Two kinds of difference, which the caller treats differently:
 *   PATTERN: an AFFINE or ROTATION operand does not hold the value the
 *     descriptor gives it in that iteration (pygraph_loop_value_at): the
 *     descriptor is wrong about the loop;
 *   CHANGED: the operation differs from the reference's otherwise (kind,
 *     function, launch configuration, stream, parameter layout, the bytes
 *     of an operand the descriptor does not make evolve): within one
 *     execution of the loop that also contradicts the descriptor (its
 *     operands are invariant there), across executions it means another
 *     graph.  The status copy's destination is left out: the caller checks
 *     it against the execution's own (a graph writes the status there
 *     itself, wherever it is).
 * Operands are numbered as the descriptor numbers them: a kernel's
 * parameters; a copy's CUDA parameters (0 dst, 1 src, 2 count, 3 kind,
 * 4 stream), a memset's (0 dst, 1 value, 2 count, 3 stream).
 * CUDA-free and pure. */
#ifndef PYGRAPH_LOOP_OBSERVE_H
#define PYGRAPH_LOOP_OBSERVE_H

#include <stdint.h>

#include "pygraph_rt.h"
#include "recording/op_list.h"

enum pygraph_loop_difference {
  PYGRAPH_LOOP_SAME = 0,
  PYGRAPH_LOOP_PATTERN = 1,
  PYGRAPH_LOOP_CHANGED = 2
};

struct pygraph_loop_mismatch {
  enum pygraph_loop_difference kind;
  const char *what;            /* static text */
  unsigned op, operand;        /* where (operand: PYGRAPH_WL_NONE for the operation) */
  uint64_t expected, seen;     /* PATTERN: the operand's value, both masked alike */
};

/* The bits of operand `operand` of `op` (of `ops`): a kernel parameter's
 * bytes, little-endian, when it has 1 to 8 of them; a copy's or memset's
 * parameter.  1 with *bits set, or 0 when the operation has no such
 * operand of at most 8 bytes. */
int pygraph_loop_operand(const struct pygraph_op_list *ops, const struct pygraph_op *op,
                         unsigned operand, uint64_t *bits);

/* Checks op `index` of `ops` as operation `index` of iteration
 * `iteration` of the loop `wl` (invariants `inv`): each AFFINE or
 * ROTATION operand against its value in that iteration, everything else
 * against op `index` of `ref` (NULL: nothing to compare with yet) but the
 * invariant operands of a kernel that has an evolving one: the WHILE graph
 * runs such a kernel as an indirect node whose arguments every launch
 * takes from its execution's own first iteration (graphs/while_variant.h),
 * so they may differ from one execution to the next (a tolerance, a
 * size).
 * Returns the first difference (PATTERN before CHANGED), *m filled when
 * there is one. */
enum pygraph_loop_difference pygraph_loop_check_op(const pygraph_whole_loop *wl,
                                                   const uint64_t *inv,
                                                   const struct pygraph_op_list *ops,
                                                   size_t index, uint64_t iteration,
                                                   const struct pygraph_op_list *ref,
                                                   struct pygraph_loop_mismatch *m);

#endif /* PYGRAPH_LOOP_OBSERVE_H */
