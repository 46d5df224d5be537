/* graph_realise_internal.h - the CUDA graph behind the port's graph handle
 * (graph_realise.c) and the pieces of its building that a WHILE graph
 * (while_graph.c) builds from too: only for cuda/. */
#ifndef PYGRAPH_GRAPH_REALISE_INTERNAL_H
#define PYGRAPH_GRAPH_REALISE_INTERNAL_H

#include "graphs/arg_loader.h"
#include "graphs/graph_plan.h"
#include "graphs/indirect.h"

struct cuda_graph {
  cudaGraph_t graph;
  cudaGraph_t body;                  /* where the ops' nodes go: `graph`, or the body of
                                        a WHILE node in it (owned by that node) */
  int is_while;                      /* a whole-loop graph: never updated in place, no
                                        programmatic edges in its body */
  cudaGraphExec_t exec;
  cudaGraphNode_t *nodes;            /* one per op, in op order; NULL: the op has
                                        no node (graph_plan.h) */
  size_t n_nodes;
  /* The plan's records made after the launch: after_slot as the plan's
   * (n_ops entries), after_events[k] the event of after slot k. */
  long *after_slot;
  cudaEvent_t *after_events;
  size_t n_after;
  cudaStream_t *streams;             /* streams[0]: the one the graph launches on */
  size_t n_streams;
  cudaEvent_t join_event;            /* only when several streams are involved */
  /* Parameter indirection: the loader nodes writing the device block. */
  cudaGraphNode_t *loaders;          /* one per chunk; NULL: no indirect nodes */
  size_t n_loaders;
};

/* A zeroed graph handle holding copies of the plan's lists (streams,
 * after-graph records) and one empty node slot per op; free it with
 * pygraph_cuda_graph_destroy. */
cudaError_t pygraph_cuda_graph_alloc(const struct pygraph_op_list *ops,
                                     const struct pygraph_graph_plan *plan,
                                     struct cuda_graph **out);

/* The loader kernel nodes of `ab` in g->graph, without dependencies. */
cudaError_t pygraph_cuda_graph_add_loaders(struct cuda_graph *g, const struct pygraph_arg_block *ab);

/* Op i's node in g->body, doing `op` (op i, or what stands for it), with
 * the plan's dependencies on the nodes already added. */
cudaError_t pygraph_cuda_graph_add_op(struct cuda_graph *g, size_t i, const struct pygraph_op *op,
                                      const struct pygraph_plan_node *pn,
                                      const struct pygraph_indirect_graph *ig);

/* The event the launch joins the graph's streams with (several streams only). */
cudaError_t pygraph_cuda_graph_add_join(struct cuda_graph *g);

#endif /* PYGRAPH_GRAPH_REALISE_INTERNAL_H */
