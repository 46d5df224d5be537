/* segment.c - the state machine of a region segment, the only writer of
 * its phase: what each iteration's end does (hit, miss or capture), the
 * capture candidate and warm-up, faults and the one way into eager.  The
 * graphs are built and replayed by the variant cache (variant_cache.c);
 * what auto mode measures and decides is in selection.c. */
#include "segment/segment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selection/capture_cost.h"
#include "common/debug_log.h"
#include "recording/signature.h"

static void clamp_settings(struct pygraph_settings *settings)
{
  if (settings->variants == 0 || settings->variants > PYGRAPH_MAX_VARIANTS)
    settings->variants = settings->variants ? PYGRAPH_MAX_VARIANTS : 1;
  if (settings->measure_iters < 2)
    settings->measure_iters = 2;
  if (settings->measure_iters > PYGRAPH_MAX_MEASURE_ITERS)
    settings->measure_iters = PYGRAPH_MAX_MEASURE_ITERS;
}

void pygraph_segment_init(struct pygraph_segment *seg, const struct pygraph_backend *backend,
                          const struct pygraph_settings *settings,
                          const pygraph_region *region, unsigned index)
{
  memset(seg, 0, sizeof *seg);
  seg->backend = backend;
  seg->settings = *settings;
  clamp_settings(&seg->settings);
  seg->region = region;
  seg->index = index;
  atomic_flag_clear(&seg->busy);
  seg->current = &seg->lists[0];
  seg->candidate = &seg->lists[1];
  pygraph_variant_cache_init(&seg->cache, backend, &seg->settings, region, index,
                             &seg->lists[2]);
  pygraph_auto_init(&seg->auto_mode, backend, &seg->settings, region, index, &seg->cache,
                    &seg->stats.iters);
  pygraph_batch_init(&seg->batch, region->kind == PYGRAPH_REGION_BATCH ? region->batch_max : 0,
                     seg->settings.batch);
  if (settings->mode == PYGRAPH_MODE_EAGER) {
    seg->phase = PYGRAPH_PHASE_EAGER;
    seg->final = 1;
    pygraph_auto_set_decision(&seg->auto_mode, PYGRAPH_DECIDED_EAGER, "PYGRAPH_MODE=eager");
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

static int auto_mode_on(const struct pygraph_segment *seg)
{
  return pygraph_auto_enabled(&seg->settings);
}

static double now_us(const struct pygraph_segment *seg)
{
  return seg->backend->now_us ? seg->backend->now_us() : 0.0;
}

static void swap_lists(struct pygraph_op_list **a, struct pygraph_op_list **b)
{
  struct pygraph_op_list *t = *a;
  *a = *b;
  *b = t;
}

/* The iteration just run becomes the capture candidate (the pool stays a
 * permutation); the recording hints follow it. */
static void keep_as_candidate(struct pygraph_segment *seg)
{
  swap_lists(&seg->current, &seg->candidate);
  seg->hint = seg->candidate;
}

/* Does this iteration record at all?  (Decided eager: only 2 consecutive
 * iterations out of every PYGRAPH_PROBE_INTERVAL, the probes.) */
static int records_iteration(struct pygraph_segment *seg)
{
  if (seg->phase != PYGRAPH_PHASE_EAGER)
    return 1;
  if (seg->final)
    return 0;
  if (seg->probe == PYGRAPH_PROBE_SECOND_NEXT) {
    seg->probe = PYGRAPH_PROBE_SECOND;
    return 1;
  }
  if (++seg->probe_countdown >= PYGRAPH_PROBE_INTERVAL) {
    seg->probe_countdown = 0;
    seg->probe = PYGRAPH_PROBE_FIRST;
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
  pygraph_batch_unit_begin(&seg->batch);
  int records = records_iteration(seg);
  seg->begin_clocked = records && auto_mode_on(seg) &&
                       seg->auto_mode.decision == PYGRAPH_UNDECIDED && seg->stats.iters > 0 &&
                       seg->auto_mode.timed_iter == seg->stats.iters;   /* the previous one was timed */
  if (seg->begin_clocked)
    seg->begin_us = now_us(seg);
  /* With no graph to replay and no capture planned, deferring would only
   * hold the GPU back while the host records (convolution1D: 5% slower
   * than plain while auto warmed up): the ops run as they come. */
  seg->shadowed = records && seg->cache.n_variants == 0 && !seg->capture_next;
  return records;
}

void pygraph_segment_start_loop_run(struct pygraph_segment *seg, long long trips)
{
  pygraph_batch_start_run(&seg->batch, trips, seg->region->trip_count);
}

int pygraph_segment_loop_iteration_end(struct pygraph_segment *seg)
{
  if (seg->flushed || seg->too_long)
    return 1;                                 /* the rest passes through: end the unit */
  return pygraph_batch_iteration_end(&seg->batch, seg->current->n_ops, seg->settings.max_ops);
}

void pygraph_segment_run_shadowed(struct pygraph_segment *seg, const struct pygraph_op *op,
                                  void **args)
{
  struct pygraph_measure *measure = &seg->auto_mode.measure;
  if (seg->current->n_ops == 1 && auto_mode_on(seg) &&
      seg->phase != PYGRAPH_PHASE_EAGER &&        /* probes time nothing */
      pygraph_measure_possible(measure, seg->backend)) {
    struct pygraph_sample_tag start = {.kind = PYGRAPH_SAMPLE_NONE};
    pygraph_measure_break(measure);
    pygraph_measure_record(measure, seg->backend, op->stream, &start);
    seg->shadow_timed = 1;
  }
  struct pygraph_op now = *op;
  if (now.kind == PYGRAPH_OP_KERNEL)
    now.arg_ptrs = args;
  (void)seg->backend->execute(&now);   /* errors stay CUDA's, as in execute_all */
}

/* Errors are deliberately ignored: they stay CUDA's (sticky) last error,
 * exactly as if the user had made these calls. */
static void execute_all(struct pygraph_segment *seg, const struct pygraph_op_list *list)
{
  if (seg->shadowed && list == seg->current)
    return;                                   /* they ran as they came */
  for (size_t i = 0; i < list->n_ops; i++)
    (void)seg->backend->execute(&list->ops[i]);
}

/* ---- eager: the one way in -------------------------------------------- */

enum eager_kind {
  EAGER_FOR_GOOD,      /* a fault or a launch sequence that cannot be graphed: no probes */
  EAGER_BY_DECISION    /* no graph pays: pass through, probed now and then */
};

/* Drops every graph and passes through from the next iteration. */
static void go_eager(struct pygraph_segment *seg, enum eager_kind kind, const char *why)
{
  if (kind == EAGER_FOR_GOOD)
    snprintf(seg->fallback, sizeof seg->fallback, "%s", why);
  pygraph_variant_cache_drop_all(&seg->cache);
  if (kind == EAGER_FOR_GOOD)
    pygraph_auto_stop(&seg->auto_mode);
  seg->phase = PYGRAPH_PHASE_EAGER;
  if (kind == EAGER_FOR_GOOD) {
    seg->final = 1;
  } else {
    seg->final = seg->auto_mode.reevaluations >= PYGRAPH_MAX_FLIPS;
    seg->probe_countdown = 0;
    seg->probe = PYGRAPH_PROBE_OFF;
    seg->has_candidate = 0;
    seg->capture_next = 0;
    pygraph_measure_break(&seg->auto_mode.measure);
  }
  pygraph_auto_set_decision(&seg->auto_mode, PYGRAPH_DECIDED_EAGER, why);
  pygraph_debug_log(&seg->settings, SEG_FMT ": %s: %s", SEG_ARGS(seg),
                    kind == EAGER_FOR_GOOD ? "eager for good" : "eager by decision", why);
}

/* A graph call failed: the segment stops using graphs.  The caller still
 * owes the iteration's ops one eager execution unless the graph ran. */
static void graph_fault(struct pygraph_segment *seg, const char *step, cudaError_t err)
{
  char reason[sizeof seg->fallback];
  seg->backend->clear_error();
  snprintf(reason, sizeof reason, "%s failed: %s", step, seg->backend->error_name(err));
  go_eager(seg, EAGER_FOR_GOOD, reason);
}

/* An iteration over PYGRAPH_MAX_OPS: eager for good, memory stays bounded. */
static void end_too_long(struct pygraph_segment *seg)
{
  char reason[64];
  snprintf(reason, sizeof reason, "iteration too long (%zu ops)", seg->too_long);
  go_eager(seg, EAGER_FOR_GOOD, reason);
  for (size_t i = 0; i < sizeof seg->lists / sizeof seg->lists[0]; i++)
    pygraph_op_list_free(&seg->lists[i]);
  free(seg->arg_changed);
  seg->arg_changed = NULL;
  seg->n_arg_changed = seg->cap_arg_changed = 0;
  seg->hint = NULL;
}

/* Units of K loop iterations did not work out (over the op cap, or their
 * launch sequence never settles): graphs of one iteration each from now on,
 * warmed up afresh.  The unit that found out has run (flushed or eagerly). */
static void stop_batching(struct pygraph_segment *seg, const char *why)
{
  pygraph_batch_give_up(&seg->batch);
  pygraph_variant_cache_drop_all(&seg->cache);
  seg->phase = PYGRAPH_PHASE_WARMUP;
  seg->stable_iterations = 0;
  seg->has_candidate = 0;
  seg->pinned = 0;
  seg->capture_next = 0;
  seg->n_recent = seg->distinct_streak = 0;
  seg->n_arg_changed = 0;
  pygraph_measure_break(&seg->auto_mode.measure);
  pygraph_debug_log(&seg->settings, SEG_FMT ": one iteration per graph from now on: %s",
                    SEG_ARGS(seg), why);
}

/* ---- warm-up / misses ---------------------------------------------- */

/* Keeps seg->arg_changed up to date with `cur`: a new signature starts
 * over, the same one ORs in which kernels' arguments moved since the
 * candidate.  Out of memory only loses information (all stay direct). */
static void note_arg_changes(struct pygraph_segment *seg, const struct pygraph_op_list *cur,
                             int same_signature)
{
  const struct pygraph_op_list *ref = seg->candidate;
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

/* ---- graphs --------------------------------------------------------- */

/* Returns 1 when the graph ran the iteration's work. */
static int launch_variant(struct pygraph_segment *seg, struct pygraph_variant *v,
                          const struct pygraph_op_list *list)
{
  int ran = 0;
  cudaError_t err = pygraph_variant_cache_launch(&seg->cache, v, &ran);
  if (err != cudaSuccess) {
    graph_fault(seg, "graph launch", err);
    if (!ran)
      execute_all(seg, list);
    return 0;
  }
  seg->stats.launches_in_graphs += list->n_kernels;
  seg->stats.graph_iters += pygraph_batch_unit_iterations(&seg->batch);
  return 1;
}

static void count_capture(struct pygraph_segment *seg, const struct pygraph_variant *v)
{
  seg->stats.captures++;
  seg->stats.rivals += (unsigned long long)v->direct_only;
  seg->stats.indirect_nodes = v->indirect.n_nodes;
  seg->stats.indirect_bytes = v->indirect.block_size;
}

/* The current iteration becomes a new variant and is launched.  Returns
 * the variant, or NULL after a fault (the ops then ran exactly once
 * anyway). */
static struct pygraph_variant *capture(struct pygraph_segment *seg, unsigned long long hash,
                                       int direct_only)
{
  struct pygraph_op_list *cur = seg->current;
  double t0 = now_us(seg);
  struct pygraph_capture_request request = {
      .hash = hash, .direct_only = direct_only, .arg_changed = seg->arg_changed,
      .n_arg_changed = seg->n_arg_changed, .iter = seg->stats.iters,
      .decided = !auto_mode_on(seg) || seg->auto_mode.measure.state < 0};
  struct pygraph_variant *v = NULL;
  const char *step = NULL;
  cudaError_t err = pygraph_variant_cache_capture(&seg->cache, cur, &request, &v, &step);
  if (err != cudaSuccess) {
    graph_fault(seg, step, err);              /* drops the old graphs too */
    pygraph_variant_cache_discard_failed(&seg->cache);
    execute_all(seg, cur);
    return NULL;
  }
  count_capture(seg, v);
  double us = now_us(seg) - t0;
  pygraph_auto_note_capture(&seg->auto_mode, hash, (unsigned long)cur->n_ops, us, v->decided);
  pygraph_debug_log(&seg->settings,
                    SEG_FMT ": captured graph #%llu with %zu ops in %.1f us (%u variants)",
                    SEG_ARGS(seg), seg->stats.captures, cur->n_ops, us, seg->cache.n_variants);
  if (!launch_variant(seg, v, cur))
    return NULL;
  pygraph_variant_cache_adopt(&seg->cache, v, &seg->current);
  seg->hint = v->ref;
  seg->phase = PYGRAPH_PHASE_REPLAY;
  return v;
}

/* Returns 1 when the variant ran the iteration. */
static int replay(struct pygraph_segment *seg, struct pygraph_variant *v)
{
  struct pygraph_op_list *cur = seg->current;
  struct pygraph_update_counts counts;
  const char *step = NULL;
  cudaError_t err = pygraph_variant_cache_update(&seg->cache, v, cur, &counts, &step);
  seg->stats.updates += counts.node_updates;
  seg->stats.refreshes += counts.refreshes;
  seg->iter_updates += counts.node_updates + counts.refreshes;
  if (err != cudaSuccess) {
    graph_fault(seg, step, err);
    execute_all(seg, cur);
    return 0;
  }
  if (!launch_variant(seg, v, cur))
    return 0;
  if (!v->decided)
    pygraph_auto_note_changed_ops(v, counts.changed_ops);
  seg->stats.replays++;
  pygraph_variant_cache_touch(&seg->cache, v);
  pygraph_variant_cache_adopt(&seg->cache, v, &seg->current);
  seg->hint = v->ref;
  return 1;
}

/* ---- the end of an iteration ------------------------------------------ */

/* One recorded iteration at its end: what it is, what runs it, how it is
 * timed, and what it leaves to decide. */
struct iteration {
  struct pygraph_op_list *cur;
  unsigned long long hash;
  cudaStream_t stream;
  struct pygraph_variant *v;                  /* its graph (a hit), or NULL */
  enum pygraph_turn turn;
  int same;                                   /* a miss like the candidate */
  int back_to_back;                           /* ... which came the iteration before too */
  int auto_mode, timing, miss, decide_capture;
  double t0;                                  /* host clock at the timing's start */
  struct pygraph_sample_tag tag;              /* what it is sampled as */
};

/* What the iteration will be sampled as (NONE: a capture). */
static struct pygraph_sample_tag planned_sample(const struct pygraph_segment *seg,
                                                const struct iteration *it)
{
  struct pygraph_sample_tag planned = {.hash = it->hash, .kind = PYGRAPH_SAMPLE_EAGER};
  if (it->v && it->turn == TURN_GRAPH && !it->v->decided) {
    planned.kind = PYGRAPH_SAMPLE_GRAPH;
    planned.variant = it->v->id;
  } else if ((it->v && it->turn != TURN_EAGER) || (!it->v && seg->capture_next && it->same)) {
    planned.kind = PYGRAPH_SAMPLE_NONE;
  }
  return planned;
}

/* Only a timed iteration reads the host clock (in a VM a clock read can
 * cost a syscall) or records an event: not a decided segment, nor one
 * waiting for the samples it planned.  Its host time starts here: the
 * recording and hashing before are the same whatever runs. */
static void start_timing(struct pygraph_segment *seg, struct iteration *it, int solo)
{
  it->timing = it->auto_mode && it->turn != TURN_WAIT &&
               pygraph_auto_wants_timing(&seg->auto_mode, it->hash, it->v);
  /* A shadowed iteration's span began at its first op, or it has none. */
  if (seg->shadowed && !seg->shadow_timed)
    it->timing = 0;
  it->t0 = it->timing ? now_us(seg) : 0.0;
  if (!it->timing) {
    pygraph_measure_break(&seg->auto_mode.measure);
    return;
  }
  if (seg->shadowed)
    return;                                   /* the span goes on: its end comes later */
  struct pygraph_sample_tag planned = planned_sample(seg, it);
  if (solo && seg->begin_clocked && seg->begin_us - seg->timed_end_us > it->t0 - seg->begin_us)
    solo = 0;                                 /* the host works outside: a span */
  pygraph_auto_start_timing(&seg->auto_mode, it->stream, solo, &planned);
}

/* Hash, graph, turn and candidate of the iteration about to end. */
static void classify(struct pygraph_segment *seg, struct iteration *it)
{
  struct pygraph_op_list *cur = seg->current;
  pygraph_op_list_materialize(cur);
  *it = (struct iteration){.cur = cur, .auto_mode = auto_mode_on(seg)};
  it->hash = pygraph_signature_hash(cur);
  it->stream = cur->ops[0].stream;
  it->tag = (struct pygraph_sample_tag){.hash = it->hash, .kind = PYGRAPH_SAMPLE_NONE};
  it->v = pygraph_variant_cache_find(&seg->cache, it->hash, cur);
  if (it->v)
    pygraph_variant_cache_saw(&seg->cache, it->hash, seg->stats.iters);   /* its rival too */
  it->turn = it->v ? pygraph_auto_measuring_turn(&seg->auto_mode, &it->v, it->auto_mode, it->hash)
                   : TURN_GRAPH;
  it->same = !it->v && seg->has_candidate && pygraph_same_signature(cur, seg->candidate);
  /* The candidate came in the iteration before this one too (else, if it
   * came before, it recurs apart: a cycle). */
  it->back_to_back = it->same && seg->stats.iters - seg->candidate_seen <= 1;
}

/* Returns 0 after a fault (eager for good, the ops ran once). */
static int run_hit(struct pygraph_segment *seg, struct iteration *it)
{
  struct pygraph_variant *v = it->v;
  seg->distinct_streak = 0;
  switch (it->turn) {
  case TURN_EAGER:
    /* The graphs' nodes keep what their ref lists hold. */
    pygraph_variant_cache_touch(&seg->cache, v);   /* being measured: not the LRU victim */
    execute_all(seg, it->cur);
    seg->stats.eager_iters++;
    it->tag.kind = PYGRAPH_SAMPLE_EAGER;
    return 1;
  case TURN_RIVAL:
    return capture(seg, it->hash, 1) != NULL;      /* its span is not counted */
  case TURN_GRAPH:
  case TURN_WAIT:
    if (!replay(seg, v))
      return 0;
    if (!v->decided && it->turn == TURN_GRAPH) {
      it->tag.kind = PYGRAPH_SAMPLE_GRAPH;
      it->tag.variant = v->id;
    }
    return 1;
  }
  return 1;
}

/* A miss that runs eagerly (a mismatch when graphs exist). */
static void run_miss_eagerly(struct pygraph_segment *seg, struct iteration *it, int had_variants,
                             enum pygraph_sample_kind sample)
{
  seg->stats.mismatches += (unsigned long long)had_variants;
  execute_all(seg, it->cur);
  seg->stats.eager_iters++;
  it->tag.kind = sample;
}

/* A miss that may become (or be) the capture candidate.  A signature that
 * recurs, though not back to back (a cycle of launch sequences), becomes
 * the candidate on its second sighting among the last PYGRAPH_NEVER_REPEATS
 * misses, and keeps that place while others come in between.  Returns 0
 * after a fault. */
static int miss_as_candidate(struct pygraph_segment *seg, struct iteration *it, int had_variants)
{
  /* (never_repeats() noted this miss: at least 1 sighting.) */
  unsigned sightings = it->same ? seg->stable_iterations + 1 : recent_sightings(seg, it->hash);
  if (!it->same)
    seg->pinned = sightings >= 2;
  seg->stable_iterations = sightings;
  if (seg->settings.indirect)
    note_arg_changes(seg, it->cur, it->same);
  if (seg->capture_next && it->same &&
      pygraph_variant_cache_has_room(&seg->cache, seg->stats.iters)) {
    seg->capture_next = 0;
    seg->has_candidate = 0;
    seg->pinned = 0;
    seg->stable_iterations = 0;
    it->v = capture(seg, it->hash, 0);        /* its span is not counted */
    return it->v != NULL;
  }
  seg->capture_next = 0;
  run_miss_eagerly(seg, it, had_variants, PYGRAPH_SAMPLE_EAGER);
  keep_as_candidate(seg);
  seg->has_candidate = 1;
  seg->candidate_seen = seg->stats.iters;
  it->decide_capture = 1;
  return 1;
}

/* Returns 0 when the segment went eager (for good): nothing more to do. */
static int run_miss(struct pygraph_segment *seg, struct iteration *it)
{
  it->miss = 1;
  /* A mismatch: graphs exist, none fits, and this iteration runs eagerly
   * (a capture is not counted). */
  int had_variants = seg->cache.n_variants != 0;
  const char *hopeless = NULL;
  if (never_repeats(seg, it->hash))
    hopeless = "signature never repeats";
  /* Nothing captured after PYGRAPH_SETTLE_ITERS iterations (signatures
   * that recur but whose graphs could never pay, say): stop paying for
   * recording. */
  else if (!had_variants && seg->stats.captures == 0 && seg->stats.iters >= PYGRAPH_SETTLE_ITERS)
    hopeless = "launch sequence never settles";
  if (hopeless) {
    seg->stats.mismatches += (unsigned long long)had_variants;   /* (0 when never settled) */
    execute_all(seg, it->cur);
    if (pygraph_batch_on(&seg->batch))
      stop_batching(seg, hopeless);
    else
      go_eager(seg, EAGER_FOR_GOOD, hopeless);
    return 0;
  }
  struct pygraph_sig_stats *s = it->auto_mode ? pygraph_auto_sig_get(&seg->auto_mode, it->hash)
                                              : NULL;
  int rejected = s && s->rejected;
  if (it->same && s)
    pygraph_auto_note_miss_changes(s, pygraph_count_changed_params(it->cur, seg->candidate));
  /* Another signature between two sightings of a recurring candidate:
   * the candidate keeps its place unless it stopped coming. */
  int keep_candidate = !it->same && seg->pinned && seg->has_candidate &&
                       seg->stats.iters - seg->candidate_seen <= PYGRAPH_PIN_PATIENCE;
  if (rejected || keep_candidate)             /* known not to pay, or waits its turn */
    run_miss_eagerly(seg, it, had_variants,
                     rejected ? PYGRAPH_SAMPLE_NONE : PYGRAPH_SAMPLE_EAGER);
  else if (!miss_as_candidate(seg, it, had_variants))
    return 0;                                 /* fault: eager for good, ops ran once */
  if (rejected && !keep_candidate) {
    keep_as_candidate(seg);                   /* keeps the pool a permutation */
    seg->has_candidate = 0;
    seg->stable_iterations = 0;
  }
  return 1;
}

/* Auto mode's part of the end: the timing's end, samples read, verdicts.
 * Returns 0 when a verdict left the segment eager. */
static int end_measuring(struct pygraph_segment *seg, struct iteration *it)
{
  struct pygraph_auto_mode *am = &seg->auto_mode;
  if (it->timing) {
    seg->stats.timed++;
    seg->timed_end_us = now_us(seg);
    it->tag.host_us = (float)(seg->timed_end_us - it->t0);
    pygraph_auto_end_timing(am, it->stream, &it->tag);
  }
  pygraph_auto_poll(am);
  const char *eager_why = pygraph_auto_decide_variants(am);
  if (eager_why) {
    go_eager(seg, EAGER_BY_DECISION, eager_why);
    return 0;
  }
  pygraph_auto_release_idle(am, it->timing);
  return 1;
}

/* What decides whether the candidate is captured next. */
static struct pygraph_decide_input capture_question(struct pygraph_segment *seg,
                                                    const struct iteration *it,
                                                    struct pygraph_sig_stats *s)
{
  struct pygraph_auto_mode *am = &seg->auto_mode;
  struct pygraph_decide_input in = {
      .stable_iterations = seg->stable_iterations,
      /* Rivals do not use up PYGRAPH_MAX_CAPTURES: that bounds signatures. */
      .captures = (unsigned)(seg->stats.captures - seg->stats.rivals),
      .n_ops = (unsigned long)seg->candidate->n_ops,
      .timing = it->auto_mode && pygraph_measure_possible(&am->measure, seg->backend),
      .eager_samples = s ? pygraph_auto_eager_planned(am, it->hash) : 0,
      .backlog = pygraph_auto_far_behind(am) ? am->measure.count : 0,
      .eager_us = s && s->eager.n ? pygraph_auto_cost_us(&s->eager) : 0.0,
      .capture_us = pygraph_capture_cost_us((unsigned long)seg->candidate->n_ops),
      .trip_count = pygraph_batch_unit_trips(&seg->batch, seg->region->trip_count),
      .host_period_us = seg->host_period_us,
      .iters_observed = seg->stats.iters,
  };
  unsigned recent = it->back_to_back ? 0 : recent_sightings(seg, it->hash);
  if (recent >= 2) {                          /* recurs apart: a cycle */
    in.recent_sightings = recent;
    in.recent_window = seg->n_recent;
  }
  return in;
}

/* The candidate's capture is planned for its next sighting, if a slot
 * can take it. */
static void plan_capture(struct pygraph_segment *seg)
{
  if (!pygraph_variant_cache_has_room(&seg->cache, seg->stats.iters)) {
    seg->pinned = 0;                          /* others may take the place */
    pygraph_debug_log(&seg->settings, SEG_FMT ": variant cache full, %u in use: eager",
                      SEG_ARGS(seg), seg->cache.n_variants);
    return;
  }
  seg->capture_next = 1;
  if (!seg->cache.n_variants)
    seg->phase = PYGRAPH_PHASE_CAPTURE;
  pygraph_debug_log(&seg->settings, SEG_FMT ": stable after %u iterations, capturing next",
                    SEG_ARGS(seg), seg->stable_iterations);
}

/* Returns 0 when the segment went eager. */
static int decide_capture(struct pygraph_segment *seg, const struct iteration *it)
{
  struct pygraph_sig_stats *s =
      it->auto_mode ? pygraph_auto_sig_find(&seg->auto_mode, it->hash) : NULL;
  struct pygraph_decide_input in = capture_question(seg, it, s);
  const char *reason = NULL;
  switch (pygraph_decide(&seg->settings, &in, &reason)) {
  case PYGRAPH_KEEP_WARMING:
    if (reason)
      seg->pinned = 0;                        /* put off, not just warming: others may
                                                 take the place */
    if (s)
      pygraph_auto_note_put_off(s, reason != NULL);
    return 1;
  case PYGRAPH_CAPTURE_NEXT:
    plan_capture(seg);
    return 1;
  case PYGRAPH_GO_EAGER:
    go_eager(seg, EAGER_FOR_GOOD, reason);
    return 0;
  case PYGRAPH_STAY_EAGER:
    go_eager(seg, EAGER_BY_DECISION, reason);
    return 0;
  }
  return 1;
}

/* A probe of a decided-eager segment: its two iterations run as recorded;
 * the second is compared with the first, and a change in behaviour starts
 * measuring (and the warm-up) again. */
static void end_probe(struct pygraph_segment *seg)
{
  pygraph_auto_end_probe_timing(&seg->auto_mode);
  struct pygraph_op_list *cur = seg->current;
  if (cur->n_ops == 0) {
    seg->probe = PYGRAPH_PROBE_OFF;           /* nothing to look at */
    return;
  }
  pygraph_op_list_materialize(cur);
  execute_all(seg, cur);
  if (seg->probe == PYGRAPH_PROBE_FIRST) {
    keep_as_candidate(seg);
    seg->probe = PYGRAPH_PROBE_SECOND_NEXT;
    return;
  }
  seg->probe = PYGRAPH_PROBE_OFF;
  const char *what = pygraph_auto_probe_change(&seg->auto_mode, cur, seg->candidate);
  keep_as_candidate(seg);
  if (!what || seg->auto_mode.reevaluations >= PYGRAPH_MAX_FLIPS)
    return;
  pygraph_auto_restart(&seg->auto_mode, what);
  seg->phase = PYGRAPH_PHASE_WARMUP;
  seg->stable_iterations = 0;
  seg->has_candidate = 0;
  seg->capture_next = 0;
  seg->n_recent = seg->distinct_streak = 0;
}

/* A unit cut short (the run's tail, or a loop exit inside a unit): its
 * ops run eagerly, once.  It teaches the state machine nothing: its launch
 * sequence is not a full unit's. */
static void end_partial_unit(struct pygraph_segment *seg)
{
  pygraph_op_list_materialize(seg->current);
  execute_all(seg, seg->current);
  seg->stats.tail_iters += seg->batch.in_unit;
  if (seg->probe == PYGRAPH_PROBE_FIRST || seg->probe == PYGRAPH_PROBE_SECOND) {
    pygraph_auto_end_probe_timing(&seg->auto_mode);
    seg->probe = PYGRAPH_PROBE_OFF;
  }
  pygraph_measure_break(&seg->auto_mode.measure);
}

/* Host time between consecutive recorded units of a batchable loop, read
 * only while auto mode has not decided (a clock read can cost a syscall)
 * and no graph exists or is about to be captured: the period of eager
 * units (a replayed or deferred unit's host time is one graph launch or a
 * recording, which would make any loop look GPU-bound). */
static void clock_unit_end(struct pygraph_segment *seg)
{
  if (!pygraph_batch_on(&seg->batch) || !auto_mode_on(seg) ||
      seg->auto_mode.decision != PYGRAPH_UNDECIDED || seg->cache.n_variants ||
      seg->capture_next) {
    seg->unit_end_iter = 0;
    return;
  }
  double t = now_us(seg);
  if (seg->unit_end_iter && seg->unit_end_iter + 1 == seg->stats.iters)
    seg->host_period_us = t - seg->unit_end_us;
  seg->unit_end_us = t;
  seg->unit_end_iter = seg->stats.iters;
}

void pygraph_segment_end_iteration(struct pygraph_segment *seg)
{
  seg->stats.iters++;
  int solo = pygraph_auto_solo(&seg->auto_mode);
  if (seg->too_long && !seg->final) {
    if (pygraph_batch_on(&seg->batch))
      stop_batching(seg, "unit over PYGRAPH_MAX_OPS");   /* the flush ran its ops */
    else
      end_too_long(seg);
    return;
  }
  if (seg->flushed) {
    pygraph_measure_break(&seg->auto_mode.measure);
    return;                                   /* everything already ran */
  }
  if (pygraph_batch_unit_partial(&seg->batch)) {
    end_partial_unit(seg);
    return;
  }
  if (seg->phase == PYGRAPH_PHASE_EAGER) {
    if (seg->probe == PYGRAPH_PROBE_FIRST || seg->probe == PYGRAPH_PROBE_SECOND)
      end_probe(seg);
    return;
  }
  if (seg->current->n_ops == 0)
    return;                                   /* empty iteration: nothing to do */
  clock_unit_end(seg);
  struct iteration it;
  classify(seg, &it);
  start_timing(seg, &it, solo);
  if (!(it.v ? run_hit(seg, &it) : run_miss(seg, &it)))
    return;                                   /* eager now: the ops ran once */
  if (it.auto_mode && !end_measuring(seg, &it))
    return;
  if (it.decide_capture && !decide_capture(seg, &it))
    return;
  pygraph_auto_note_behaviour(&seg->auto_mode, it.miss, seg->iter_updates);
}

/* ---- iterations that stop recording ------------------------------------ */

/* The iteration stops recording: what it recorded runs now, in order, and
 * its end has nothing more to do. */
static void run_recorded_now(struct pygraph_segment *seg)
{
  pygraph_op_list_materialize(seg->current);
  execute_all(seg, seg->current);
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
  seg->has_candidate = 0;
  seg->pinned = 0;
  seg->capture_next = 0;
  if (seg->phase == PYGRAPH_PHASE_CAPTURE)
    seg->phase = PYGRAPH_PHASE_WARMUP;
  seg->probe = PYGRAPH_PROBE_OFF;
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
  seg->probe = PYGRAPH_PROBE_OFF;             /* a probe needs recorded iterations */
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
  switch (seg->auto_mode.decision) {
  case PYGRAPH_DECIDED_EAGER:
    return "eager";
  default:
    return seg->cache.n_variants ? "graph" : "eager";
  }
}

unsigned pygraph_segment_variants(const struct pygraph_segment *seg)
{
  return seg->cache.n_variants;
}
