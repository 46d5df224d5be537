/* graph_plan.h - the dependency structure of a graph built from an op list,
 * computed without CUDA so it can be unit-tested.
 *
 * Node i is op i.  It depends on the previous op of its stream and, for a
 * wait on an event recorded earlier in the iteration, on that record op;
 * a record of an event recorded earlier in the iteration also depends on
 * that earlier record (the last record is what the event holds after the
 * graph).  When the legacy default stream is mixed with other streams, every node
 * depends on the previous one instead (the legacy stream implicitly orders
 * itself with blocking streams; chaining is the safe superset). */
#ifndef PYGRAPH_GRAPH_PLAN_H
#define PYGRAPH_GRAPH_PLAN_H

#include "op_list.h"

/* Its stream's previous op, and the record a wait joins or a record
 * follows. */
#define PYGRAPH_PLAN_MAX_DEPS 2

struct pygraph_plan_node {
  size_t deps[PYGRAPH_PLAN_MAX_DEPS];
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
