/* graph_plan.h - the dependency structure of a graph built from an op list,
 * computed without CUDA so it can be unit-tested.
 *
 * Node i is op i.  It depends on the previous op of its stream and, for a
 * wait on an event recorded earlier in the iteration, on what that record
 * op depends on.  Event records are leaves: nothing depends on them but
 * later records of the same event or stream (which keep their order: the
 * last record is what the event holds after the graph, and a timing stop
 * never comes before its start), so the record nodes a fork/join leaves in
 * the graph are off its critical path.  When the legacy default stream is mixed with other streams, every node
 * depends on the previous one instead (the legacy stream implicitly orders
 * itself with blocking streams; chaining is the safe superset). */
#ifndef PYGRAPH_GRAPH_PLAN_H
#define PYGRAPH_GRAPH_PLAN_H

#include "op_list.h"

/* A kernel, copy or wait has at most 2 (its stream, the record it waits
 * on); a record 3 (its stream, and the previous records of its event and
 * of its stream). */
#define PYGRAPH_PLAN_MAX_DEPS 3

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
