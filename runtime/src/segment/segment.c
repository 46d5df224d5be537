/* segment.c - the state machine of a region segment, the only writer of
 * its phase: what each iteration's end does (hit, miss or capture), the
 * warm-up, faults and the one way into eager.  The graphs are built and
 * replayed by the variant cache (variant_cache.c); what runs a recorded
 * iteration and what its outcome decides is selection's (selection.h),
 * asked twice per iteration: pygraph_selection_plan before the iteration
 * runs (at the first op of a shadowed one), and pygraph_selection_outcome
 * after it, on every path; the segment applies the reply itself. */
#include "segment/segment_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/debug_log.h"
#include "common/state_arena.h"
#include "common/text.h"
#include "recording/signature.h"

static const char kNoFallback[] = "";
static const char kOutOfMemoryWhy[] = "out of memory (copying why the segment went eager)";

void pygraph_segment_init(struct pygraph_segment *seg, const struct pygraph_backend *backend,
                          const struct pygraph_settings *settings,
                          const pygraph_region *region, unsigned index)
{
  memset(seg, 0, sizeof *seg);
  seg->fallback = kNoFallback;
  seg->backend = backend;
  seg->settings = *settings;
  seg->region = region;
  seg->index = index;
  atomic_flag_clear(&seg->busy);
  seg->current = &seg->lists[0];
  seg->candidate = &seg->lists[1];
  pygraph_variant_cache_init(&seg->cache, backend, &seg->settings, region, index,
                             &seg->lists[2]);
  pygraph_selection_init(&seg->sel, backend, &seg->settings, region, index, &seg->cache);
  pygraph_batch_init(&seg->batch, region->kind == PYGRAPH_REGION_BATCH ? region->batch_max : 0,
                     seg->settings.batch);
  pygraph_ranges_init(&seg->ranges, backend, &seg->settings, region, index);
  pygraph_verify_init(&seg->verify, backend, &seg->settings, region, index);
  pygraph_alloc_pool_init(&seg->pool, backend, (size_t)seg->settings.pool_mb << 20);
  if (settings->mode == PYGRAPH_MODE_EAGER) {
    seg->phase = PYGRAPH_PHASE_EAGER;
    seg->final = 1;
  } else {
    seg->phase = PYGRAPH_PHASE_WARMUP;
  }
}

struct pygraph_segment *pygraph_segment_create(const struct pygraph_backend *backend,
                                               const struct pygraph_settings *settings,
                                               const pygraph_region *region, unsigned index)
{
  struct pygraph_segment *seg = pygraph_state_alloc(sizeof *seg);
  if (seg)
    pygraph_segment_init(seg, backend, settings, region, index);
  return seg;
}

void pygraph_segment_publish(struct pygraph_segment *seg)
{
  pygraph_alloc_pool_register(&seg->pool);     /* lives for the process */
}

void pygraph_segment_discard(struct pygraph_segment *seg)
{
  pygraph_ranges_discard(&seg->ranges);
  pygraph_verify_discard(&seg->verify);
  pygraph_state_free(seg);
}

struct pygraph_segment *pygraph_segment_create_like(const struct pygraph_segment *first)
{
  return pygraph_segment_create(first->backend, &first->settings, first->region, first->index);
}

int pygraph_segment_try_acquire(struct pygraph_segment *seg)
{
  return !atomic_flag_test_and_set_explicit(&seg->busy, memory_order_acquire);
}

void pygraph_segment_release(struct pygraph_segment *seg)
{
  atomic_flag_clear_explicit(&seg->busy, memory_order_release);
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
 * iterations out of every PYGRAPH_PROBE_INTERVAL, the probes.)  Eager for
 * good records nothing: its ops pass straight through (the entry points
 * find no recording segment: no copy, no hash, no capture query, no event)
 * and no probe looks for a change - what sent it there (a graph fault, a
 * launch sequence that never repeats or settles, an iteration over the op
 * cap, PYGRAPH_MODE=eager) does not go away.  Eager by decision keeps its
 * probes: they notice a new launch sequence or a change in argument
 * updates that could make a graph pay. */
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
    seg->probe = seg->probe_counts ? PYGRAPH_PROBE_COUNT : PYGRAPH_PROBE_FIRST;
    return 1;
  }
  return 0;
}

