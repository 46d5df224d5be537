/* indirect.h - parameter indirection: kernel nodes whose arguments change
 * every iteration read them from a device block instead of their node
 * parameters, so one loader-node update per replay (per chunk of the block)
 * refreshes all of them.
 *
 * The compiler gives each kernel an indirect twin (pygraph_site.
 * indirect_twin): a kernel taking one pointer to a block laid out exactly
 * like the original's parameter buffer.  At capture, a kernel op becomes an
 * indirect node when its argument bytes changed during warm-up and its
 * twin is usable; every indirect node gets an aligned slice of one
 * device block per segment.  The graph gets loader kernel nodes that write
 * the block before the roots run (arg_loader.h).  Twins compiled for sm_90+
 * start early and load their arguments while their predecessor finishes
 * (programmatic edges), when that predecessor's grid fits in one wave
 * (pygraph_indirect_mark_waves).  All of this is CUDA-free. */
#ifndef PYGRAPH_INDIRECT_H
#define PYGRAPH_INDIRECT_H

#include "graphs/arg_loader.h"
#include "graphs/graph_plan.h"
#include "port/backend.h"

/* Slices start at a multiple of 16, or of the largest power of two that
 * divides a parameter's size when that is larger (up to 256, cudaMalloc's
 * alignment): the twin reads its block with the parameters' alignment, which
 * the runtime does not know, and a type's alignment divides its size. */
#define PYGRAPH_INDIRECT_SLICE_ALIGN 16u
#define PYGRAPH_INDIRECT_SLICE_ALIGN_MAX 256u

struct pygraph_indirect_node {
  size_t op;                        /* index in the op list */
  size_t offset, size;              /* slice of the device block */
  const void *twin;                 /* kernel node func */
  int waits;                        /* twin waits for its predecessors: programmatic
                                       edges may lead to it */
};

struct pygraph_indirect {
  struct pygraph_indirect_node *nodes;
  size_t n_nodes, cap_nodes;
  long *node_of_op;                 /* per op: index into nodes, -1 = direct */
  size_t n_ops, cap_ops;
  size_t block_size;                /* packed total, bytes refreshed per replay */
};

/* What graph_build needs for the indirect part (NULL or n_nodes == 0: none). */
struct pygraph_indirect_graph {
  const struct pygraph_indirect *ind;
  const struct pygraph_arg_block *args;   /* device block, host image, chunks */
};

/* Called once per kernel op that stays direct, with why (reason, and detail
 * or NULL), and once per op that goes indirect with reason == NULL. */
typedef void (*pygraph_indirect_note_fn)(void *ctx, size_t op_index,
                                         const struct pygraph_op *op, const char *reason,
                                         const char *detail);

/* Chooses the indirect nodes of `ops` (about to be captured into the graph
 * `plan` describes: pygraph_graph_plan_for_capture).  changed[i] says
 * whether op i's argument bytes changed before capture; positions at or
 * past n_changed count as unchanged.  With only_waiting
 * (PYGRAPH_INDIRECT=auto: per-node updates measured cheaper otherwise), a
 * twin that cannot start early keeps its op direct: one compiled for an
 * older GPU, or one whose node has no one-wave kernel among its plan
 * dependencies.  Returns 0, or -1 when out of memory (ind is then empty:
 * everything stays direct). */
int pygraph_indirect_select(struct pygraph_indirect *ind, const struct pygraph_backend *backend,
                            const struct pygraph_op_list *ops,
                            const struct pygraph_graph_plan *plan, const unsigned char *changed,
                            size_t n_changed, int only_waiting, pygraph_indirect_note_fn note,
                            void *ctx);

/* Programmatic edges only where they cannot cost throughput.  An edge
 * from kernel A into a waiting twin B lets B launch once every block of A
 * has triggered (an indirect twin does so at entry) or exited; B's blocks
 * then sit in griddepcontrol.wait on SM slots until A completes.  When A's
 * grid needs more than one wave, those slots are taken while A still has
 * blocks to run (a multi-wave kernel can then take twice as long), and the
 * early start can hide at most one launch
 * latency of a kernel that long anyway.  So an edge is programmatic only
 * when A's grid fits in one wave at its occupancy
 * (backend->resident_blocks for the function A launches: its twin when A
 * is indirect); otherwise, or when the query fails, it is a full edge and
 * B runs as a plain twin (griddepcontrol.wait without a programmatic
 * prerequisite returns at once; launch_dependents without a programmatic
 * dependent does nothing).  B's own grid does not matter: B's blocks
 * launch early only into slots A has released or never needed.
 *
 * Writes the plan's programmatic edges, all of them anew (the only writer
 * of them; after pygraph_indirect_select on the same list and plan): an edge is
 * programmatic only into an indirect node whose twin waits, from a kernel
 * dependency whose grid is one wave.  Queries only when some indirect node
 * waits.  note (may be NULL) hears each kernel op's verdict: resident < 0
 * = query failed.  Returns 0, or -1 when out of memory (no programmatic
 * edges then). */
typedef void (*pygraph_wave_note_fn)(void *ctx, size_t op_index, const struct pygraph_op *op,
                                     unsigned long long blocks, long long resident);
int pygraph_indirect_mark_waves(const struct pygraph_indirect *ind,
                                const struct pygraph_backend *backend,
                                const struct pygraph_op_list *ops,
                                struct pygraph_graph_plan *plan, pygraph_wave_note_fn note,
                                void *ctx);

/* The backend's count of resident blocks for a launch shape, cached for
 * the process (successes only).  -1 when it cannot say. */
long long pygraph_resident_blocks(const struct pygraph_backend *backend, const void *func,
                                  unsigned threads, size_t smem);

/* The layout tag (pygraph_layout_tag.h) of a kernel's parameter layout as
 * the driver reports it; a twin carrying another tag is not used. */
unsigned pygraph_param_layout_tag(const struct pygraph_param_layout *layout);

/* The alignment a slice for `layout` gets (see above). */
size_t pygraph_indirect_slice_align(const struct pygraph_param_layout *layout);

/* Copies the current argument bytes of every indirect node into `block`
 * (block_size bytes, padding between slices left as it is). */
void pygraph_indirect_pack(const struct pygraph_indirect *ind, const struct pygraph_op_list *ops,
                           unsigned char *block);

void pygraph_indirect_clear(struct pygraph_indirect *ind);   /* keeps buffers */
void pygraph_indirect_free(struct pygraph_indirect *ind);

/* The backend's verdict on a twin, cached for the process (one backend
 * query per twin).  NULL = usable, with *info filled; otherwise why not. */
const char *pygraph_twin_lookup(const struct pygraph_backend *backend, const void *twin,
                                struct pygraph_twin_info *info);

#endif /* PYGRAPH_INDIRECT_H */
