/* segment.c - what happens at the end of each iteration, per phase. */
#include "segment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_log.h"
#include "decide.h"
#include "signature.h"

#define SEG_FMT "%s %s:%u-%u seg %u"
#define SEG_ARGS(seg)                                                         \
  (seg)->region->function ? (seg)->region->function : "?",                   \
      (seg)->region->file ? (seg)->region->file : "?", (seg)->region->line_begin, \
      (seg)->region->line_end, (seg)->index

void pygraph_segment_init(struct pygraph_segment *seg, const struct pygraph_backend *backend,
                          const struct pygraph_settings *settings,
                          const pygraph_region *region, unsigned index)
{
  memset(seg, 0, sizeof *seg);
  seg->backend = backend;
  seg->settings = *settings;
  seg->region = region;
  seg->index = index;
  atomic_flag_clear(&seg->busy);
  seg->current = &seg->lists[0];
  seg->reference = &seg->lists[1];
  seg->phase = settings->mode == PYGRAPH_MODE_EAGER ? PYGRAPH_PHASE_EAGER : PYGRAPH_PHASE_WARMUP;
}

int pygraph_segment_try_acquire(struct pygraph_segment *seg)
{
  return !atomic_flag_test_and_set_explicit(&seg->busy, memory_order_acquire);
}

void pygraph_segment_release(struct pygraph_segment *seg)
{
  atomic_flag_clear_explicit(&seg->busy, memory_order_release);
}

int pygraph_segment_begin_iteration(struct pygraph_segment *seg)
{
  seg->flushed = 0;
  pygraph_op_list_reset(seg->current);
  return seg->phase != PYGRAPH_PHASE_EAGER;
}

static void swap_lists(struct pygraph_segment *seg)
{
  struct pygraph_op_list *t = seg->current;
  seg->current = seg->reference;
  seg->reference = t;
  seg->has_reference = 1;
}

/* Errors are deliberately ignored: they stay CUDA's (sticky) last error,
 * exactly as if the user had made these calls. */
static void execute_all(struct pygraph_segment *seg, const struct pygraph_op_list *list)
{
  for (size_t i = 0; i < list->n_ops; i++)
    (void)seg->backend->execute(&list->ops[i]);
}

/* The ring may still be read by queued launches of seg->graph: free it
 * while the graph is alive (it waits for them). */
static void drop_graph(struct pygraph_segment *seg)
{
  if (seg->staging.device_block)
    pygraph_staging_free(&seg->staging, seg->backend, seg->graph);
  pygraph_indirect_clear(&seg->indirect);
  if (seg->graph) {
    seg->backend->graph_destroy(seg->graph);
    seg->graph = NULL;
  }
}

static void go_eager(struct pygraph_segment *seg, const char *reason)
{
  snprintf(seg->fallback, sizeof seg->fallback, "%s", reason);
  drop_graph(seg);
  seg->phase = PYGRAPH_PHASE_EAGER;
  pygraph_debug_log(&seg->settings, SEG_FMT ": eager for good: %s", SEG_ARGS(seg), reason);
}

/* A graph call failed: the segment stops using graphs.  The caller still
 * owes the iteration's ops one eager execution unless the graph ran. */
static void graph_fault(struct pygraph_segment *seg, const char *step, cudaError_t err)
{
  char reason[sizeof seg->fallback];
  seg->backend->clear_error();
  snprintf(reason, sizeof reason, "%s failed: %s", step, seg->backend->error_name(err));
  go_eager(seg, reason);
}

static void apply_decision(struct pygraph_segment *seg)
{
  struct pygraph_decide_input in = {
      .stable_iterations = seg->stable_iterations,
      .captures = (unsigned)seg->stats.captures,
      .n_ops = (unsigned long)seg->reference->n_ops,
  };
  const char *reason = NULL;
  switch (pygraph_decide(&seg->settings, &in, &reason)) {
  case PYGRAPH_KEEP_WARMING:
    break;
  case PYGRAPH_CAPTURE_NEXT:
    seg->phase = PYGRAPH_PHASE_CAPTURE;
    pygraph_debug_log(&seg->settings, SEG_FMT ": stable after %u iterations, capturing next",
                      SEG_ARGS(seg), seg->stable_iterations);
    break;
  case PYGRAPH_GO_EAGER:
    go_eager(seg, reason);
    break;
  }
}

