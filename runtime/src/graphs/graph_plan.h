/* graph_plan.h - the graph an op list is captured into, made once per
 * capture and CUDA-free: which op gets a node (and of what form), each
 * node's dependencies, which of those edges are programmatic, and which
 * records are made after the launch.  Indirection reads it to choose its
 * twins and writes the programmatic edges into it (indirect.h); the backend
 * realises exactly what it says (backend.h, graph_build).
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
 * record of the same iteration, and a record made after the graph
 * instead (`after_graph`: a record some wait of the iteration joins, of an
 * event that cannot time; runtime/README.md says why that is allowed).
 * Their dependents depend on their dependencies instead, so kernels follow
 * kernels directly (and can be reached by programmatic edges). */
#ifndef PYGRAPH_GRAPH_PLAN_H
#define PYGRAPH_GRAPH_PLAN_H

#include "port/backend.h"
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
  /* Per dependency: 1 = a programmatic edge (the dependency's kernel may
   * let this node start early), 0 = a full edge.  Made 0; only
   * pygraph_indirect_mark_waves (indirect.h) writes 1s. */
  unsigned char programmatic[PYGRAPH_PLAN_MAX_DEPS];
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

/* untimed: NULL, or one flag per op: a record op of an event that cannot
 * time, which is made after the graph launch when some wait of the
 * iteration joins it (and no later record of its event keeps a node).
 * No programmatic edges.  Returns 0, or -1 when out of memory (plan left
 * empty). */
int pygraph_graph_plan_make(const struct pygraph_op_list *ops, const unsigned char *untimed,
                            struct pygraph_graph_plan *plan);

/* The plan of the graph `ops` is captured into: the untimed flags are the
 * backend's answers (backend->event_times, asked once per record that a
 * wait of the iteration joins; a backend without it: every event times).
 * This is the one plan of a capture, made before indirection is chosen.
 * Returns 0, or -1 when out of memory (plan left empty). */
int pygraph_graph_plan_for_capture(const struct pygraph_op_list *ops,
                                   const struct pygraph_backend *backend,
                                   struct pygraph_graph_plan *plan);
void pygraph_graph_plan_free(struct pygraph_graph_plan *plan);

#endif /* PYGRAPH_GRAPH_PLAN_H */
