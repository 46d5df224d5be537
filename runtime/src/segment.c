/* segment.c - what happens at the end of each iteration: hit, miss or
 * capture; graph variants; faults.  What auto mode measures and decides is
 * in selection.c. */
#include "segment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_cost.h"
#include "debug_log.h"
#include "segment_internal.h"
#include "signature.h"

void pygraph_segment_init(struct pygraph_segment *seg, const struct pygraph_backend *backend,
                          const struct pygraph_settings *settings,
                          const pygraph_region *region, unsigned index)
{
  memset(seg, 0, sizeof *seg);
  seg->backend = backend;
  seg->settings = *settings;
  if (seg->settings.variants == 0 || seg->settings.variants > PYGRAPH_MAX_VARIANTS)
    seg->settings.variants = seg->settings.variants ? PYGRAPH_MAX_VARIANTS : 1;
  if (seg->settings.measure_iters < 2)
    seg->settings.measure_iters = 2;
  if (seg->settings.measure_iters > PYGRAPH_MAX_MEASURE_ITERS)
    seg->settings.measure_iters = PYGRAPH_MAX_MEASURE_ITERS;
  seg->region = region;
  seg->index = index;
  atomic_flag_clear(&seg->busy);
  seg->current = &seg->lists[0];
  seg->reference = &seg->lists[1];
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
    seg->variants[i].ref = &seg->lists[2 + i];
  if (settings->mode == PYGRAPH_MODE_EAGER) {
    seg->phase = PYGRAPH_PHASE_EAGER;
    seg->final = 1;
    seg->decision = PYGRAPH_DECIDED_EAGER;
    snprintf(seg->why, sizeof seg->why, "PYGRAPH_MODE=eager");
  } else {
    seg->phase = PYGRAPH_PHASE_WARMUP;
  }
}

int pygraph_segment_try_acquire(struct pygraph_segment *seg)
{
  return !atomic_flag_test_and_set_explicit(&seg->busy, memory_order_acquire);
}

void pygraph_segment_release(struct pygraph_segment *seg)
{
  atomic_flag_clear_explicit(&seg->busy, memory_order_release);
}

int pygraph_seg_measuring_mode(const struct pygraph_segment *seg)
{
  return seg->settings.mode == PYGRAPH_MODE_AUTO;
}

static double now_us(const struct pygraph_segment *seg)
{
  return seg->backend->now_us ? seg->backend->now_us() : 0.0;
}

/* Does this iteration record at all?  (Decided eager: only 2 consecutive
 * iterations out of every PYGRAPH_PROBE_INTERVAL, which look for a change
 * in behaviour.) */
static int records_iteration(struct pygraph_segment *seg)
{
  if (seg->phase != PYGRAPH_PHASE_EAGER)
    return 1;
  if (seg->final)
    return 0;
  if (seg->probe_state == 2) {
    seg->probe_state = 3;
    return 1;
  }
  if (++seg->probe_countdown >= PYGRAPH_PROBE_INTERVAL) {
    seg->probe_countdown = 0;
    seg->probe_state = 1;
    return 1;
  }
  return 0;
}

int pygraph_segment_begin_iteration(struct pygraph_segment *seg)
{
  seg->flushed = 0;
  seg->too_long = 0;
  seg->iter_updates = 0;
  seg->shadow_timed = 0;
  pygraph_op_list_reset(seg->current);
  int records = records_iteration(seg);
  seg->begin_clocked = records && pygraph_seg_measuring_mode(seg) &&
                       seg->decision == PYGRAPH_UNDECIDED && seg->stats.iters > 0 &&
                       seg->timed_iter == seg->stats.iters;   /* the previous one was timed */
  if (seg->begin_clocked)
    seg->begin_us = now_us(seg);
  /* With no graph to replay and no capture planned, deferring would only
   * hold the GPU back while the host records (convolution1D: 5% slower
   * than plain while auto warmed up): the ops run as they come. */
  seg->shadowed = records && seg->n_variants == 0 && !seg->capture_next;
  return records;
}