/* Keeps seg->arg_changed up to date with `cur`: a new signature starts
 * over, the same one ORs in which kernels' arguments moved since the
 * reference.  Out of memory only loses information (all stay direct). */
static void note_arg_changes(struct pygraph_segment *seg, const struct pygraph_op_list *cur,
                             int same_signature)
{
  const struct pygraph_op_list *ref = seg->reference;
  if (!same_signature || seg->n_arg_changed != cur->n_ops) {
    if (cur->n_ops > seg->cap_arg_changed) {
      unsigned char *p = realloc(seg->arg_changed, cur->n_ops);
      if (!p) {
        seg->n_arg_changed = 0;
        return;
      }
      seg->arg_changed = p;
      seg->cap_arg_changed = cur->n_ops;
    }
    seg->n_arg_changed = cur->n_ops;
    memset(seg->arg_changed, 0, cur->n_ops);
    if (!same_signature)
      return;
  }
  for (size_t i = 0; i < cur->n_ops; i++)
    if (cur->ops[i].kind == PYGRAPH_OP_KERNEL && !seg->arg_changed[i] &&
        pygraph_op_params_differ(cur, &cur->ops[i], ref, &ref->ops[i]))
      seg->arg_changed[i] = 1;
}

/* Eager warm-up iteration: run it, then see whether it repeats the last. */
static void end_warmup(struct pygraph_segment *seg)
{
  struct pygraph_op_list *cur = seg->current;
  execute_all(seg, cur);
  int same = seg->has_reference && pygraph_same_signature(cur, seg->reference);
  if (same)
    seg->stable_iterations++;
  else
    seg->stable_iterations = 1;
  if (seg->settings.indirect)
    note_arg_changes(seg, cur, same);
  swap_lists(seg);
  apply_decision(seg);
}

/* Returns 1 when the graph ran the iteration's work. */
static int launch_graph(struct pygraph_segment *seg, const struct pygraph_op_list *list)
{
  int ran = 0;
  cudaError_t err = seg->backend->graph_launch(seg->graph, &ran);
  if (err != cudaSuccess) {
    graph_fault(seg, "graph launch", err);
    if (!ran)
      execute_all(seg, list);
    return 0;
  }
  seg->stats.launches_in_graphs += list->n_kernels;
  if (seg->staging.device_block) {
    err = pygraph_staging_launched(&seg->staging, seg->backend, seg->graph);
    if (err != cudaSuccess) {
      /* The graph ran: its work must not run again. */
      graph_fault(seg, "staging event record", err);
      return 0;
    }
  }
  return 1;
}

struct note_ctx {
  struct pygraph_segment *seg;
};

static void note_node(void *ctx, size_t index, const struct pygraph_op *op, const char *reason,
                      const char *detail)
{
  struct pygraph_segment *seg = ((struct note_ctx *)ctx)->seg;
  const char *kernel = op->site && op->site->kernel ? op->site->kernel : "?";
  if (!reason)
    pygraph_debug_log(&seg->settings, SEG_FMT ": op %zu (%s): indirect, %zu-byte argument block",
                      SEG_ARGS(seg), index, kernel, op->layout->total_size);
  else
    pygraph_debug_log(&seg->settings, SEG_FMT ": op %zu (%s): direct: %s%s%s", SEG_ARGS(seg),
                      index, kernel, reason, detail ? ": " : "", detail ? detail : "");
}

/* Picks the indirect nodes of `cur` into *ind and, when there are any,
 * sets up their staging ring with slot 0 = this iteration's arguments.
 * Returns cudaSuccess (possibly with no indirect nodes) or the CUDA error of
 * the failed step (*step), with nothing left allocated. */
