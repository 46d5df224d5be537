/* while_graph.c - whether an iteration can be a WHILE body, and making its
 * graph (while_graph.h). */
#include "graphs/while_graph.h"

#include <stddef.h>
#include <string.h>

#include "recording/whole_loop.h"

/* Does an exit test leave right after the status copy? */
static int tests_after_copy(const pygraph_whole_loop *wl)
{
  for (unsigned k = 0; k < wl->n_nodes; k++)
    if (wl->nodes[k].op == PYGRAPH_EXIT_LEAVE && wl->nodes[k].arg == PYGRAPH_EXIT_AFTER_COPY)
      return 1;
  return 0;
}

static int copies_device_memory(const struct pygraph_backend *backend, const struct pygraph_op *op)
{
  if (op->kind == PYGRAPH_OP_MEMSET)
    return backend->both_device_memory(op->dst, op->dst);
  return op->memcpy_kind == cudaMemcpyDeviceToDevice ||
         (op->memcpy_kind == cudaMemcpyDefault && backend->both_device_memory(op->dst, op->src));
}

/* Why op i (not the status copy) cannot be in a WHILE body, or NULL. */
static const char *body_op_refusal(const struct pygraph_backend *backend,
                                   const struct pygraph_while_request *rq, size_t i)
{
  const struct pygraph_op *op = &rq->ops->ops[i];
  enum pygraph_plan_form form = rq->plan->nodes[i].form;
  if (form == PYGRAPH_PLAN_NONE)
    return NULL;
  if (form == PYGRAPH_PLAN_EMPTY || op->kind == PYGRAPH_OP_KERNEL)
    return NULL;
  if (op->kind == PYGRAPH_OP_HOST_BYTES)
    return "a host-to-device copy in the body (every body iteration would deliver the first "
           "iteration's bytes)";
  if (op->kind == PYGRAPH_OP_LIBRARY)   /* its captured graph: a child graph node */
    return op->library->collective
               ? "a collective library call in the body (its kernels may span devices, which "
                 "a conditional body cannot hold)"
               : NULL;
  if (op->kind == PYGRAPH_OP_EVENT_RECORD || op->kind == PYGRAPH_OP_EVENT_WAIT)
    return "an event record or wait node (a conditional body holds kernels, copies, memsets "
           "and empty nodes)";
  if (!copies_device_memory(backend, op))
    return "a copy or memset touching host memory in the body";
  return NULL;
}

/* Why the request's status copy cannot be the body's, or NULL: a loop
 * with a status needs it as a device-to-host copy of status_bytes with a
 * node; a counted loop has none, and its request must name none. */
static const char *status_refusal(const struct pygraph_while_request *rq)
{
  const struct pygraph_op_list *ops = rq->ops;
  if (!pygraph_whole_loop_has_status(rq->wl))
    return rq->status_op == PYGRAPH_WHILE_NO_STATUS
               ? NULL
               : "a status copy named for a loop without one";
  const struct pygraph_op *copy = rq->status_op < ops->n_ops ? &ops->ops[rq->status_op] : NULL;
  if (!copy || copy->kind != PYGRAPH_OP_MEMCPY || copy->count != rq->wl->status_bytes ||
      (copy->memcpy_kind != cudaMemcpyDeviceToHost && copy->memcpy_kind != cudaMemcpyDefault) ||
      rq->plan->nodes[rq->status_op].form != PYGRAPH_PLAN_OP)
    return "the status copy is not a device-to-host copy of the status";
  return NULL;
}

/* Does an op after the status copy have a node?  (Called only with a
 * status copy.) */
static int nodes_after_copy(const struct pygraph_while_request *rq)
{
  for (size_t i = rq->status_op + 1; i < rq->ops->n_ops; i++)
    if (rq->plan->nodes[i].form != PYGRAPH_PLAN_NONE)
      return 1;
  return 0;
}

/* Must the body be split (while_graph.h)?  A test right after the copy
 * with nodes after it: the iteration it leaves must not run them. */
static int split_after_copy(const struct pygraph_while_request *rq)
{
  return rq->status_op != PYGRAPH_WHILE_NO_STATUS && tests_after_copy(rq->wl) &&
         nodes_after_copy(rq);
}

/* Is the status copy folded into a condition kernel (no node for it)?  A
 * device-to-host copy (its source device memory) whose place is followed
 * by a condition kernel before any other node reads its source: it was
 * the body's last node (the step runs after every body node), or the body
 * is split after it (its first kernel runs right after the ops up to the
 * copy). */
