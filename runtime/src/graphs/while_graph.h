/* while_graph.h - a whole loop as one graph (issue 17): one recorded
 * iteration made the body of a conditional WHILE node, which the
 * condition kernel (graphs/while_condition.h) runs again until an exit
 * test of the loop's descriptor says leave.  CUDA-free: this file decides
 * whether an iteration can be such a body and owns the pieces (the
 * condition block, the graph); the backend builds the graph
 * (backend.h, while_graph_build) and the usual entries instantiate,
 * launch and destroy it.
 *
 * The graph (what a backend must build):
 *   [argument loaders] -> WHILE(handle, default 1 at every launch) {
 *       the plan's nodes of every op, in op order, with the plan's
 *       dependencies (programmatic ones made full); the status copy
 *       (spec->status_op) a device-to-device copy of its source into
 *       spec->status, or no node where spec->status_folded (a kernel
 *       reads its source: the only way when the source changes from
 *       iteration to iteration);
 *       the condition kernel, (spec->state, handle), one block, after
 *       every body node no other body node depends on }
 * (a counted loop, spec->status_op PYGRAPH_WHILE_NO_STATUS: no status copy,
 * the condition kernel's tests read counters and invariants only)
 * and where spec->split_after_copy (an exit test right after the status
 * copy, operations with nodes after it), the WHILE body is instead:
 *       the nodes of the ops up to the status copy (it included, unless
 *       folded), as above;
 *       the after-copy kernel, (spec->state, if_handle), one block, after
 *       every one of those nodes no other of them depends on (making the
 *       folded copy);
 *       IF(if_handle, set by that kernel every iteration) after it {
 *           the nodes of the ops after the copy, with the plan's
 *           dependencies among them (those on earlier ops are kept by
 *           the IF node's edge) };
 *       the condition kernel after the IF node
 * so the iteration an after-copy test leaves runs nothing after the copy.
 *
 * The caller's contract around a launch (not written yet: the segment's
 * whole-loop state, next step of issue 17):
 *   before: pygraph_while_block_start with the invariants captured at the
 *   loop's entry, the host destination's status bytes, the first
 *   iteration's number (and a cap, if any); the first iteration's
 *   operands written into the argument block's image
 *   (pygraph_while_write_slots) and refreshed (graph_set_args); the exit
 *   tests at the top of the first iteration made on the host
 *   (pygraph_exit_test_eval): the body runs at least once;
 *   pygraph_while_block_upload on the launch stream; graph_launch.
 *   after: pygraph_while_block_read_state; then restore what the host
 *   would have seen had the loop run eagerly: the state's status bytes
 *   into the copy's host destination, the program's counter from
 *   state->iteration (and where the loop left: exit_test, exit_where),
 *   and every rotated or affine operand the program keeps in host
 *   variables to its value in the iteration the loop left in
 *   (pygraph_loop_value_at).  CAP: the loop goes on from state->iteration
 *   by other means; MALFORMED, or any CUDA error: a fault (the iterations
 *   counted ran, nothing ran twice). */
#ifndef PYGRAPH_WHILE_GRAPH_H
#define PYGRAPH_WHILE_GRAPH_H

#include <stdint.h>

#include "graphs/graph_plan.h"
#include "graphs/indirect.h"
#include "graphs/while_block.h"

/* status_op of a loop with no status copy (a counted loop,
 * PYGRAPH_STATUS_NONE): the body is the iteration's nodes and the
 * condition kernel, nothing folded, nothing split. */
#define PYGRAPH_WHILE_NO_STATUS SIZE_MAX

/* What the backend is given besides the iteration's ops (backend.h). */
struct pygraph_while_spec {
  size_t status_op;              /* the status copy's index in the op list, or
                                    PYGRAPH_WHILE_NO_STATUS */
  void *state;                   /* device address of the condition block's state: the
                                    condition kernel's first parameter */
  size_t block_bytes;            /* the block's size less its compiled form (the generic
                                    kernels stage that in shared memory,
                                    while_condition.h) */
  void *status;                  /* device address of that state's status bytes: the
                                    body's status copy writes there */
  int status_folded;             /* the body holds no node for the status copy: a
                                    condition kernel makes it from its source (the
                                    state's status_src, or its evolving source): the
                                    step where the copy was the iteration's last node,
                                    the after-copy kernel in a split body */
  int split_after_copy;          /* the ops after status_op are an IF node's body after
                                    the after-copy kernel (see the top) */
  const void *clauses;           /* device address of the loop's compiled form
                                    (graphs/while_clauses.h): the body's last node is the
                                    fast condition kernel over it; NULL: the generic one */
};

/* One iteration to make a WHILE graph of. */
struct pygraph_while_request {
  const struct pygraph_op_list *ops;          /* materialized */
  const struct pygraph_graph_plan *plan;      /* the capture's plan of ops */
  const struct pygraph_indirect_graph *ind;   /* NULL or no nodes: none */
  const pygraph_whole_loop *wl;               /* the loop's descriptor */
  size_t status_op;                           /* ops index of the status copy, or
                                                 PYGRAPH_WHILE_NO_STATUS */
  const struct pygraph_while_slot *slots;     /* operands the condition kernel advances,
                                                 in ind's argument block */
  size_t n_slots;
};

struct pygraph_while_graph {
  void *graph;                   /* the backend's, instantiated */
  struct pygraph_while_block block;
};

/* Why the request cannot be a WHILE graph, or NULL: the backend has no
 * WHILE graphs, the descriptor is malformed, the status copy is not a
 * device-to-host copy of status_bytes with a node (or a counted loop's
 * request names one, or a loop with a status names none), the body would hold
 * what a conditional body cannot (event record or wait nodes, copies or
 * memsets touching host memory), or records are made after the graph.
 * An exit test right after the status copy with ops after it splits the
 * body (see the top). */
const char *pygraph_while_refusal(const struct pygraph_backend *backend,
                                  const struct pygraph_while_request *rq);

/* Makes and instantiates the WHILE graph of `rq`.  cudaErrorNotSupported
 * with *step = the refusal when there is one; any other failure returns
 * its error with *step naming the failing step; either way nothing stays
 * allocated and *wg is zeroed. */
cudaError_t pygraph_while_graph_create(struct pygraph_while_graph *wg,
                                       const struct pygraph_backend *backend,
                                       const struct pygraph_while_request *rq, const char **step);

/* Waits for its launches (see pygraph_while_block_free), frees the block
 * and destroys the graph. */
void pygraph_while_graph_free(struct pygraph_while_graph *wg, const struct pygraph_backend *backend);

#endif /* PYGRAPH_WHILE_GRAPH_H */
