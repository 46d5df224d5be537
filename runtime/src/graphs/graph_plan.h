/* graph_plan.h - the dependency structure of a graph built from an op list,
 * computed without CUDA so it can be unit-tested.
 *
 * Op i depends on the previous op of its stream and, for a wait on an event
 * recorded earlier in the iteration, on that record op; a record of an event
 * recorded earlier in the iteration also depends on that earlier record (the
 * last record is what the event holds after the graph).  When the legacy
 * default stream is mixed with other streams, every op depends on the
 * previous one instead (the legacy stream implicitly orders itself with
 * blocking streams; chaining is the safe superset).
 *
 * Ops that only order others get no node when that is cheap: a wait on a
 * record of the same iteration, and a record the backend makes after the
 * graph instead (`after_graph`: events that cannot time, see backend_cuda.c).
 * Their dependents depend on their dependencies instead, so kernels follow
 * kernels directly (and can be reached by programmatic edges). */
#ifndef PYGRAPH_GRAPH_PLAN_H
#define PYGRAPH_GRAPH_PLAN_H

#include "recording/op_list.h"

/* A node's dependencies after forwarding: its two (stream order, event)
 * each stand for at most PYGRAPH_PLAN_FORWARD_MAX nodes. */
#define PYGRAPH_PLAN_FORWARD_MAX 4
#define PYGRAPH_PLAN_MAX_DEPS (2 * PYGRAPH_PLAN_FORWARD_MAX)

enum pygraph_plan_form {
  PYGRAPH_PLAN_OP,        /* a node doing the op */
  PYGRAPH_PLAN_EMPTY,     /* an empty node: the op only orders (too many
                             dependencies to forward) */
  PYGRAPH_PLAN_NONE       /* no node: deps[] are forwarded to its dependents */
};

struct pygraph_plan_node {
  enum pygraph_plan_form form;
  size_t deps[PYGRAPH_PLAN_MAX_DEPS];   /* ops with a node (form != NONE) */
  unsigned n_deps;
};

struct pygraph_graph_plan {
  struct pygraph_plan_node *nodes;     /* n_ops entries */
  /* The records made after the launch: the last one of each event, in op
   * order.  after_slot[i] (n_ops entries): op i's index in after_ops, -1 =
   * not such a record, PYGRAPH_PLAN_SUPERSEDED = a later record of its
   * event stands for it. */
  size_t *after_ops;
  size_t n_after;
  long *after_slot;
  cudaStream_t *streams;               /* distinct, in first-use order; [0] launches */
  size_t n_streams;
  int serialized;
};

#define PYGRAPH_PLAN_SUPERSEDED (-2)

/* after_graph: NULL, or one flag per op: a record op made after the graph
 * launch rather than by a node.  Returns 0, or -1 when out of memory (plan
 * left empty). */
int pygraph_graph_plan_make(const struct pygraph_op_list *ops, const unsigned char *after_graph,
                            struct pygraph_graph_plan *plan);
void pygraph_graph_plan_free(struct pygraph_graph_plan *plan);

#endif /* PYGRAPH_GRAPH_PLAN_H */
