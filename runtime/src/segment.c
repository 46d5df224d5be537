/* segment.c - what happens at the end of each iteration, per phase. */
#include "segment.h"

#include <stdio.h>
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

static void go_eager(struct pygraph_segment *seg, const char *reason)
{
  snprintf(seg->fallback, sizeof seg->fallback, "%s", reason);
  if (seg->graph) {
    seg->backend->graph_destroy(seg->graph);
    seg->graph = NULL;
  }
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

/* Eager warm-up iteration: run it, then see whether it repeats the last. */
static void end_warmup(struct pygraph_segment *seg)
{
  struct pygraph_op_list *cur = seg->current;
  execute_all(seg, cur);
  if (seg->has_reference && pygraph_same_signature(cur, seg->reference))
    seg->stable_iterations++;
  else
    seg->stable_iterations = 1;
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
  return 1;
}

static void end_capture(struct pygraph_segment *seg)
{
  struct pygraph_op_list *cur = seg->current;
  void *graph = NULL;
  cudaError_t err = seg->backend->graph_build(cur, &graph);
  if (err != cudaSuccess) {
    graph_fault(seg, "graph build", err);
    execute_all(seg, cur);
    return;
  }
  /* Re-captures hand over the old graph so it can be updated in place. */
  err = seg->backend->graph_instantiate(graph, seg->graph);
  if (err != cudaSuccess) {
    graph_fault(seg, "graph instantiate", err);
    seg->backend->graph_destroy(graph);
    execute_all(seg, cur);
    return;
  }
  seg->graph = graph;
  seg->stats.captures++;
  pygraph_debug_log(&seg->settings, SEG_FMT ": captured graph #%llu with %zu ops",
                    SEG_ARGS(seg), seg->stats.captures, cur->n_ops);
  if (launch_graph(seg, cur)) {
    seg->phase = PYGRAPH_PHASE_REPLAY;
    swap_lists(seg);
  }
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
  for (size_t i = 0; i < cur->n_ops; i++) {
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