int pygraph_segment_begin_iteration(struct pygraph_segment *seg)
{
  pygraph_range_push(&seg->ranges, PYGRAPH_RANGE_ITERATION);   /* popped at its end */
  seg->flushed = 0;
  seg->too_long = 0;
  seg->iter_updates = 0;
  seg->counted = 0;
  seg->eager_for_good = NULL;
  seg->stopped_batching = 0;
  pygraph_op_list_reset(seg->current);
  pygraph_batch_unit_begin(&seg->batch);
  int records = records_iteration(seg);
  seg->clocked = records && seg->clock_next_begin;
  seg->begin_us = seg->clocked ? now_us(seg) : 0.0;
  /* With no graph to replay and no capture planned, deferring would only
   * hold the GPU back while the host records: the ops run as they come. */
  seg->shadowed = records && seg->cache.n_variants == 0 && !seg->cand.capture_next &&
                  seg->probe != PYGRAPH_PROBE_COUNT;
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
  return pygraph_batch_iteration_end(&seg->batch, seg->current, seg->settings.max_ops);
}

/* A shadowed iteration's op, just recorded: it runs now (`args`: the
 * kernel's arguments as the caller passed them); at the first op selection
 * plans the iteration, whose timing span starts there. */
static void run_shadowed(struct pygraph_segment *seg, const struct pygraph_op *op, void **args)
{
  if (seg->current->n_ops == 1) {             /* the first op: its timing span starts */
    struct pygraph_iteration_facts f = {.shadowed = 1, .stream = op->stream,
                                        .phase_eager = seg->phase == PYGRAPH_PHASE_EAGER};
    (void)pygraph_selection_plan(&seg->sel, &f);
  }
  struct pygraph_op now = *op;
  if (now.kind == PYGRAPH_OP_KERNEL)
    now.arg_ptrs = args;
  const struct pygraph_op *recorded = &seg->current->ops[seg->current->n_ops - 1];
  if (now.kind == PYGRAPH_OP_HOST_BYTES)       /* the recorded copy, padded to its class */
    now.src = pygraph_op_args(seg->current, recorded);
  if (now.kind == PYGRAPH_OP_LIBRARY)          /* the recorded arguments */
    now.library_args = pygraph_op_args(seg->current, recorded);
  (void)seg->backend->execute(&now);   /* errors stay CUDA's, as in execute_all */
}

/* Errors are deliberately ignored: they stay CUDA's (sticky) last error,
 * exactly as if the user had made these calls.  `kind`: the range they
 * run in (ranges.h). */
static void execute_in(struct pygraph_segment *seg, const struct pygraph_op_list *list,
                       enum pygraph_range_kind kind)
{
  if ((seg->shadowed && list == seg->current) || list->n_ops == 0)
    return;                                   /* they ran as they came, or nothing to run */
  pygraph_range_push(&seg->ranges, kind);
  for (size_t i = 0; i < list->n_ops; i++)
    (void)seg->backend->execute(&list->ops[i]);
  pygraph_range_pop(&seg->ranges);
}

static void execute_all(struct pygraph_segment *seg, const struct pygraph_op_list *list)
{
  execute_in(seg, list, PYGRAPH_RANGE_EAGER);
}

/* ---- eager: the one way in -------------------------------------------- */

enum eager_kind {
  EAGER_FOR_GOOD,      /* a fault or a launch sequence that cannot be graphed: no probes */
  EAGER_BY_DECISION    /* no graph pays: pass through, probed now and then */
};

/* The segment's fallback becomes a copy of `why`, whole. */
static void set_fallback(struct pygraph_segment *seg, const char *why)
{
  char *copy = pygraph_text_printf("%s", why);
  if (seg->fallback != kNoFallback && seg->fallback != kOutOfMemoryWhy)
    free((char *)seg->fallback);
  seg->fallback = copy ? copy : kOutOfMemoryWhy;
}

/* Drops every graph and passes through from the next iteration.  Selection
 * hears of it in the iteration's outcome (or decided it there). */
