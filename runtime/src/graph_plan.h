/* graph_plan.h - the dependency structure of a graph built from an op list,
 * computed without CUDA so it can be unit-tested.
 *
 * Node i is op i.  It depends on the previous op of its stream and, for a
 * wait on an event recorded earlier in the iteration, on what that record
 * op depends on.  Event records are leaves: nothing depends on them (but a
 * later record of the same event), so the record nodes a fork/join leaves
 * in the graph are off its critical path.  When the legacy default stream is mixed with other streams, every node
 * depends on the previous one instead (the legacy stream implicitly orders
 * itself with blocking streams; chaining is the safe superset). */
#ifndef PYGRAPH_GRAPH_PLAN_H
#define PYGRAPH_GRAPH_PLAN_H

#include "op_list.h"

struct pygraph_plan_node {
  size_t deps[2];
  unsigned n_deps;
};

struct pygraph_graph_plan {
  struct pygraph_plan_node *nodes;     /* n_ops entries */
  cudaStream_t *streams;               /* distinct, in first-use order; [0] launches */
  size_t n_streams;
  int serialized;
};

/* Returns 0, or -1 when out of memory (plan left empty). */
int pygraph_graph_plan_make(const struct pygraph_op_list *ops, struct pygraph_graph_plan *plan);
void pygraph_graph_plan_free(struct pygraph_graph_plan *plan);

#endif /* PYGRAPH_GRAPH_PLAN_H */