static cudaError_t prepare_indirect(struct pygraph_segment *seg, const struct pygraph_op_list *cur,
                                    struct pygraph_indirect *ind, struct pygraph_staging *st,
                                    const char **step)
{
  memset(st, 0, sizeof *st);
  if (!seg->settings.indirect) {
    if (cur->n_kernels)
      pygraph_debug_log(&seg->settings, SEG_FMT ": all kernel nodes direct: PYGRAPH_INDIRECT=0",
                        SEG_ARGS(seg));
    return cudaSuccess;
  }
  note_arg_changes(seg, cur, seg->has_reference && pygraph_same_signature(cur, seg->reference));
  struct note_ctx ctx = {seg};
  if (pygraph_indirect_select(ind, seg->backend, cur, seg->arg_changed, seg->n_arg_changed,
                              note_node, &ctx)) {
    pygraph_debug_log(&seg->settings, SEG_FMT ": all kernel nodes direct: out of memory",
                      SEG_ARGS(seg));
    return cudaSuccess;
  }
  if (ind->n_nodes == 0)
    return cudaSuccess;
  cudaError_t err = pygraph_staging_create(st, seg->backend, ind->block_size, step);
  if (err != cudaSuccess) {
    pygraph_indirect_clear(ind);
    return err;
  }
  pygraph_indirect_pack(ind, cur, pygraph_staging_slot(st, st->current));
  pygraph_debug_log(&seg->settings, SEG_FMT ": %zu indirect nodes, %zu-byte device block",
                    SEG_ARGS(seg), ind->n_nodes, ind->block_size);
  return cudaSuccess;
}

static void end_capture(struct pygraph_segment *seg)
{
  struct pygraph_op_list *cur = seg->current;
  struct pygraph_indirect ind = {0};
  struct pygraph_staging st;
  const char *step = NULL;
  cudaError_t err = prepare_indirect(seg, cur, &ind, &st, &step);
  if (err != cudaSuccess) {
    pygraph_indirect_free(&ind);
    graph_fault(seg, step, err);
    execute_all(seg, cur);
    return;
  }
  struct pygraph_indirect_graph ind_graph = {
      .ind = &ind, .device_block = st.device_block,
      .initial_src = st.device_block ? pygraph_staging_slot(&st, st.current) : NULL};
  void *graph = NULL;
  err = seg->backend->graph_build(cur, ind.n_nodes ? &ind_graph : NULL, &graph);
  if (err != cudaSuccess) {
    step = "graph build";
    goto fail;
  }
  /* Re-captures hand over the old graph so it can be updated in place. */
  err = seg->backend->graph_instantiate(graph, seg->graph);
  if (err != cudaSuccess) {
    step = "graph instantiate";
    goto fail;
  }
  /* The old graph was consumed: its ring (if any) goes too, once its
   * queued launches are done (its exec may live on, updated in place, but
   * now reads the new block). */
  if (seg->staging.device_block)
    pygraph_staging_free(&seg->staging, seg->backend, NULL);
  seg->graph = graph;
  pygraph_indirect_free(&seg->indirect);
  seg->indirect = ind;
  seg->staging = st;
  seg->stats.captures++;
  seg->stats.indirect_nodes = ind.n_nodes;
  seg->stats.indirect_bytes = ind.block_size;
  pygraph_debug_log(&seg->settings, SEG_FMT ": captured graph #%llu with %zu ops",
                    SEG_ARGS(seg), seg->stats.captures, cur->n_ops);
  if (launch_graph(seg, cur)) {
    seg->phase = PYGRAPH_PHASE_REPLAY;
    swap_lists(seg);
  }
  return;
fail:
  graph_fault(seg, step, err);                       /* drops the old graph too */
  if (graph)
    seg->backend->graph_destroy(graph);
  if (st.device_block)
    pygraph_staging_free(&st, seg->backend, NULL);   /* never launched */
  pygraph_indirect_free(&ind);
  execute_all(seg, cur);
}