static void go_eager(struct pygraph_segment *seg, enum eager_kind kind, const char *why)
{
  pygraph_variant_cache_drop_all(&seg->cache);
  seg->phase = PYGRAPH_PHASE_EAGER;
  if (kind == EAGER_FOR_GOOD) {
    set_fallback(seg, why);
    seg->eager_for_good = seg->fallback;
    seg->final = 1;
  } else {
    seg->probe_countdown = 0;
    seg->probe = PYGRAPH_PROBE_OFF;
    pygraph_candidate_forget(&seg->cand);
  }
  pygraph_debug_log(&seg->settings, SEG_FMT ": %s: %s", SEG_ARGS(seg),
                    kind == EAGER_FOR_GOOD ? "eager for good" : "eager by decision", why);
}

/* A graph call failed: the segment stops using graphs.  The caller still
 * owes the iteration's ops one eager execution unless the graph ran. */
static void graph_fault(struct pygraph_segment *seg, const char *step, cudaError_t err)
{
  seg->backend->clear_error();
  char *reason = pygraph_text_printf("%s failed: %s", step, seg->backend->error_name(err));
  go_eager(seg, EAGER_FOR_GOOD, reason ? reason : step);
  free(reason);
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
  pygraph_candidate_start_over(&seg->cand);
  seg->n_arg_changed = 0;
  seg->stopped_batching = 1;
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

/* ---- graphs --------------------------------------------------------- */

/* Returns 1 when the graph ran the iteration's work, 2 when in verify
 * mode the eager run became the iteration's one run (verify.h: the graph's
 * nodes hold the iteration's parameters all the same), 0 after a fault. */
static int launch_variant(struct pygraph_segment *seg, struct pygraph_variant *v,
                          const struct pygraph_op_list *list)
{
  enum pygraph_verify_step check = pygraph_verify_before(
      &seg->verify, (unsigned)(v - seg->cache.variants), v->id, list);
  if (check == PYGRAPH_VERIFY_RAN_EAGERLY) {
    seg->stats.eager_iters++;
    return 2;
  }
  int ran = 0;
  cudaError_t err = pygraph_variant_cache_launch(&seg->cache, v, &ran);
  if (err != cudaSuccess) {
    graph_fault(seg, "graph launch", err);
    if (!ran)
      execute_all(seg, list);
    if (check == PYGRAPH_VERIFY_ARMED)
      pygraph_verify_after(&seg->verify, 0);
    return 0;
  }
  if (check == PYGRAPH_VERIFY_ARMED)
    pygraph_verify_after(&seg->verify, 1);
  seg->stats.launches_in_graphs += list->n_kernels + list->n_library;
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

/* One recorded iteration at its end: what it is, what the plan runs, and
 * what it tells selection afterwards. */
struct iteration {
  struct pygraph_op_list *cur;
  struct pygraph_variant *hit;                /* its graph, or NULL */
  struct pygraph_plan plan;
  struct pygraph_iteration_outcome out;       /* filled as it runs */
};

/* The current iteration becomes a new variant and is launched.  Returns
 * the variant, or NULL after a fault (the ops then ran exactly once
 * anyway). */
static struct pygraph_variant *capture_variant(struct pygraph_segment *seg, struct iteration *it,
                                               int direct_only)
{
  struct pygraph_op_list *cur = seg->current;
  double t0 = now_us(seg);
  struct pygraph_capture_request request = {
      .hash = it->out.hash, .direct_only = direct_only, .arg_changed = seg->arg_changed,
      .n_arg_changed = seg->n_arg_changed, .iter = seg->stats.iters};
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
  it->out.captured = 1;
  it->out.capture_us = us;
  it->out.ran = v;
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

static struct pygraph_variant *capture(struct pygraph_segment *seg, struct iteration *it,
                                       int direct_only)
{
  pygraph_range_push(&seg->ranges, PYGRAPH_RANGE_CAPTURE);
  struct pygraph_variant *v = capture_variant(seg, it, direct_only);
  pygraph_range_pop(&seg->ranges);
  return v;
}

/* Returns 1 when the variant ran the iteration. */
static int replay_variant(struct pygraph_segment *seg, struct iteration *it,
                          struct pygraph_variant *v)
{
  struct pygraph_op_list *cur = seg->current;
  struct pygraph_update_counts counts;
  const char *step = NULL;
  cudaError_t err =
      pygraph_variant_cache_update(&seg->cache, v, cur, it->plan.count_changes, &counts, &step);
  seg->stats.updates += counts.node_updates;
  seg->stats.refreshes += counts.refreshes;
  seg->iter_updates += counts.node_updates + counts.refreshes;
  if (err != cudaSuccess) {
    graph_fault(seg, step, err);
    execute_all(seg, cur);
    return 0;
  }
  int ran = launch_variant(seg, v, cur);
  if (!ran)
    return 0;
  it->out.ran = v;
  it->out.changed_ops = counts.changed_ops;
  seg->stats.replays += ran == 1;
  pygraph_variant_cache_touch(&seg->cache, v);
  pygraph_variant_cache_adopt(&seg->cache, v, &seg->current);
  seg->hint = v->ref;
  return 1;
}

static int replay(struct pygraph_segment *seg, struct iteration *it, struct pygraph_variant *v)
{
  pygraph_range_push(&seg->ranges, PYGRAPH_RANGE_REPLAY);
  int ran = replay_variant(seg, it, v);
  pygraph_range_pop(&seg->ranges);
  return ran;
}

/* ---- the end of an iteration ------------------------------------------ */

/* Facts of the iteration about to end, and selection's plan for it. */
static void classify(struct pygraph_segment *seg, struct iteration *it)
{
  struct pygraph_op_list *cur = seg->current;
  pygraph_op_list_materialize(cur);
  *it = (struct iteration){.cur = cur};
  struct pygraph_iteration_outcome *o = &it->out;
  o->end = seg->shadowed ? PYGRAPH_END_SHADOWED : PYGRAPH_END_RAN;
  o->hash = pygraph_signature_hash(cur);
  o->stream = cur->ops[0].stream;
  o->n_ops = (unsigned long)cur->n_ops;
  o->batch = pygraph_batch_on(&seg->batch);
  it->hit = pygraph_variant_cache_find(&seg->cache, o->hash, cur);
  if (it->hit)
    pygraph_variant_cache_saw(&seg->cache, o->hash, seg->stats.iters);   /* its rival too */
  struct pygraph_candidate_facts *c = &o->candidate;
  c->same = !it->hit && seg->cand.present && pygraph_same_signature(cur, seg->candidate);
  /* The candidate came in the iteration before this one too (else, if it
   * came before, it recurs apart: a cycle). */
  c->back_to_back = c->same && seg->stats.iters - seg->cand.seen <= 1;
  if (seg->shadowed)
    return;                                   /* planned at its first op */
  struct pygraph_iteration_facts f = {
      .iters = seg->stats.iters, .hash = o->hash, .stream = o->stream, .hit = it->hit,
      .capture_planned = !it->hit && seg->cand.capture_next && c->same,
      .clocked = seg->clocked, .begin_us = seg->begin_us};
  it->plan = pygraph_selection_plan(&seg->sel, &f);
}

/* After a fault the segment is eager for good and the ops ran once: the
 * outcome says so (seg->eager_for_good). */
static void run_hit(struct pygraph_segment *seg, struct iteration *it)
{
  struct pygraph_variant *v = it->plan.variant;
  pygraph_candidate_note_hit(&seg->cand);
  switch (it->plan.turn) {
  case TURN_EAGER:
  case TURN_WAIT_EAGER:
    /* The graphs' nodes keep what their ref lists hold. */
    pygraph_variant_cache_touch(&seg->cache, v);   /* being measured: not the LRU victim */
    execute_all(seg, it->cur);
    seg->stats.eager_iters++;
    return;
  case TURN_RIVAL:
    (void)capture(seg, it, 1);
    return;
  case TURN_GRAPH:
  case TURN_WAIT:
    (void)replay(seg, it, v);
    return;
  }
}

/* A miss that runs eagerly (a mismatch when graphs exist). */
static void run_miss_eagerly(struct pygraph_segment *seg, struct iteration *it)
{
  seg->stats.mismatches += (unsigned long long)(seg->cache.n_variants != 0);
  execute_all(seg, it->cur);
  seg->stats.eager_iters++;
}

/* Signatures that never repeat, or recur without ever being captured:
 * recording stops paying (units give up batching first).  Returns 1 when
 * that is the case (the ops ran). */
static int hopeless_miss(struct pygraph_segment *seg, struct iteration *it)
{
  int had_variants = seg->cache.n_variants != 0;
  const char *hopeless = NULL;
  if (pygraph_candidate_note_miss(&seg->cand, it->out.hash))
    hopeless = "signature never repeats";
  else if (!had_variants && seg->stats.captures == 0 &&
           seg->stats.iters - seg->warm_from >= PYGRAPH_SETTLE_ITERS)
    hopeless = "launch sequence never settles";
  if (!hopeless)
    return 0;
  seg->stats.mismatches += (unsigned long long)had_variants;   /* (0 when never settled) */
  execute_all(seg, it->cur);
  if (pygraph_batch_on(&seg->batch))
    stop_batching(seg, hopeless);
  else
    go_eager(seg, EAGER_FOR_GOOD, hopeless);
  return 1;
}

/* A miss: captured when its capture was planned and a slot takes it, else
 * run eagerly.  Whether it becomes the candidate is settled after the
 * outcome (apply_miss).  A hopeless one sends the segment eager or stops
 * batching (the ops ran once; the outcome says so). */
static void run_miss(struct pygraph_segment *seg, struct iteration *it)
{
  struct pygraph_candidate_facts *c = &it->out.candidate;
  it->out.miss = 1;
  if (hopeless_miss(seg, it))
    return;
  c->keep_other = pygraph_candidate_keeps_place(&seg->cand, c->same, seg->stats.iters);
  c->sightings = pygraph_candidate_sightings(&seg->cand, c->same, it->out.hash);
  if (c->same && seg->settings.mode == PYGRAPH_MODE_AUTO)
    c->changed_vs_candidate = pygraph_count_changed_params(it->cur, seg->candidate);
  c->recent_sightings = c->back_to_back ? 0 : pygraph_candidate_recent(&seg->cand, it->out.hash);
  c->recent_window = seg->cand.n_recent;
  c->captures = (unsigned)(seg->stats.captures - seg->stats.rivals);   /* rivals bound nothing */
  c->n_ops = (unsigned long)it->cur->n_ops;
  c->trip_count = pygraph_batch_unit_trips(&seg->batch, seg->region->trip_count);
  if (!c->keep_other && seg->cand.capture_next && c->same &&
      pygraph_variant_cache_has_room(&seg->cache, seg->stats.iters)) {
    if (seg->settings.indirect)
      note_arg_changes(seg, it->cur, 1);
    pygraph_candidate_forget(&seg->cand);
    (void)capture(seg, it, 0);                /* its span is not counted */
    return;
  }
  run_miss_eagerly(seg, it);
}

/* ---- selection's reply -------------------------------------------------- */

/* The candidate's capture is planned for its next sighting, if a slot
 * can take it. */
static void plan_capture(struct pygraph_segment *seg)
{
  if (!pygraph_variant_cache_has_room(&seg->cache, seg->stats.iters)) {
    pygraph_candidate_unpin(&seg->cand);      /* others may take the place */
    pygraph_debug_log(&seg->settings, SEG_FMT ": variant cache full, %u in use: eager",
                      SEG_ARGS(seg), seg->cache.n_variants);
    return;
  }
  seg->cand.capture_next = 1;
  if (!seg->cache.n_variants)
    seg->phase = PYGRAPH_PHASE_CAPTURE;
  pygraph_debug_log(&seg->settings, SEG_FMT ": stable after %u iterations, capturing next",
                    SEG_ARGS(seg), seg->cand.stable);
}

/* A miss run eagerly after the outcome: it becomes the candidate unless
 * its signature is known not to pay or a pinned candidate keeps its place. */
static void apply_miss(struct pygraph_segment *seg, struct iteration *it,
                       const struct pygraph_selection_reply *reply)
{
  const struct pygraph_candidate_facts *c = &it->out.candidate;
  if (reply->rejected || c->keep_other) {
    if (reply->rejected && !c->keep_other) {
      keep_as_candidate(seg);                 /* keeps the pool a permutation */
      pygraph_candidate_reject(&seg->cand);
    }
    return;
  }
  if (seg->settings.indirect)
    note_arg_changes(seg, it->cur, c->same);
  pygraph_candidate_take(&seg->cand, c->same, c->sightings, seg->stats.iters);
  keep_as_candidate(seg);
  if (reply->capture == PYGRAPH_CAPTURE_WAIT_UNPIN)
    pygraph_candidate_unpin(&seg->cand);
  else if (reply->capture == PYGRAPH_CAPTURE_PLAN)
    plan_capture(seg);
}

/* Decided eager (or a probe seen) with an iteration of n_ops: its probes
 * count ops instead of recording while that is below what a probe needs
 * to show anything (batch units are left alone: their size is the loop's). */
static void note_probe_counts(struct pygraph_segment *seg,
                              const struct pygraph_selection_reply *reply, size_t n_ops)
{
  seg->probe_min_ops = reply->probe_min_ops;
  seg->probe_counts = n_ops < reply->probe_min_ops && !pygraph_batch_on(&seg->batch);
}

/* Applies what selection returned: graphs to drop, eager from now on, the
 * candidate's fate, a probe's restart. */
static void apply_reply(struct pygraph_segment *seg, struct iteration *it,
                        const struct pygraph_selection_reply *reply)
{
  seg->clock_next_begin = reply->clock_next_begin;
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
    if (reply->drop & (1u << i))
      pygraph_variant_cache_drop(&seg->cache, &seg->cache.variants[i]);
  if (it && it->out.miss && !it->out.captured && !seg->eager_for_good && !seg->stopped_batching)
    apply_miss(seg, it, reply);
  if (reply->go_eager && !seg->eager_for_good) {   /* (a fault: the segment went already) */
    go_eager(seg, reply->for_good ? EAGER_FOR_GOOD : EAGER_BY_DECISION, reply->go_eager);
    seg->final = reply->final;
    note_probe_counts(seg, reply, it ? it->cur->n_ops : 0);
  }
}

/* Tells selection how the iteration ended (every path ends here once) and
 * applies its reply. */
static struct pygraph_selection_reply end_with(struct pygraph_segment *seg, struct iteration *it,
                                               struct pygraph_iteration_outcome *o)
{
  o->iters = seg->stats.iters;
  o->eager_for_good = seg->eager_for_good;
  o->stopped_batching = seg->stopped_batching;
  struct pygraph_selection_reply reply = pygraph_selection_outcome(&seg->sel, o);
  apply_reply(seg, it, &reply);
  return reply;
}

/* A probe of a decided-eager segment: its two iterations run as recorded;
 * the second is compared with the first, and a change in behaviour starts
 * the warm-up again. */
static void end_probe(struct pygraph_segment *seg)
{
  struct pygraph_op_list *cur = seg->current;
  struct pygraph_iteration_outcome o = {.end = PYGRAPH_END_PROBE};
  if (cur->n_ops == 0) {
    seg->probe = PYGRAPH_PROBE_OFF;           /* nothing to look at */
    end_with(seg, NULL, &o);
    return;
  }
  pygraph_op_list_materialize(cur);
  execute_all(seg, cur);
  if (seg->probe == PYGRAPH_PROBE_FIRST) {
    keep_as_candidate(seg);
    seg->probe = PYGRAPH_PROBE_SECOND_NEXT;
    end_with(seg, NULL, &o);
    return;
  }
  seg->probe = PYGRAPH_PROBE_OFF;
  o.probe_second = 1;
  o.cur = cur;
  o.prev = seg->candidate;
  struct pygraph_selection_reply reply = end_with(seg, NULL, &o);
  note_probe_counts(seg, &reply, cur->n_ops);
  keep_as_candidate(seg);
  if (!reply.restart)
    return;
  seg->phase = PYGRAPH_PHASE_WARMUP;
  pygraph_candidate_start_over(&seg->cand);
  seg->warm_from = seg->stats.iters;          /* it may settle from here */
}

/* A probe that only counted its iteration's ops: once they are as many as
 * a probe needs, the next iteration begins a recorded one. */
static void end_count_probe(struct pygraph_segment *seg)
{
  struct pygraph_iteration_outcome o = {.end = PYGRAPH_END_PROBE};
  seg->probe = PYGRAPH_PROBE_OFF;
  if (seg->counted >= seg->probe_min_ops) {
    seg->probe_counts = 0;
    seg->probe_countdown = PYGRAPH_PROBE_INTERVAL - 1;
  }
  end_with(seg, NULL, &o);
}

/* A unit cut short (the run's tail, or a loop exit inside a unit): its
 * ops run eagerly, once.  It teaches the state machine nothing: its launch
 * sequence is not a full unit's. */
static void end_partial_unit(struct pygraph_segment *seg)
{
  pygraph_op_list_materialize(seg->current);
  execute_all(seg, seg->current);
  seg->stats.tail_iters += seg->batch.in_unit;
  struct pygraph_iteration_outcome o = {.end = PYGRAPH_END_PARTIAL};
  if (seg->probe == PYGRAPH_PROBE_FIRST || seg->probe == PYGRAPH_PROBE_SECOND) {
    o.probe_cut = 1;
    seg->probe = PYGRAPH_PROBE_OFF;
  }
  end_with(seg, NULL, &o);
}

/* An iteration past PYGRAPH_MAX_OPS (it flushed at the cap). */
static void end_over_cap(struct pygraph_segment *seg)
{
  struct pygraph_iteration_outcome o = {.end = PYGRAPH_END_IDLE};
  if (pygraph_batch_on(&seg->batch))
    stop_batching(seg, "unit over PYGRAPH_MAX_OPS");   /* the flush ran its ops */
  else
    end_too_long(seg);
  end_with(seg, NULL, &o);
}

/* A recorded iteration with ops, not cut short: plan, run, outcome. */
static void end_recorded(struct pygraph_segment *seg)
{
  struct iteration it;
  classify(seg, &it);
  if (it.hit)
    run_hit(seg, &it);
  else
    run_miss(seg, &it);
  it.out.iter_updates = seg->iter_updates;
  it.out.verified = pygraph_verify_take_ran_twice(&seg->verify);
  end_with(seg, &it, &it.out);
}

void pygraph_segment_end_iteration(struct pygraph_segment *seg)
{
  seg->stats.iters++;
  struct pygraph_iteration_outcome idle = {.end = PYGRAPH_END_IDLE};
  if (seg->too_long && !seg->final)
    end_over_cap(seg);
  else if (seg->flushed)
    end_with(seg, NULL, &(struct pygraph_iteration_outcome){.end = PYGRAPH_END_FLUSHED});
  else if (pygraph_batch_unit_partial(&seg->batch))
    end_partial_unit(seg);
  else if (seg->probe == PYGRAPH_PROBE_COUNT)
    end_count_probe(seg);
  else if (seg->phase == PYGRAPH_PHASE_EAGER &&
           (seg->probe == PYGRAPH_PROBE_FIRST || seg->probe == PYGRAPH_PROBE_SECOND))
    end_probe(seg);
  else if (seg->phase == PYGRAPH_PHASE_EAGER || seg->current->n_ops == 0)
    end_with(seg, NULL, &idle);
  else
    end_recorded(seg);
  /* Blocks the iteration kept, or freed after it stopped recording (the
   * real call then), are the program's. */
  pygraph_alloc_pool_disown_in_use(&seg->pool);
  pygraph_range_pop(&seg->ranges);            /* the iteration's (begin_iteration) */
}
/* ---- iterations that stop recording ------------------------------------ */

/* The iteration stops recording: what it recorded runs now, in order, and
 * its end has nothing more to do. */
static void run_recorded_now(struct pygraph_segment *seg)
{
  pygraph_op_list_materialize(seg->current);
  execute_in(seg, seg->current, PYGRAPH_RANGE_FLUSH);
  seg->flushed = 1;
}

void pygraph_segment_flush(struct pygraph_segment *seg, const char *reason)
{
  run_recorded_now(seg);
  seg->stats.flushes++;
  seg->last_flush_reason = reason;
  /* A flushed iteration says nothing about stability: the candidate starts
   * over.  Variants (and the lists they mirror) stay as they were. */
  pygraph_candidate_forget(&seg->cand);
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

const char *pygraph_segment_decision_name(const struct pygraph_segment *seg)
{
  struct pygraph_selection_summary sum;
  pygraph_selection_summarize(&seg->sel, &sum);
  if (sum.decision == PYGRAPH_DECIDED_EAGER ||
      (sum.decision == PYGRAPH_UNDECIDED && !sum.undecided_graph))
    return "eager";
  return seg->cache.n_variants ? "graph" : "eager";
}

/* ---- collectives (NCCL) and several devices ------------------------------ */

/* The segment makes graph mode's choices from now on, untimed, when it has
 * run no iteration yet (or is not in auto mode): *flag set, NULL.  Later,
 * when auto mode may have timed and decided, it goes eager for good and
 * returns `late`.  `what` names the cause in the debug log. */
static const char *choose_as_graph_mode(struct pygraph_segment *seg, int *flag,
                                        const char *late, const char *what)
{
  if (*flag || seg->collective || seg->devices || seg->settings.mode != PYGRAPH_MODE_AUTO) {
    *flag = 1;
    return NULL;
  }
  if (seg->stats.iters > 0) {
    go_eager(seg, EAGER_FOR_GOOD, late);
    return late;
  }
  *flag = 1;
  seg->settings.mode = PYGRAPH_MODE_GRAPH;    /* selection reads it through its pointer */
  pygraph_debug_log(&seg->settings, SEG_FMT ": %s: graph mode's choices", SEG_ARGS(seg), what);
  return NULL;
}

const char *pygraph_segment_note_collective(struct pygraph_segment *seg)
{
  return choose_as_graph_mode(seg, &seg->collective,
                              "NCCL collective after the segment's first iteration",
                              "NCCL collectives");
}

const char *pygraph_segment_note_devices(struct pygraph_segment *seg)
{
  return choose_as_graph_mode(seg, &seg->devices,
                              "device changed inside the segment after its first iteration",
                              "several devices");
}

const char *pygraph_segment_eager_for_good(const struct pygraph_segment *seg)
{
  return seg->final && seg->phase == PYGRAPH_PHASE_EAGER ? seg->fallback : NULL;
}

void pygraph_segment_give_up(struct pygraph_segment *seg, const char *why)
{
  if (!seg->final)
    go_eager(seg, EAGER_FOR_GOOD, why);
}

/* ---- the interception front's view -------------------------------------- */

const struct pygraph_backend *pygraph_segment_backend(const struct pygraph_segment *seg)
{
  return seg->backend;
}

const struct pygraph_op_list *pygraph_segment_recorded(const struct pygraph_segment *seg)
{
  return seg->current;
}

const struct pygraph_op_list *pygraph_segment_hint(const struct pygraph_segment *seg)
{
  return seg->hint;
}

int pygraph_segment_counts_only(struct pygraph_segment *seg)
{
  if (seg->probe != PYGRAPH_PROBE_COUNT)
    return 0;
  seg->counted++;
  return 1;
}

const char *pygraph_segment_append(struct pygraph_segment *seg, const struct pygraph_op *op,
                                   void **args)
{
  if (pygraph_segment_over_cap(seg))
    return "iteration too long";
  pygraph_alloc_pool_note_stream(&seg->pool, op->stream);
  struct pygraph_op copy = *op;
  if (op->kind == PYGRAPH_OP_KERNEL && pygraph_op_list_copy_args(seg->current, &copy, args))
    return "out of memory";
  if (op->kind == PYGRAPH_OP_KERNEL && op->n_attrs &&
      pygraph_op_list_copy_attrs(seg->current, &copy))
    return "out of memory";
  if (op->kind == PYGRAPH_OP_HOST_BYTES && pygraph_op_list_copy_bytes(seg->current, &copy))
    return "out of memory";
  if (op->kind == PYGRAPH_OP_LIBRARY && pygraph_op_list_copy_library(seg->current, &copy))
    return "out of memory";
  if (!pygraph_op_list_append(seg->current, &copy))
    return "out of memory";
  seg->stats.library_calls += op->kind == PYGRAPH_OP_LIBRARY;
  if (seg->shadowed)
    run_shadowed(seg, op, args);
  return NULL;
}

int pygraph_segment_allocate(struct pygraph_segment *seg, size_t size, void **ptr)
{
  if (seg->probe == PYGRAPH_PROBE_COUNT)
    return 0;                                 /* counted iterations pass through */
  return pygraph_alloc_pool_take(&seg->pool, size, ptr);
}

int pygraph_segment_free(struct pygraph_segment *seg, const void *ptr)
{
  return pygraph_alloc_pool_give_back(&seg->pool, ptr);
}
