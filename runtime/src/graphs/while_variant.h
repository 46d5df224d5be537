/* while_variant.h - the WHILE graph of a whole loop made from one recorded
 * iteration (graphs/while_graph.h), with what it needs around it: the
 * capture's plan, an indirect node for every kernel whose arguments
 * evolve (its twin reads them from the argument block, where the
 * condition kernel writes each iteration's values), the argument block and
 * the slots; and one launch of it from a given iteration on, with the
 * caller's contract of while_graph.h kept (the first iteration's operands
 * written on the host, the block uploaded, the state read back).
 * CUDA-free: everything goes through the port. */
#ifndef PYGRAPH_WHILE_VARIANT_H
#define PYGRAPH_WHILE_VARIANT_H

#include <stdint.h>

#include "graphs/indirect.h"
#include "graphs/while_graph.h"

struct pygraph_while_variant {
  struct pygraph_graph_plan plan;
  struct pygraph_indirect ind;
  struct pygraph_arg_block args;
  struct pygraph_while_slot *slots;  /* one per AFFINE or ROTATION kernel operand */
  size_t n_slots;
  struct pygraph_while_graph wg;
  int built;                         /* wg holds a graph (the rest is then complete) */
  int unwaited;                      /* a launch was enqueued and not waited for: the
                                        condition block's host image may still be read
                                        by its upload (see pygraph_while_variant_launch) */
};

/* Builds it from `ops` (materialized; one iteration of the loop `wl`, in
 * the descriptor's operation order, the status copy at wl->status_op).
 * cudaErrorNotSupported with *step saying why when the iteration cannot
 * be one (an operand of a copy or memset evolves; a kernel whose
 * arguments evolve has no usable twin, or a parameter whose width is not
 * the operand's; a refusal of pygraph_while_refusal); any other error
 * names its step.  On failure nothing stays allocated. */
cudaError_t pygraph_while_variant_build(struct pygraph_while_variant *v,
                                        const struct pygraph_backend *backend,
                                        const pygraph_whole_loop *wl,
                                        const struct pygraph_op_list *ops, const char **step);

/* One launch running the loop from iteration `first` (the iterations
 * before it ran as written), with the loop's invariants `inv` and the
 * status bytes its host destination holds now (`status`), until the loop
 * leaves; waits for it unless `answer` is given (below).  The indirect nodes' arguments are those of
 * `iteration` (materialized: this execution's first iteration, the shape
 * of the one the graph was built from), the evolving ones then advanced to
 * `first`.  *ran: the graph was enqueued (its iterations may
 * have run even when an error is returned).  On cudaSuccess *state is the
 * block's state as the device left it.
 * `answer` (NULL: wait): the launch's end as the host found it
 * (pygraph_while_host_outcome): the launch is enqueued and not waited for,
 * and on cudaSuccess *state is `answer`.  A later launch waits for it
 * before rewriting the condition block's image (its upload may not have
 * read it yet); a launch that cannot wait (its stream captured) fails
 * before anything is enqueued, *step "while block reuse". */
cudaError_t pygraph_while_variant_launch(struct pygraph_while_variant *v,
                                         const struct pygraph_backend *backend,
                                         const pygraph_whole_loop *wl, const uint64_t *inv,
                                         const struct pygraph_op_list *iteration,
                                         const void *status, uint64_t first, int *ran,
                                         const struct pygraph_while_state *answer,
                                         const struct pygraph_while_state **state,
                                         const char **step);

/* Where a counted loop (no status) run from iteration `first` with the
 * invariants `inv` leaves, found on the host by the condition kernel's own
 * step (while_condition.h) before or while the device runs it: 1 and *out
 * (outcome LEFT, iteration, exit_test, exit_where as the device's block
 * will hold them) only where that is exact: every exit-test node an
 * integer (no status field, no float value or predicate: host and device
 * floating point may differ) and the loop leaves within
 * PYGRAPH_WHILE_HOST_MAX_ITERATIONS iterations (the host's cost); else 0:
 * the caller waits for the device. */
#define PYGRAPH_WHILE_HOST_MAX_ITERATIONS 65536u
int pygraph_while_host_outcome(const pygraph_whole_loop *wl, const uint64_t *inv, uint64_t first,
                               struct pygraph_while_state *out);

/* Frees everything (waiting for its launches first); v is zeroed. */
void pygraph_while_variant_free(struct pygraph_while_variant *v,
                                const struct pygraph_backend *backend);

#endif /* PYGRAPH_WHILE_VARIANT_H */