static void end_replay(struct pygraph_segment *seg)
{
  struct pygraph_op_list *cur = seg->current, *ref = seg->reference;
  if (!pygraph_same_signature(cur, ref)) {
    /* Never run the wrong graph: this iteration runs as recorded. */
    seg->stats.mismatches++;
    pygraph_debug_log(&seg->settings, SEG_FMT ": signature mismatch, back to warm-up",
                      SEG_ARGS(seg));
    seg->phase = PYGRAPH_PHASE_WARMUP;
    seg->has_reference = 0;
    end_warmup(seg);
    return;
  }
  const struct pygraph_indirect *ind = &seg->indirect;
  int refresh = 0;                            /* an indirect node's arguments moved */
  for (size_t i = 0; i < cur->n_ops; i++) {
    if (ind->n_nodes && ind->node_of_op[i] >= 0) {
      if (!refresh && pygraph_op_params_differ(cur, &cur->ops[i], ref, &ref->ops[i]))
        refresh = 1;
      continue;
    }
    if (!pygraph_op_params_differ(cur, &cur->ops[i], ref, &ref->ops[i]))
      continue;
    cudaError_t err = seg->backend->graph_update_node(seg->graph, i, &cur->ops[i]);
    if (err != cudaSuccess) {
      graph_fault(seg, "graph update", err);
      execute_all(seg, cur);
      return;
    }
    seg->stats.updates++;
  }
  /* All indirect nodes at once: a fresh slot, one memcpy-node update.
   * Unchanged arguments keep the slot the node reads (it holds them). */
  if (refresh) {
    struct pygraph_staging *st = &seg->staging;
    cudaError_t err = pygraph_staging_advance(st, seg->backend);
    if (err != cudaSuccess) {
      graph_fault(seg, "staging wait", err);
      execute_all(seg, cur);
      return;
    }
    unsigned char *slot = pygraph_staging_slot(st, st->current);
    pygraph_indirect_pack(ind, cur, slot);
    err = seg->backend->graph_set_staging(seg->graph, slot);
    if (err != cudaSuccess) {
      graph_fault(seg, "staging update", err);
      execute_all(seg, cur);
      return;
    }
    seg->stats.refreshes++;
  }
  if (launch_graph(seg, cur)) {
    seg->stats.replays++;
    swap_lists(seg);
  }
}

void pygraph_segment_end_iteration(struct pygraph_segment *seg)
{
  seg->stats.iters++;
  if (seg->flushed || seg->phase == PYGRAPH_PHASE_EAGER)
    return;                                   /* everything already ran */
  if (seg->current->n_ops == 0)
    return;                                   /* empty iteration: nothing to do */
  pygraph_op_list_materialize(seg->current);
  switch (seg->phase) {
  case PYGRAPH_PHASE_WARMUP:
    end_warmup(seg);
    break;
  case PYGRAPH_PHASE_CAPTURE:
    end_capture(seg);
    break;
  case PYGRAPH_PHASE_REPLAY:
    end_replay(seg);
    break;
  case PYGRAPH_PHASE_EAGER:
    break;
  }
}

void pygraph_segment_flush(struct pygraph_segment *seg, const char *reason)
{
  pygraph_op_list_materialize(seg->current);
  execute_all(seg, seg->current);
  seg->flushed = 1;
  seg->stats.flushes++;
  seg->last_flush_reason = reason;
  /* A flushed iteration says nothing about stability: warm-up restarts.  In
   * REPLAY the graph (and the reference it mirrors) stays as it was. */
  if (seg->phase == PYGRAPH_PHASE_WARMUP || seg->phase == PYGRAPH_PHASE_CAPTURE) {
    seg->phase = PYGRAPH_PHASE_WARMUP;
    seg->stable_iterations = 0;
    seg->has_reference = 0;
  }
  pygraph_debug_log(&seg->settings, SEG_FMT ": flushed after %zu deferred ops: %s",
                    SEG_ARGS(seg), seg->current->n_ops, reason);
}

const char *pygraph_segment_mode_name(const struct pygraph_segment *seg)
{
  switch (seg->phase) {
  case PYGRAPH_PHASE_REPLAY:
    return "graph";
  case PYGRAPH_PHASE_EAGER:
    return "eager";
  default:
    return "warmup";
  }
}