void pygraph_segment_run_shadowed(struct pygraph_segment *seg, const struct pygraph_op *op,
                                  void **args)
{
  if (seg->current->n_ops == 1 && pygraph_seg_measuring_mode(seg) &&
      seg->phase != PYGRAPH_PHASE_EAGER &&        /* probes time nothing */
      pygraph_measure_possible(&seg->measure, seg->backend)) {
    struct pygraph_sample_tag start = {.kind = PYGRAPH_SAMPLE_NONE};
    pygraph_measure_break(&seg->measure);
    pygraph_measure_record(&seg->measure, seg->backend, op->stream, &start);
    seg->shadow_timed = 1;
  }
  struct pygraph_op now = *op;
  if (now.kind == PYGRAPH_OP_KERNEL)
    now.arg_ptrs = args;
  (void)seg->backend->execute(&now);   /* errors stay CUDA's, as in execute_all */
}

void pygraph_seg_swap_lists(struct pygraph_op_list **a, struct pygraph_op_list **b)
{
  struct pygraph_op_list *t = *a;
  *a = *b;
  *b = t;
}

/* Errors are deliberately ignored: they stay CUDA's (sticky) last error,
 * exactly as if the user had made these calls. */
void pygraph_seg_execute_all(struct pygraph_segment *seg, const struct pygraph_op_list *list)
{
  if (seg->shadowed && list == seg->current)
    return;                                   /* they ran as they came */
  for (size_t i = 0; i < list->n_ops; i++)
    (void)seg->backend->execute(&list->ops[i]);
}

/* ---- variants ------------------------------------------------------- */

/* The argument block may still be read by queued launches of v->graph:
 * free it while the graph is alive (it waits for them). */
void pygraph_seg_drop_variant(struct pygraph_segment *seg, struct pygraph_variant *v)
{
  pygraph_arg_block_free(&v->args, seg->backend, v->graph);   /* (frees nothing when none) */
  pygraph_indirect_free(&v->indirect);
  if (v->graph) {
    seg->backend->graph_destroy(v->graph);
    v->graph = NULL;
    seg->n_variants--;
  }
  v->decided = 0;
  memset(&v->samples, 0, sizeof v->samples);
  if (seg->active == v) {
    seg->active = NULL;
    for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
      if (seg->variants[i].graph)
        seg->active = &seg->variants[i];
  }
}

void pygraph_seg_drop_all_variants(struct pygraph_segment *seg)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
    if (seg->variants[i].graph)
      pygraph_seg_drop_variant(seg, &seg->variants[i]);
}

static struct pygraph_variant *find_variant(struct pygraph_segment *seg, unsigned long long hash,
                                            const struct pygraph_op_list *cur)
{
  for (unsigned i = 0; i < seg->settings.variants; i++) {
    struct pygraph_variant *v = &seg->variants[i];
    if (v->graph && v->hash == hash && pygraph_same_signature(cur, v->ref))
      return v;
  }
  return NULL;
}

/* ---- eager for good -------------------------------------------------- */