static int status_folded(const struct pygraph_while_request *rq)
{
  return rq->status_op != PYGRAPH_WHILE_NO_STATUS &&
         rq->ops->ops[rq->status_op].memcpy_kind == cudaMemcpyDeviceToHost &&
         (!nodes_after_copy(rq) || split_after_copy(rq));
}

/* The descriptor's value of the status copy's source where it evolves
 * from iteration to iteration, else PYGRAPH_WL_NONE. */
static unsigned evolving_source(const struct pygraph_while_request *rq)
{
  long k = rq->status_op == PYGRAPH_WHILE_NO_STATUS
               ? -1
               : pygraph_whole_loop_evolving_operand(rq->wl, rq->status_op,
                                                     PYGRAPH_COPY_SOURCE_OPERAND);
  return k < 0 ? PYGRAPH_WL_NONE : (unsigned)k;
}

const char *pygraph_while_refusal(const struct pygraph_backend *backend,
                                  const struct pygraph_while_request *rq)
{
  if (!backend->while_graph_build)
    return "no WHILE graphs in this backend";
  if (!pygraph_whole_loop_check(rq->wl))
    return "malformed whole-loop descriptor";
  const struct pygraph_op_list *ops = rq->ops;
  const char *status = status_refusal(rq);
  if (status)
    return status;
  unsigned source = evolving_source(rq);
  if (source != PYGRAPH_WL_NONE && !status_folded(rq))
    return "the status copy's source changes from iteration to iteration and the copy "
           "cannot be made by a condition kernel (a device-to-host copy that is the "
           "iteration's last operation or followed by an exit test)";
  if (source != PYGRAPH_WL_NONE && (rq->wl->values[source].type != PYGRAPH_TYPE_PTR ||
                                    rq->wl->values[source].evolution != PYGRAPH_EVOLVE_ROTATION))
    return "the status copy's evolving source is not a rotation of pointers";
  if (rq->plan->n_after)
    return "event records made after the graph";
  for (size_t i = 0; i < ops->n_ops; i++) {
    const char *why = i == rq->status_op ? NULL : body_op_refusal(backend, rq, i);
    if (why)
      return why;
  }
  return NULL;
}

cudaError_t pygraph_while_graph_create(struct pygraph_while_graph *wg,
                                       const struct pygraph_backend *backend,
                                       const struct pygraph_while_request *rq, const char **step)
{
  memset(wg, 0, sizeof *wg);
  if ((*step = pygraph_while_refusal(backend, rq)))
    return cudaErrorNotSupported;
  const struct pygraph_indirect_graph *ind = rq->ind && rq->ind->ind->n_nodes ? rq->ind : NULL;
  cudaError_t err = pygraph_while_block_create(
      &wg->block, backend, rq->wl, rq->slots, rq->n_slots, ind ? ind->args->device_block : NULL,
      ind ? ind->args->size : 0, step);
  if (err != cudaSuccess)
    return err;
  int folded = status_folded(rq), split = split_after_copy(rq);
  if (folded && !pygraph_while_block_fold_status(&wg->block, rq->wl,
                                                 rq->ops->ops[rq->status_op].src,
                                                 evolving_source(rq))) {
    pygraph_while_block_free(&wg->block, backend, NULL);   /* its kind refused above */
    *step = "while block host alloc";
    return cudaErrorMemoryAllocation;
  }
  if (split)
    pygraph_while_block_split_after_copy(&wg->block);
  struct pygraph_while_spec spec = {
      rq->status_op, wg->block.device, wg->block.clauses_at,
      (void *)((uintptr_t)wg->block.device + offsetof(struct pygraph_while_state, status)),
      folded, split, pygraph_while_block_clauses(&wg->block)};
  *step = "while graph build";
  err = backend->while_graph_build(rq->ops, rq->plan, ind, &spec, &wg->graph, step);
  if (err == cudaSuccess) {
    *step = "while graph instantiate";
    if ((err = backend->graph_instantiate(wg->graph, NULL)) == cudaSuccess)
      return cudaSuccess;
  }
  /* never launched: nothing to wait for */
  void *graph = wg->graph;
  pygraph_while_block_free(&wg->block, backend, NULL);
  if (graph)
    backend->graph_destroy(graph);
  memset(wg, 0, sizeof *wg);
  return err;
}

void pygraph_while_graph_free(struct pygraph_while_graph *wg, const struct pygraph_backend *backend)
{
  pygraph_while_block_free(&wg->block, backend, wg->graph);
  if (wg->graph)
    backend->graph_destroy(wg->graph);
  memset(wg, 0, sizeof *wg);
}