/* Eager for good: drop every graph, stop measuring and recording. */
static void go_eager(struct pygraph_segment *seg, const char *reason)
{
  snprintf(seg->fallback, sizeof seg->fallback, "%s", reason);
  pygraph_seg_drop_all_variants(seg);
  pygraph_measure_free(&seg->measure, seg->backend);
  seg->phase = PYGRAPH_PHASE_EAGER;
  seg->final = 1;
  pygraph_seg_set_decision(seg, PYGRAPH_DECIDED_EAGER, reason);
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

/* ---- warm-up / misses ---------------------------------------------- */

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

long pygraph_seg_count_changed(const struct pygraph_op_list *a, const struct pygraph_op_list *b)
{
  long n = 0;
  for (size_t i = 0; i < a->n_ops; i++)
    if (pygraph_op_params_differ(a, &a->ops[i], b, &b->ops[i]))
      n++;
  return n;
}

/* How often `hash` is among the last PYGRAPH_NEVER_REPEATS misses noted. */
static unsigned recent_sightings(const struct pygraph_segment *seg, unsigned long long hash)
{
  unsigned n = 0;
  for (unsigned i = 0; i < seg->n_recent; i++)
    n += seg->recent[i] == hash;
  return n;
}

/* Notes a miss.  Signature never repeats: PYGRAPH_NEVER_REPEATS misses in a
 * row, each with a signature not among the last PYGRAPH_NEVER_REPEATS seen. */
static int never_repeats(struct pygraph_segment *seg, unsigned long long hash)
{
  seg->distinct_streak = recent_sightings(seg, hash) ? 0 : seg->distinct_streak + 1;
  seg->recent[seg->recent_next] = hash;
  seg->recent_next = (seg->recent_next + 1) % PYGRAPH_NEVER_REPEATS;
  if (seg->n_recent < PYGRAPH_NEVER_REPEATS)
    seg->n_recent++;
  return seg->distinct_streak >= PYGRAPH_NEVER_REPEATS;
}

/* Room for one more variant: a free slot, or a variant whose signature has
 * not come for PYGRAPH_BEHAVIOUR_BLOCK iterations.  Variants in use are not
 * evicted: with more signatures in a cycle than slots, LRU eviction would
 * recapture every iteration; the extra signatures run eagerly instead. */
static int cache_has_room(const struct pygraph_segment *seg)
{
  for (unsigned i = 0; i < seg->settings.variants; i++) {
    const struct pygraph_variant *v = &seg->variants[i];
    if (!v->graph || seg->stats.iters - v->seen_iter > PYGRAPH_BEHAVIOUR_BLOCK)
      return 1;
  }
  return 0;
}

/* ---- graphs --------------------------------------------------------- */

/* Returns 1 when the graph ran the iteration's work. */
static int launch_variant(struct pygraph_segment *seg, struct pygraph_variant *v,
                          const struct pygraph_op_list *list)
{
  int ran = 0;
  cudaError_t err = seg->backend->graph_launch(v->graph, &ran);
  if (err != cudaSuccess) {
    graph_fault(seg, "graph launch", err);
    if (!ran)
      pygraph_seg_execute_all(seg, list);
    return 0;
  }
  seg->stats.launches_in_graphs += list->n_kernels;
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

/* Why edges out of a kernel node are programmatic or full (indirect.h). */
static void note_wave(void *ctx, size_t index, const struct pygraph_op *op,
                      unsigned long long blocks, long long resident)
{
  struct pygraph_segment *seg = ((struct note_ctx *)ctx)->seg;
  const char *kernel = op->site && op->site->kernel ? op->site->kernel : "?";
  if (resident < 0)
    pygraph_debug_log(&seg->settings,
                      SEG_FMT ": op %zu (%s): full edges out: occupancy unknown (%llu blocks)",
                      SEG_ARGS(seg), index, kernel, blocks);
  else if (blocks <= (unsigned long long)resident)
    pygraph_debug_log(&seg->settings,
                      SEG_FMT ": op %zu (%s): programmatic edges out to waiting twins: "
                      "%llu blocks fit in one wave (%lld resident)",
                      SEG_ARGS(seg), index, kernel, blocks, resident);
  else
    pygraph_debug_log(&seg->settings,
                      SEG_FMT ": op %zu (%s): full edges out: %llu blocks need %llu waves "
                      "(%lld resident); an early start would hold slots its waves need",
                      SEG_ARGS(seg), index, kernel, blocks,
                      (blocks + (unsigned long long)resident - 1) / (unsigned long long)resident,
                      resident);
}

/* Picks the indirect nodes of `cur` into *ind and, when there are any,
 * sets up their argument block holding this iteration's arguments.
 * Returns cudaSuccess (possibly with no indirect nodes) or the CUDA error of
 * the failed step (*step), with nothing left allocated. */
static cudaError_t prepare_indirect(struct pygraph_segment *seg, const struct pygraph_op_list *cur,
                                    int direct_only, struct pygraph_indirect *ind,
                                    struct pygraph_arg_block *ab, const char **step)
{
  memset(ab, 0, sizeof *ab);
  if (direct_only)
    return cudaSuccess;                       /* the direct rival of an indirect graph */
  if (!seg->settings.indirect) {
    if (cur->n_kernels)
      pygraph_debug_log(&seg->settings, SEG_FMT ": all kernel nodes direct: PYGRAPH_INDIRECT=0",
                        SEG_ARGS(seg));
    return cudaSuccess;
  }
  struct note_ctx ctx = {seg};
  int only_waiting = seg->settings.indirect == PYGRAPH_INDIRECT_AUTO;
  if (pygraph_indirect_select(ind, seg->backend, cur, seg->arg_changed, seg->n_arg_changed,
                              only_waiting, note_node, &ctx)) {
    pygraph_debug_log(&seg->settings, SEG_FMT ": all kernel nodes direct: out of memory",
                      SEG_ARGS(seg));
    return cudaSuccess;
  }
  if (ind->n_nodes == 0)
    return cudaSuccess;
  if (pygraph_indirect_mark_waves(ind, seg->backend, cur, note_wave, &ctx))
    pygraph_debug_log(&seg->settings, SEG_FMT ": no programmatic edges: out of memory",
                      SEG_ARGS(seg));
  cudaError_t err = pygraph_arg_block_create(ab, seg->backend, ind->block_size, step);
  if (err != cudaSuccess) {
    pygraph_indirect_clear(ind);
    return err;
  }
  pygraph_indirect_pack(ind, cur, ab->host);
  pygraph_debug_log(&seg->settings, SEG_FMT ": %zu indirect nodes, %zu-byte device block",
                    SEG_ARGS(seg), ind->n_nodes, ind->block_size);
  return cudaSuccess;
}

/* The current iteration becomes a new variant (evicting the least recently
 * used one when the cache is full: a stale one, see cache_has_room) and is
 * launched.  Returns the variant,
 * or NULL after a fault (the ops then ran exactly once anyway). */
static struct pygraph_variant *capture(struct pygraph_segment *seg, unsigned long long hash,
                                       int direct_only)
{
  struct pygraph_op_list *cur = seg->current;
  double t0 = now_us(seg);
  struct pygraph_variant *v = NULL;
  for (unsigned i = 0; i < seg->settings.variants && !v; i++)
    if (!seg->variants[i].graph)
      v = &seg->variants[i];
  if (!v) {
    /* The one whose signature came longest ago: stale (cache_has_room). */
    for (unsigned i = 0; i < seg->settings.variants; i++)
      if (!v || seg->variants[i].seen_iter < v->seen_iter)
        v = &seg->variants[i];
    pygraph_debug_log(&seg->settings, SEG_FMT ": variant cache full, evicting the stale one",
                      SEG_ARGS(seg));
  }
  struct pygraph_indirect ind = {0};
  struct pygraph_arg_block ab;
  const char *step = NULL;
  cudaError_t err = prepare_indirect(seg, cur, direct_only, &ind, &ab, &step);
  if (err != cudaSuccess) {
    pygraph_indirect_free(&ind);
    graph_fault(seg, step, err);
    pygraph_seg_execute_all(seg, cur);
    return NULL;
  }
  struct pygraph_indirect_graph ind_graph = {.ind = &ind, .args = &ab};
  void *graph = NULL;
  err = seg->backend->graph_build(cur, ind.n_nodes ? &ind_graph : NULL, &graph);
  if (err != cudaSuccess) {
    step = "graph build";
    goto fail;
  }
  /* An evicted variant hands over its graph so it can be updated in place;
   * its argument block goes, so none of its launches may still be queued. */
  if (v->graph && v->args.device_block && !seg->backend->graph_synchronize(v->graph))
    v->args.device_block = NULL;   /* cannot wait (arg_block_free): left allocated */
  err = seg->backend->graph_instantiate(graph, v->graph);
  if (err != cudaSuccess) {
    step = "graph instantiate";
    goto fail;
  }
  if (v->graph) {
    /* The old graph was consumed (its exec may live on, updated in place,
     * but now reads the new block): its block goes too. */
    pygraph_arg_block_free(&v->args, seg->backend, NULL);
    pygraph_indirect_free(&v->indirect);
    seg->n_variants--;
  }
  v->graph = graph;
  v->indirect = ind;
  v->args = ab;
  v->hash = hash;
  v->last_used = ++seg->clock;
  v->decided = !pygraph_seg_measuring_mode(seg) || seg->measure.state < 0;
  v->changed_ops = -1;
  v->id = ++seg->variant_ids;
  v->seen_iter = seg->stats.iters;
  v->direct_only = direct_only;
  v->rival[0] = '\0';
  memset(&v->samples, 0, sizeof v->samples);
  seg->n_variants++;
  seg->active = v;
  seg->stats.captures++;
  seg->stats.rivals += (unsigned long long)direct_only;
  seg->stats.indirect_nodes = ind.n_nodes;
  seg->stats.indirect_bytes = ind.block_size;
  struct pygraph_sig_stats *s = pygraph_seg_sig_get(seg, hash);
  s->capture_us = now_us(seg) - t0;
  if (s->capture_us > 0)                             /* 0: no clock */
    pygraph_capture_cost_note((unsigned long)cur->n_ops, s->capture_us);
  if (v->decided && seg->decision == PYGRAPH_UNDECIDED)
    pygraph_seg_set_decision(seg, PYGRAPH_DECIDED_GRAPH,
                 seg->settings.mode == PYGRAPH_MODE_GRAPH ? "PYGRAPH_MODE=graph"
                                                          : "unmeasured: no timing events");
  pygraph_debug_log(&seg->settings,
                    SEG_FMT ": captured graph #%llu with %zu ops in %.1f us (%u variants)",
                    SEG_ARGS(seg), seg->stats.captures, cur->n_ops, s->capture_us,
                    seg->n_variants);
  if (!launch_variant(seg, v, cur))
    return NULL;
  pygraph_seg_swap_lists(&seg->current, &v->ref);
  seg->hint = v->ref;
  seg->phase = PYGRAPH_PHASE_REPLAY;
  return v;
fail:
  graph_fault(seg, step, err);                       /* drops the old graphs too */
  if (graph)
    seg->backend->graph_destroy(graph);
  if (ab.device_block)
    pygraph_arg_block_free(&ab, seg->backend, NULL);  /* never launched */
  pygraph_indirect_free(&ind);
  pygraph_seg_execute_all(seg, cur);
  return NULL;
}

/* Returns 1 when the variant ran the iteration. */
static int replay(struct pygraph_segment *seg, struct pygraph_variant *v)
{
  struct pygraph_op_list *cur = seg->current, *ref = v->ref;
  const struct pygraph_indirect *ind = &v->indirect;
  int refresh = 0;                            /* an indirect node's arguments moved */
  long changed = 0;                           /* ops with new parameters (measuring only) */
  for (size_t i = 0; i < cur->n_ops; i++) {
    if (ind->n_nodes && ind->node_of_op[i] >= 0) {
      /* Once decided, the first change is enough (one refresh for all). */
      if ((!refresh || !v->decided) &&
          pygraph_op_params_differ(cur, &cur->ops[i], ref, &ref->ops[i])) {
        refresh = 1;
        changed++;
      }
      continue;
    }
    if (!pygraph_op_params_differ(cur, &cur->ops[i], ref, &ref->ops[i]))
      continue;
    changed++;
    cudaError_t err = seg->backend->graph_update_node(v->graph, i, &cur->ops[i]);
    if (err != cudaSuccess) {
      graph_fault(seg, "graph update", err);
      pygraph_seg_execute_all(seg, cur);
      return 0;
    }
    seg->stats.updates++;
    seg->iter_updates++;
  }
  /* All indirect nodes at once: the loaders take the new image as their
   * parameters (copied by the update: the image may be rewritten at once). */
  if (refresh) {
    pygraph_indirect_pack(ind, cur, v->args.host);
    cudaError_t err = seg->backend->graph_set_args(v->graph, &v->args);
    if (err != cudaSuccess) {
      graph_fault(seg, "argument update", err);
      pygraph_seg_execute_all(seg, cur);
      return 0;
    }
    seg->stats.refreshes++;
    seg->iter_updates++;
  }
  if (!launch_variant(seg, v, cur))
    return 0;
  if (!v->decided)
    v->changed_ops = changed;
  seg->stats.replays++;
  v->last_used = ++seg->clock;
  seg->active = v;
  pygraph_seg_swap_lists(&seg->current, &v->ref);
  seg->hint = v->ref;
  return 1;
}

/* ---- the end of an iteration ------------------------------------------ */

void pygraph_segment_end_iteration(struct pygraph_segment *seg)
{
  seg->stats.iters++;
  int solo = pygraph_seg_solo(seg);
  if (seg->too_long && !seg->final) {
    char reason[64];
    snprintf(reason, sizeof reason, "iteration too long (%zu ops)", seg->too_long);
    go_eager(seg, reason);
    for (size_t i = 0; i < sizeof seg->lists / sizeof seg->lists[0]; i++)
      pygraph_op_list_free(&seg->lists[i]);          /* memory stays bounded */
    free(seg->arg_changed);
    seg->arg_changed = NULL;
    seg->n_arg_changed = seg->cap_arg_changed = 0;
    seg->hint = NULL;
    return;
  }
  if (seg->flushed) {
    pygraph_measure_break(&seg->measure);
    return;                                   /* everything already ran */
  }
  if (seg->phase == PYGRAPH_PHASE_EAGER) {
    if (seg->probe_state == 1 || seg->probe_state == 3)
      pygraph_seg_end_probe(seg);
    return;
  }
  struct pygraph_op_list *cur = seg->current;
  if (cur->n_ops == 0)
    return;                                   /* empty iteration: nothing to do */
  int auto_mode = pygraph_seg_measuring_mode(seg);
  pygraph_op_list_materialize(cur);
  unsigned long long hash = pygraph_signature_hash(cur);
  cudaStream_t stream = cur->ops[0].stream;
  struct pygraph_sample_tag tag = {.hash = hash, .kind = PYGRAPH_SAMPLE_NONE};
  int decide_capture = 0, miss = 0;

  struct pygraph_variant *v = find_variant(seg, hash, cur);
  if (v)
    for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)   /* its rival too */
      if (seg->variants[i].graph && seg->variants[i].hash == hash)
        seg->variants[i].seen_iter = seg->stats.iters;
  enum pygraph_turn turn = v ? pygraph_seg_measuring_turn(seg, &v, hash) : TURN_GRAPH;
  int same = !v && seg->has_reference && pygraph_same_signature(cur, seg->reference);
  /* The candidate came in the iteration before this one too (else, if it
   * came before, it recurs apart: a cycle). */
  int back_to_back = same && seg->stats.iters - seg->candidate_seen <= 1;
  /* Only a timed iteration reads the host clock (in a VM a clock read can
   * cost a syscall) or records an event: not a decided segment, nor one
   * waiting for the samples it planned.  Its host time starts here: the
   * recording and hashing before are the same whatever runs. */
  int timing = auto_mode && turn != TURN_WAIT && pygraph_seg_wants_timing(seg, hash, v);
  /* A shadowed iteration's span began at its first op, or it has none. */
  if (seg->shadowed && !seg->shadow_timed)
    timing = 0;
  double t0 = timing ? now_us(seg) : 0.0;
  if (timing && seg->shadowed) {
    /* the span goes on: its end is recorded below */
  } else if (timing) {
    /* What the iteration will be sampled as (NONE: a capture). */
    struct pygraph_sample_tag planned = {.hash = hash, .kind = PYGRAPH_SAMPLE_EAGER};
    if (v && turn == TURN_GRAPH && !v->decided) {
      planned.kind = PYGRAPH_SAMPLE_GRAPH;
      planned.variant = v->id;
    } else if ((v && turn != TURN_EAGER) || (!v && seg->capture_next && same)) {
      planned.kind = PYGRAPH_SAMPLE_NONE;
    }
    if (solo && seg->begin_clocked && seg->begin_us - seg->timed_end_us > t0 - seg->begin_us)
      solo = 0;                               /* the host works outside: a span */
    pygraph_seg_start_timing(seg, stream, solo, &planned);
  } else {
    pygraph_measure_break(&seg->measure);
  }
  if (v) {
    seg->distinct_streak = 0;
    switch (turn) {
    case TURN_EAGER:
      /* The graphs' nodes keep what their ref lists hold. */
      v->last_used = ++seg->clock;            /* being measured: not the LRU victim */
      pygraph_seg_execute_all(seg, cur);
      seg->stats.eager_iters++;
      tag.kind = PYGRAPH_SAMPLE_EAGER;
      break;
    case TURN_RIVAL:
      if (!capture(seg, hash, 1))             /* its span is not counted */
        return;                               /* fault: eager for good, ops ran once */
      break;
    case TURN_GRAPH:
    case TURN_WAIT:
      if (!replay(seg, v))
        return;                               /* fault: eager for good, ops ran once */
      if (!v->decided && turn == TURN_GRAPH) {
        tag.kind = PYGRAPH_SAMPLE_GRAPH;
        tag.variant = v->id;
      }
      break;
    }
  } else {
    miss = 1;
    /* A mismatch: graphs exist, none fits, and this iteration runs eagerly
     * (a capture is not counted). */
    int had_variants = seg->n_variants != 0;
    if (never_repeats(seg, hash)) {
      seg->stats.mismatches += (unsigned long long)had_variants;
      pygraph_seg_execute_all(seg, cur);
      go_eager(seg, "signature never repeats");
      return;
    }
    /* Nothing captured after PYGRAPH_SETTLE_ITERS iterations (signatures
     * that recur but whose graphs could never pay, say): stop paying for
     * recording. */
    if (!had_variants && seg->stats.captures == 0 &&
        seg->stats.iters >= PYGRAPH_SETTLE_ITERS) {
      pygraph_seg_execute_all(seg, cur);
      go_eager(seg, "launch sequence never settles");
      return;
    }
    struct pygraph_sig_stats *s = auto_mode ? pygraph_seg_sig_get(seg, hash) : NULL;
    int rejected = s && s->rejected;
    if (same && s)
      s->changed_ops = pygraph_seg_count_changed(cur, seg->reference);
    /* Another signature between two sightings of a recurring candidate:
     * the candidate keeps its place unless it stopped coming. */
    int keep_candidate = !same && seg->pinned && seg->has_reference &&
                         seg->stats.iters - seg->candidate_seen <= PYGRAPH_PIN_PATIENCE;
    if (rejected || keep_candidate) {
      seg->stats.mismatches += (unsigned long long)had_variants;
      pygraph_seg_execute_all(seg, cur);      /* known not to pay, or waits its turn */
      seg->stats.eager_iters++;
      tag.kind = rejected ? PYGRAPH_SAMPLE_NONE : PYGRAPH_SAMPLE_EAGER;
    } else {
      /* A signature that recurs, though not back to back (a cycle of
       * launch sequences), becomes the candidate on its second sighting
       * among the last PYGRAPH_NEVER_REPEATS misses, and keeps that place
       * while others come in between. */
      /* (never_repeats() noted this miss: at least 1 sighting.) */
      unsigned sightings = same ? seg->stable_iterations + 1 : recent_sightings(seg, hash);
      if (!same)
        seg->pinned = sightings >= 2;
      seg->stable_iterations = sightings;
      if (seg->settings.indirect)
        note_arg_changes(seg, cur, same);
      if (seg->capture_next && same && cache_has_room(seg)) {
        seg->capture_next = 0;
        seg->has_reference = 0;
        seg->pinned = 0;
        seg->stable_iterations = 0;
        v = capture(seg, hash, 0);            /* its span is not counted */
        if (!v)
          return;                             /* fault: eager for good, ops ran once */
      } else {
        seg->stats.mismatches += (unsigned long long)had_variants;
        seg->capture_next = 0;
        pygraph_seg_execute_all(seg, cur);
        seg->stats.eager_iters++;
        tag.kind = PYGRAPH_SAMPLE_EAGER;
        pygraph_seg_swap_lists(&seg->current, &seg->reference);
        seg->hint = seg->reference;
        seg->has_reference = 1;
        seg->candidate_seen = seg->stats.iters;
        decide_capture = 1;
      }
    }
    if (rejected && !keep_candidate) {
      /* keep the pool a permutation */
      pygraph_seg_swap_lists(&seg->current, &seg->reference);
      seg->hint = seg->reference;
      seg->has_reference = 0;
      seg->stable_iterations = 0;
    }
  }

  if (auto_mode) {
    if (timing) {
      seg->stats.timed++;
      seg->timed_end_us = now_us(seg);
      tag.host_us = (float)(seg->timed_end_us - t0);
      pygraph_measure_record(&seg->measure, seg->backend, stream, &tag);
      seg->timed_iter = seg->stats.iters;
      seg->timed_hash = hash;
      seg->timed_kind = tag.kind;
      seg->timed_variant = tag.variant;
    }
    /* An event not done yet is tried again PYGRAPH_POLL_BACKOFF iterations
     * later: a GPU far behind costs no query per iteration. */
    if (seg->measure.count) {
      if (seg->poll_backoff)
        seg->poll_backoff--;
      else if (!pygraph_measure_poll(&seg->measure, seg->backend, pygraph_seg_add_sample, seg) &&
               seg->measure.count > 1)
        seg->poll_backoff = PYGRAPH_POLL_BACKOFF;
    }
    pygraph_seg_decide_variants(seg);
    if (seg->phase == PYGRAPH_PHASE_EAGER)
      return;
    /* Nothing timed for a while: the events go (measuring may resume
     * later, e.g. after a change of behaviour, and creates them again). */
    if (!timing && seg->stats.iters - seg->timed_iter > PYGRAPH_BEHAVIOUR_BLOCK &&
        pygraph_measure_release(&seg->measure, seg->backend))
      pygraph_debug_log(&seg->settings, SEG_FMT ": timing events released", SEG_ARGS(seg));
  }
  if (decide_capture) {
    struct pygraph_sig_stats *s = auto_mode ? pygraph_seg_sig_find(seg, hash) : NULL;
    struct pygraph_decide_input in = {
        .stable_iterations = seg->stable_iterations,
        /* Rivals do not use up PYGRAPH_MAX_CAPTURES: that bounds signatures. */
        .captures = (unsigned)(seg->stats.captures - seg->stats.rivals),
        .n_ops = (unsigned long)seg->reference->n_ops,
        .timing = auto_mode && pygraph_measure_possible(&seg->measure, seg->backend),
        .eager_samples = s ? pygraph_seg_eager_planned(seg, hash) : 0,
        .backlog = pygraph_seg_far_behind(seg) ? seg->measure.count : 0,
        .eager_us = s && s->eager.n ? pygraph_seg_cost_us(&s->eager) : 0.0,
        .capture_us = pygraph_capture_cost_us((unsigned long)seg->reference->n_ops),
        .trip_count = seg->region->trip_count,
        .iters_observed = seg->stats.iters,
    };
    unsigned recent = back_to_back ? 0 : recent_sightings(seg, hash);
    if (recent >= 2) {                        /* recurs apart: a cycle */
      in.recent_sightings = recent;
      in.recent_window = seg->n_recent;
    }
    const char *reason = NULL;
    switch (pygraph_decide(&seg->settings, &in, &reason)) {
    case PYGRAPH_KEEP_WARMING:
      if (reason)
        seg->pinned = 0;                      /* put off, not just warming: others may
                                                 take the place */
      if (s)
        s->put_off = reason != NULL;
      break;
    case PYGRAPH_CAPTURE_NEXT:
      if (!cache_has_room(seg)) {
        seg->pinned = 0;                      /* others may take the place */
        pygraph_debug_log(&seg->settings, SEG_FMT ": variant cache full, %u in use: eager",
                          SEG_ARGS(seg), seg->n_variants);
        break;
      }
      seg->capture_next = 1;
      if (!seg->n_variants)
        seg->phase = PYGRAPH_PHASE_CAPTURE;
      pygraph_debug_log(&seg->settings, SEG_FMT ": stable after %u iterations, capturing next",
                        SEG_ARGS(seg), seg->stable_iterations);
      break;
    case PYGRAPH_GO_EAGER:
      go_eager(seg, reason);
      return;
    case PYGRAPH_STAY_EAGER:
      pygraph_seg_go_eager_decided(seg, reason);
      return;
    }
  }
  pygraph_seg_note_behaviour(seg, miss);
}

/* The iteration stops recording: what it recorded runs now, in order, and
 * its end has nothing more to do. */
static void run_recorded_now(struct pygraph_segment *seg)
{
  pygraph_op_list_materialize(seg->current);
  pygraph_seg_execute_all(seg, seg->current);
  seg->flushed = 1;
}

void pygraph_segment_flush(struct pygraph_segment *seg, const char *reason)
{
  run_recorded_now(seg);
  seg->stats.flushes++;
  seg->last_flush_reason = reason;
  /* A flushed iteration says nothing about stability: the candidate starts
   * over.  Variants (and the lists they mirror) stay as they were. */
  seg->stable_iterations = 0;
  seg->has_reference = 0;
  seg->pinned = 0;
  seg->capture_next = 0;
  if (seg->phase == PYGRAPH_PHASE_CAPTURE)
    seg->phase = PYGRAPH_PHASE_WARMUP;
  if (seg->probe_state)
    seg->probe_state = 0;
  pygraph_debug_log(&seg->settings, SEG_FMT ": flushed after %zu deferred ops: %s",
                    SEG_ARGS(seg), seg->current->n_ops, reason);
}

void pygraph_segment_yield_to_program_capture(struct pygraph_segment *seg)
{
  /* Every op recorded so far is on a stream found not captured in this
   * iteration (capture_check.h): they run there, before the program's
   * captured work, as they would have without pygraph. */
  run_recorded_now(seg);
  seg->stats.program_captured++;
  seg->probe_state = 0;                       /* a probe needs recorded iterations */
  pygraph_debug_log(&seg->settings, SEG_FMT ": %s: %zu recorded ops run, the rest passes through",
                    SEG_ARGS(seg), PYGRAPH_PROGRAM_CAPTURE_REASON, seg->current->n_ops);
}

int pygraph_segment_over_cap(struct pygraph_segment *seg)
{
  if (seg->current->n_ops < seg->settings.max_ops)
    return 0;
  seg->too_long = seg->current->n_ops + 1;
  return 1;
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

const char *pygraph_segment_decision_name(const struct pygraph_segment *seg)
{
  switch (seg->decision) {
  case PYGRAPH_DECIDED_GRAPH:
    return seg->n_variants ? "graph" : "eager";
  case PYGRAPH_DECIDED_EAGER:
    return "eager";
  default:
    return seg->n_variants ? "graph" : "eager";
  }
}

unsigned pygraph_segment_variants(const struct pygraph_segment *seg)
{
  return seg->n_variants;
}
