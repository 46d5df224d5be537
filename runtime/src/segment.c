/* segment.c - what happens at the end of each iteration: hit, miss or
 * capture; measuring and deciding (auto mode); faults. */
#include "segment.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug_log.h"
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

static int measuring_mode(const struct pygraph_segment *seg)
{
  return seg->settings.mode == PYGRAPH_MODE_AUTO;
}

int pygraph_segment_begin_iteration(struct pygraph_segment *seg)
{
  seg->flushed = 0;
  seg->too_long = 0;
  seg->iter_updates = 0;
  pygraph_op_list_reset(seg->current);
  if (seg->phase != PYGRAPH_PHASE_EAGER)
    return 1;
  if (seg->final)
    return 0;
  /* Decided eager by cost: look at 2 consecutive iterations out of every
   * PYGRAPH_PROBE_INTERVAL for a change in behaviour. */
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

static void swap_lists(struct pygraph_op_list **a, struct pygraph_op_list **b)
{
  struct pygraph_op_list *t = *a;
  *a = *b;
  *b = t;
}

/* Errors are deliberately ignored: they stay CUDA's (sticky) last error,
 * exactly as if the user had made these calls. */
static void execute_all(struct pygraph_segment *seg, const struct pygraph_op_list *list)
{
  for (size_t i = 0; i < list->n_ops; i++)
    (void)seg->backend->execute(&list->ops[i]);
}

/* ---- variants ------------------------------------------------------- */

/* The argument block may still be read by queued launches of v->graph:
 * free it while the graph is alive (it waits for them). */
static void drop_variant(struct pygraph_segment *seg, struct pygraph_variant *v)
{
  if (v->args.device_block)
    pygraph_arg_block_free(&v->args, seg->backend, v->graph);
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

static void drop_all_variants(struct pygraph_segment *seg)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
    if (seg->variants[i].graph)
      drop_variant(seg, &seg->variants[i]);
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

/* ---- signature statistics -------------------------------------------- */

static struct pygraph_sig_stats *sig_find(struct pygraph_segment *seg, unsigned long long hash)
{
  for (unsigned i = 0; i < PYGRAPH_SIG_STATS; i++)
    if (seg->sigs[i].last_used && seg->sigs[i].hash == hash)
      return &seg->sigs[i];
  return NULL;
}

static int has_live_variant(const struct pygraph_segment *seg, unsigned long long hash)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
    if (seg->variants[i].graph && seg->variants[i].hash == hash)
      return 1;
  return 0;
}

static struct pygraph_sig_stats *sig_get(struct pygraph_segment *seg, unsigned long long hash)
{
  struct pygraph_sig_stats *s = sig_find(seg, hash), *victim = NULL;
  if (!s) {
    for (unsigned i = 0; i < PYGRAPH_SIG_STATS; i++) {
      struct pygraph_sig_stats *c = &seg->sigs[i];
      if (!c->last_used) {
        victim = c;
        break;
      }
      if (has_live_variant(seg, c->hash))
        continue;
      if (!victim || c->last_used < victim->last_used)
        victim = c;
    }
    if (!victim)
      victim = &seg->sigs[0];
    s = victim;
    memset(s, 0, sizeof *s);
    s->hash = hash;
    s->changed_ops = -1;
  }
  s->last_used = ++seg->clock;
  return s;
}

static double median(const struct pygraph_samples *s)
{
  float v[PYGRAPH_MAX_MEASURE_ITERS];
  unsigned n = s->n;
  memcpy(v, s->us, n * sizeof v[0]);
  for (unsigned i = 1; i < n; i++)       /* n <= 64: insertion sort */
    for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
      float t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return n ? (n % 2 ? v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + v[n / 2])) : 0.0;
}

/* The cost of an iteration: its stream-order period, but never less than
 * the host time the runtime itself spent on it. */
static double period_us(const struct pygraph_samples *s)
{
  double p = median(s);
  double host = s->n ? s->host_sum / s->n : 0.0;
  return host > p ? host : p;
}

static void add_sample(void *ctx, const struct pygraph_sample_tag *tag, double us)
{
  struct pygraph_segment *seg = ctx;
  struct pygraph_sig_stats *s = sig_find(seg, tag->hash);
  if (!s || tag->kind == PYGRAPH_SAMPLE_NONE)
    return;
  struct pygraph_samples *smp = tag->kind == PYGRAPH_SAMPLE_EAGER ? &s->eager : NULL;
  for (unsigned i = 0; !smp && i < PYGRAPH_MAX_VARIANTS; i++)
    if (seg->variants[i].graph && seg->variants[i].id == tag->variant)
      smp = &seg->variants[i].samples;
  if (!smp || smp->n >= seg->settings.measure_iters)
    return;
  smp->us[smp->n++] = (float)us;
  smp->host_sum += tag->host_us;
}

/* ---- decisions ------------------------------------------------------- */

static void set_decision(struct pygraph_segment *seg, enum pygraph_decision_state d,
                         const char *why)
{
  if (seg->decision != PYGRAPH_UNDECIDED && seg->decision != d)
    seg->flips++;
  seg->decision = d;
  snprintf(seg->why, sizeof seg->why, "%s", why);
}

/* Eager for good: drop every graph, stop measuring and recording. */
static void go_eager(struct pygraph_segment *seg, const char *reason)
{
  snprintf(seg->fallback, sizeof seg->fallback, "%s", reason);
  drop_all_variants(seg);
  pygraph_measure_free(&seg->measure, seg->backend);
  seg->phase = PYGRAPH_PHASE_EAGER;
  seg->final = 1;
  set_decision(seg, PYGRAPH_DECIDED_EAGER, reason);
  pygraph_debug_log(&seg->settings, SEG_FMT ": eager for good: %s", SEG_ARGS(seg), reason);
}

/* No variant pays: pass through, probing now and then for a change. */
static void go_eager_decided(struct pygraph_segment *seg, const char *why)
{
  drop_all_variants(seg);
  seg->phase = PYGRAPH_PHASE_EAGER;
  seg->final = seg->reevaluations >= PYGRAPH_MAX_FLIPS;
  seg->probe_countdown = 0;
  seg->probe_state = 0;
  seg->has_reference = 0;
  seg->capture_next = 0;
  pygraph_measure_break(&seg->measure);
  set_decision(seg, PYGRAPH_DECIDED_EAGER, why);
  pygraph_debug_log(&seg->settings, SEG_FMT ": eager by decision: %s", SEG_ARGS(seg), why);
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

/* The other live, undecided graph of v's signature (its direct rival or
 * the indirect graph it rivals), or NULL. */
static struct pygraph_variant *rival_of(struct pygraph_segment *seg,
                                        const struct pygraph_variant *v)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    struct pygraph_variant *r = &seg->variants[i];
    if (r != v && r->graph && !r->decided && r->hash == v->hash)
      return r;
  }
  return NULL;
}

/* A variant's signature no longer pays as a graph: it runs eagerly. */
static void reject_variant(struct pygraph_segment *seg, struct pygraph_variant *v,
                           struct pygraph_sig_stats *s, double eager_us, double graph_us,
                           const char *why)
{
  s->rejected = 1;
  s->changed_ops = v->changed_ops;            /* what probes compare against */
  drop_variant(seg, v);
  int any_graph = 0;
  for (unsigned j = 0; j < PYGRAPH_MAX_VARIANTS; j++)
    any_graph |= seg->variants[j].graph && seg->variants[j].decided;
  if (!any_graph) {                           /* else the segment stays graph */
    seg->eager_us = eager_us;
    seg->graph_us = graph_us;
  }
  if (seg->n_variants == 0)
    go_eager_decided(seg, why);
  else if (!any_graph)
    snprintf(seg->why, sizeof seg->why, "%s", why);   /* others still measuring */
}

/* Compares each undecided signature's graphs (one, or an indirect one and
 * its direct rival) with each other and with its eager runs.  A clear case
 * is settled by the first samples; a close one waits for full windows
 * (taken in turn, see measuring_turn). */
static void decide_variants(struct pygraph_segment *seg)
{
  if (seg->measure.state < 0) {
    /* Timing broke after a capture: keep what runs, unmeasured. */
    for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
      if (seg->variants[i].graph && !seg->variants[i].decided) {
        seg->variants[i].decided = 1;
        set_decision(seg, PYGRAPH_DECIDED_GRAPH, "unmeasured: no timing events");
      }
    return;
  }
  unsigned window = seg->settings.measure_iters;
  unsigned first = window < PYGRAPH_MEASURE_MIN ? window : PYGRAPH_MEASURE_MIN;
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    struct pygraph_variant *v = &seg->variants[i];
    if (!v->graph || v->decided)
      continue;
    struct pygraph_variant *r = rival_of(seg, v);
    if (r && r < v)
      continue;                               /* the pair is handled from r */
    struct pygraph_sig_stats *s = sig_find(seg, v->hash);
    if (!s || v->samples.n < first || (r && r->samples.n < first))
      continue;
    int graphs_full = v->samples.n >= window && (!r || r->samples.n >= window);
    double gv = period_us(&v->samples), gr = r ? period_us(&r->samples) : 0.0;
    enum pygraph_verdict early;
    /* Which graph: the rival wins only when measured faster. */
    if (r && !graphs_full && !pygraph_clear_verdict(gv, gr, &early))
      continue;
    struct pygraph_variant *best = r && gr < gv ? r : v;
    if (r) {
      struct pygraph_variant *loser = best == v ? r : v;
      snprintf(best->rival, sizeof best->rival, "; %s graph %.1f us vs %s %.1f us",
               best->direct_only ? "direct" : "indirect", best == v ? gv : gr,
               loser->direct_only ? "direct" : "indirect", best == v ? gr : gv);
      pygraph_debug_log(&seg->settings, SEG_FMT ": keeping the%s", SEG_ARGS(seg),
                        best->rival + 1);
      drop_variant(seg, loser);
    }
    const char *pair = best->rival;           /* kept for the verdict on eager */
    double graph_us = best == v ? gv : gr;
    char why[sizeof seg->why];
    if (s->eager.n == 0 && graphs_full) {
      best->decided = 1;
      snprintf(why, sizeof why, "eager unmeasured%s", pair);
      set_decision(seg, PYGRAPH_DECIDED_GRAPH, why);
      continue;
    }
    if (s->eager.n < first ||
        (!(graphs_full && s->eager.n >= window) &&
         !pygraph_clear_verdict(period_us(&s->eager), graph_us, &early)))
      continue;
    struct pygraph_cost_input in = {
        .eager_us = period_us(&s->eager), .graph_us = graph_us,
        /* The capture is already paid when this is decided: what counts
         * from here on is the span (pygraph_decide_cost amortizes a capture
         * that is still to be paid). */
        .capture_us = 0, .trip_count = seg->region->trip_count,
        .iters_observed = seg->stats.iters};
    enum pygraph_verdict verdict = pygraph_decide_cost(&seg->settings, &in, why, sizeof why);
    size_t len = strlen(why);
    snprintf(why + len, sizeof why - len, "%s", pair);
    pygraph_debug_log(&seg->settings, SEG_FMT ": variant %u: %s", SEG_ARGS(seg),
                      (unsigned)(best - seg->variants), why);
    if (verdict == PYGRAPH_VERDICT_GRAPH) {
      best->decided = 1;
      seg->eager_us = in.eager_us;
      seg->graph_us = in.graph_us;
      seg->has_baseline = 0;
      seg->block_iters = seg->block_updates = seg->block_misses = 0;
      set_decision(seg, PYGRAPH_DECIDED_GRAPH, why);
      continue;
    }
    reject_variant(seg, best, s, in.eager_us, in.graph_us, why);
  }
}

/* Start measuring again (bounded: PYGRAPH_MAX_FLIPS per segment). */
static void reevaluate(struct pygraph_segment *seg, const char *what)
{
  seg->reevaluations++;
  seg->has_baseline = 0;
  seg->block_iters = seg->block_updates = seg->block_misses = 0;
  pygraph_debug_log(&seg->settings, SEG_FMT ": behaviour changed (%s), re-evaluating (%u/%u)",
                    SEG_ARGS(seg), what, seg->reevaluations, PYGRAPH_MAX_FLIPS);
  if (seg->phase == PYGRAPH_PHASE_EAGER) {
    /* From decided-eager: measure everything afresh, eager first. */
    memset(seg->sigs, 0, sizeof seg->sigs);
    seg->phase = PYGRAPH_PHASE_WARMUP;
    seg->stable_iterations = 0;
    seg->has_reference = 0;
    seg->capture_next = 0;
    seg->n_recent = seg->distinct_streak = 0;
    return;
  }
  /* From decided-graph: re-measure the graphs against the eager periods. */
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    struct pygraph_variant *v = &seg->variants[i];
    if (!v->graph)
      continue;
    v->decided = 0;
    memset(&v->samples, 0, sizeof v->samples);
  }
}

/* Are all variants decided?  One whose signature has not come for
 * PYGRAPH_BEHAVIOUR_BLOCK iterations does not count: measuring resumes if
 * it comes back, rather than timing every iteration until then. */
static int all_decided(const struct pygraph_segment *seg)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *v = &seg->variants[i];
    if (v->graph && !v->decided && seg->stats.iters - v->seen_iter <= PYGRAPH_BEHAVIOUR_BLOCK)
      return 0;
  }
  return 1;
}

/* Hysteresis for a segment decided graph: per block of iterations, the
 * node updates per iteration and the share of misses; a marked change from
 * the block after the decision re-measures. */
static void note_behaviour(struct pygraph_segment *seg, int miss)
{
  if (!measuring_mode(seg) || seg->decision != PYGRAPH_DECIDED_GRAPH || !all_decided(seg))
    return;
  seg->block_iters++;
  seg->block_updates += seg->iter_updates;
  seg->block_misses += (unsigned long long)miss;
  if (seg->block_iters < PYGRAPH_BEHAVIOUR_BLOCK)
    return;
  struct pygraph_behaviour now = {
      .updates_per_iter = (double)seg->block_updates / (double)seg->block_iters,
      .miss_share = (double)seg->block_misses / (double)seg->block_iters};
  seg->block_iters = seg->block_updates = seg->block_misses = 0;
  if (!seg->has_baseline) {
    seg->baseline = now;
    seg->has_baseline = 1;
    return;
  }
  if (seg->reevaluations < PYGRAPH_MAX_FLIPS && pygraph_behaviour_changed(&seg->baseline, &now))
    reevaluate(seg, "updates or signature mix");
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

static long count_changed(const struct pygraph_op_list *a, const struct pygraph_op_list *b)
{
  long n = 0;
  for (size_t i = 0; i < a->n_ops; i++)
    if (pygraph_op_params_differ(a, &a->ops[i], b, &b->ops[i]))
      n++;
  return n;
}

/* Signature never repeats: PYGRAPH_NEVER_REPEATS misses in a row, each with
 * a signature not among the last PYGRAPH_NEVER_REPEATS seen. */
static int never_repeats(struct pygraph_segment *seg, unsigned long long hash)
{
  int seen = 0;
  for (unsigned i = 0; i < seg->n_recent; i++)
    seen |= seg->recent[i] == hash;
  seg->distinct_streak = seen ? 0 : seg->distinct_streak + 1;
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
  cudaError_t err = seg->backend->graph_launch(v->graph, &ran);
  if (err != cudaSuccess) {
    graph_fault(seg, "graph launch", err);
    if (!ran)
      execute_all(seg, list);
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

static double now_us(const struct pygraph_segment *seg)
{
  return seg->backend->now_us ? seg->backend->now_us() : 0.0;
}

/* The current iteration becomes a new variant (evicting the least recently
 * used one when the cache is full) and is launched.  Returns the variant,
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
    for (unsigned i = 0; i < seg->settings.variants; i++)
      if (!v || seg->variants[i].last_used < v->last_used)
        v = &seg->variants[i];
    pygraph_debug_log(&seg->settings, SEG_FMT ": variant cache full, evicting the LRU one",
                      SEG_ARGS(seg));
  }
  struct pygraph_indirect ind = {0};
  struct pygraph_arg_block ab;
  const char *step = NULL;
  cudaError_t err = prepare_indirect(seg, cur, direct_only, &ind, &ab, &step);
  if (err != cudaSuccess) {
    pygraph_indirect_free(&ind);
    graph_fault(seg, step, err);
    execute_all(seg, cur);
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
  if (v->graph && v->args.device_block)
    seg->backend->graph_synchronize(v->graph);
  err = seg->backend->graph_instantiate(graph, v->graph);
  if (err != cudaSuccess) {
    step = "graph instantiate";
    goto fail;
  }
  if (v->graph) {
    /* The old graph was consumed (its exec may live on, updated in place,
     * but now reads the new block): its block goes too. */
    if (v->args.device_block)
      pygraph_arg_block_free(&v->args, seg->backend, NULL);
    pygraph_indirect_free(&v->indirect);
    seg->n_variants--;
  }
  v->graph = graph;
  v->indirect = ind;
  v->args = ab;
  v->hash = hash;
  v->last_used = ++seg->clock;
  v->decided = !measuring_mode(seg) || seg->measure.state < 0;
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
  struct pygraph_sig_stats *s = sig_get(seg, hash);
  s->capture_us = now_us(seg) - t0;
  if (v->decided && seg->decision == PYGRAPH_UNDECIDED)
    set_decision(seg, PYGRAPH_DECIDED_GRAPH,
                 seg->settings.mode == PYGRAPH_MODE_GRAPH ? "PYGRAPH_MODE=graph"
                                                          : "unmeasured: no timing events");
  pygraph_debug_log(&seg->settings, SEG_FMT ": captured graph #%llu with %zu ops (%u variants)",
                    SEG_ARGS(seg), seg->stats.captures, cur->n_ops, seg->n_variants);
  if (!launch_variant(seg, v, cur))
    return NULL;
  swap_lists(&seg->current, &v->ref);
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
  execute_all(seg, cur);
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
      execute_all(seg, cur);
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
      execute_all(seg, cur);
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
  swap_lists(&seg->current, &v->ref);
  seg->hint = v->ref;
  return 1;
}

/* ---- the end of an iteration ------------------------------------------ */

/* Is this iteration worth timing?  While a variant is undecided, or while
 * this signature (not a graph yet, not rejected) lacks eager samples. */
static int wants_timing(struct pygraph_segment *seg, unsigned long long hash,
                        const struct pygraph_variant *v)
{
  if (!all_decided(seg))
    return 1;
  if (v)
    return 0;
  const struct pygraph_sig_stats *s = sig_find(seg, hash);
  return !s || (!s->rejected && s->eager.n < seg->settings.measure_iters);
}

/* A young segment (its first PYGRAPH_YOUNG_ITERS iterations) whose timing
 * events lag PYGRAPH_BACKLOG_EVENTS behind: the GPU is busy with earlier
 * work, launch costs hide in its queue, and a short loop would be over
 * before samples came back.  Older segments just wait for their samples. */
static int far_behind(const struct pygraph_segment *seg)
{
  return seg->measure.count >= PYGRAPH_BACKLOG_EVENTS && seg->stats.iters < PYGRAPH_YOUNG_ITERS;
}

enum pygraph_turn { TURN_GRAPH, TURN_EAGER, TURN_RIVAL };

/* While v's signature is measured: what runs this iteration.  Eager runs
 * and each undecided graph of the signature take turns, in runs of
 * PYGRAPH_TURN_RUN iterations, until their windows are full, so all see
 * the same conditions (*pv may become the rival); an indirect graph first
 * gets a direct rival, captured from this iteration.  Not while the GPU is
 * far behind: samples would come too late. */
static enum pygraph_turn measuring_turn(struct pygraph_segment *seg,
                                        struct pygraph_variant **pv, unsigned long long hash)
{
  struct pygraph_variant *v = *pv;
  if (v->decided || !measuring_mode(seg) || seg->measure.state <= 0 || far_behind(seg))
    return TURN_GRAPH;
  struct pygraph_sig_stats *s = sig_find(seg, hash);
  if (!s)
    return TURN_GRAPH;
  struct pygraph_variant *r = rival_of(seg, v);
  if (!r && v->indirect.n_nodes && !v->direct_only && !s->challenged &&
      seg->n_variants < seg->settings.variants) {
    s->challenged = 1;
    return TURN_RIVAL;
  }
  /* Sides by identity: 0 eager, 1 the indirect graph, 2 its direct rival
   * (or the only graph as side 1). */
  struct pygraph_variant *side[3] = {NULL, v, r};
  if (r && r->direct_only == 0) {
    side[1] = r;
    side[2] = v;
  }
  unsigned window = seg->settings.measure_iters;
  int needs[3] = {s->eager.n < window, side[1]->samples.n < window,
                  side[2] && side[2]->samples.n < window};
  unsigned c = s->turn % 3;
  if (!(s->run_left && needs[c])) {           /* next side that still needs samples */
    unsigned k;
    for (k = 1; k <= 3 && !needs[(s->turn + k) % 3]; k++)
      ;
    if (k > 3)
      return TURN_GRAPH;                      /* all full: samples still in flight */
    c = (s->turn + k) % 3;
    s->turn = c;
    s->run_left = PYGRAPH_TURN_RUN;
  }
  s->run_left--;
  if (c == 0)
    return TURN_EAGER;
  *pv = side[c];
  return TURN_GRAPH;
}

/* Probing a decided-eager segment: did its behaviour change? */
static void end_probe(struct pygraph_segment *seg)
{
  struct pygraph_op_list *cur = seg->current;
  if (cur->n_ops == 0) {
    seg->probe_state = 0;                     /* nothing to look at */
    return;
  }
  pygraph_op_list_materialize(cur);
  execute_all(seg, cur);
  if (seg->probe_state == 1) {
    swap_lists(&seg->current, &seg->reference);
    seg->hint = seg->reference;
    seg->probe_state = 2;
    return;
  }
  seg->probe_state = 0;
  const struct pygraph_op_list *prev = seg->reference;
  unsigned long long hash = pygraph_signature_hash(cur);
  struct pygraph_sig_stats *s = sig_find(seg, hash);
  const char *what = NULL;
  if (!s || !s->rejected)
    what = "new signature";
  else if (pygraph_same_signature(cur, prev) && s->changed_ops >= 0) {
    long now = count_changed(cur, prev), then = s->changed_ops;
    long d = now > then ? now - then : then - now;
    if (d >= 1 && 2 * d >= then)
      what = "argument updates";
  }
  swap_lists(&seg->current, &seg->reference);
  seg->hint = seg->reference;
  if (what && seg->reevaluations < PYGRAPH_MAX_FLIPS)
    reevaluate(seg, what);
}

/* Segment iterations ended by this thread: a segment whose previous
 * iteration was the thread's previous one runs back to back (solo). */
static _Thread_local unsigned long long iteration_clock;

/* Before the work of a timed iteration.  Back to back with a timed
 * iteration of the same signature and kind (and graph), the sample is the
 * period between their end events: what an iteration costs in steady
 * state, host work between iterations included.  Otherwise it is a span:
 * an event before its work, one after, so other segments' or signatures'
 * work never counts - except when only the kind changed (a new run of
 * measuring turns): that iteration gives no sample, its end event starts
 * the next periods. */
static void start_timing(struct pygraph_segment *seg, cudaStream_t stream, int solo,
                         const struct pygraph_sample_tag *planned)
{
  int run = solo && seg->measure.chain && seg->timed_iter + 1 == seg->stats.iters &&
            seg->timed_hash == planned->hash;
  if (run && planned->kind != PYGRAPH_SAMPLE_NONE && seg->timed_kind == planned->kind &&
      seg->timed_variant == planned->variant)
    return;                                   /* a period */
  pygraph_measure_break(&seg->measure);
  if (!run) {                                 /* a span */
    struct pygraph_sample_tag start = {.hash = planned->hash, .kind = PYGRAPH_SAMPLE_NONE};
    pygraph_measure_record(&seg->measure, seg->backend, stream, &start);
  }
}

void pygraph_segment_end_iteration(struct pygraph_segment *seg)
{
  seg->stats.iters++;
  unsigned long long clock = ++iteration_clock;
  int solo = seg->last_clock + 1 == clock;
  seg->last_clock = clock;
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
      end_probe(seg);
    return;
  }
  struct pygraph_op_list *cur = seg->current;
  if (cur->n_ops == 0)
    return;                                   /* empty iteration: nothing to do */
  int auto_mode = measuring_mode(seg);
  /* The host clock is read only while something may be measured: a decided
   * segment replaying its graphs reads no clock (in a VM a clock read can
   * cost a syscall, on every iteration of a host-bound loop). */
  int may_time = auto_mode && !(seg->decision == PYGRAPH_DECIDED_GRAPH && all_decided(seg));
  double t0 = may_time ? now_us(seg) : 0.0;
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
  enum pygraph_turn turn = v ? measuring_turn(seg, &v, hash) : TURN_GRAPH;
  int same = !v && seg->has_reference && pygraph_same_signature(cur, seg->reference);
  int timing = auto_mode && wants_timing(seg, hash, v);
  if (timing) {
    /* What the iteration will be sampled as (NONE: a capture). */
    struct pygraph_sample_tag planned = {.hash = hash, .kind = PYGRAPH_SAMPLE_EAGER};
    if (v && turn == TURN_GRAPH && !v->decided) {
      planned.kind = PYGRAPH_SAMPLE_GRAPH;
      planned.variant = v->id;
    } else if ((v && turn != TURN_EAGER) || (!v && seg->capture_next && same)) {
      planned.kind = PYGRAPH_SAMPLE_NONE;
    }
    start_timing(seg, stream, solo, &planned);
  } else {
    pygraph_measure_break(&seg->measure);
  }
  if (v) {
    seg->distinct_streak = 0;
    switch (turn) {
    case TURN_EAGER:
      /* The graphs' nodes keep what their ref lists hold. */
      v->last_used = ++seg->clock;            /* being measured: not the LRU victim */
      execute_all(seg, cur);
      tag.kind = PYGRAPH_SAMPLE_EAGER;
      break;
    case TURN_RIVAL:
      if (!capture(seg, hash, 1))             /* its span is not counted */
        return;                               /* fault: eager for good, ops ran once */
      break;
    case TURN_GRAPH:
      if (!replay(seg, v))
        return;                               /* fault: eager for good, ops ran once */
      if (!v->decided) {
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
      execute_all(seg, cur);
      go_eager(seg, "signature never repeats");
      return;
    }
    /* Signatures that recur but never twice in a row (a cycle of several
     * launch sequences) never get captured: stop paying for recording. */
    if (!had_variants && seg->stats.captures == 0 &&
        seg->stats.iters >= PYGRAPH_SETTLE_ITERS) {
      execute_all(seg, cur);
      go_eager(seg, "launch sequence never settles");
      return;
    }
    struct pygraph_sig_stats *s = auto_mode ? sig_get(seg, hash) : NULL;
    int rejected = s && s->rejected;
    if (same && s)
      s->changed_ops = count_changed(cur, seg->reference);
    if (rejected) {
      seg->stats.mismatches += (unsigned long long)had_variants;
      execute_all(seg, cur);                  /* known not to pay */
    } else {
      seg->stable_iterations = same ? seg->stable_iterations + 1 : 1;
      if (seg->settings.indirect)
        note_arg_changes(seg, cur, same);
      if (seg->capture_next && same) {
        seg->capture_next = 0;
        seg->has_reference = 0;
        seg->stable_iterations = 0;
        v = capture(seg, hash, 0);            /* its span is not counted */
        if (!v)
          return;                             /* fault: eager for good, ops ran once */
      } else {
        seg->stats.mismatches += (unsigned long long)had_variants;
        seg->capture_next = 0;
        execute_all(seg, cur);
        tag.kind = PYGRAPH_SAMPLE_EAGER;
        swap_lists(&seg->current, &seg->reference);
        seg->hint = seg->reference;
        seg->has_reference = 1;
        seg->candidate_seen = seg->stats.iters;
        decide_capture = 1;
      }
    }
    if (rejected) {
      swap_lists(&seg->current, &seg->reference);   /* keep the pool a permutation */
      seg->hint = seg->reference;
      seg->has_reference = 0;
      seg->stable_iterations = 0;
    }
  }

  if (auto_mode) {
    if (timing) {
      tag.host_us = may_time ? (float)(now_us(seg) - t0) : 0.0f;
      pygraph_measure_record(&seg->measure, seg->backend, stream, &tag);
      seg->timed_iter = seg->stats.iters;
      seg->timed_hash = hash;
      seg->timed_kind = tag.kind;
      seg->timed_variant = tag.variant;
    }
    if (seg->measure.count)
      pygraph_measure_poll(&seg->measure, seg->backend, add_sample, seg);
    decide_variants(seg);
    if (seg->phase == PYGRAPH_PHASE_EAGER)
      return;
  }
  if (decide_capture) {
    struct pygraph_sig_stats *s = auto_mode ? sig_find(seg, hash) : NULL;
    struct pygraph_decide_input in = {
        .stable_iterations = seg->stable_iterations,
        /* Rivals do not use up PYGRAPH_MAX_CAPTURES: that bounds signatures. */
        .captures = (unsigned)(seg->stats.captures - seg->stats.rivals),
        .n_ops = (unsigned long)seg->reference->n_ops,
        .timing = auto_mode && pygraph_measure_available(&seg->measure, seg->backend),
        .eager_samples = s ? s->eager.n : 0,
        .backlog = far_behind(seg) ? seg->measure.count : 0,
        .eager_us = s && s->eager.n ? period_us(&s->eager) : 0.0,
        .trip_count = seg->region->trip_count,
        .iters_observed = seg->stats.iters,
    };
    const char *reason = NULL;
    switch (pygraph_decide(&seg->settings, &in, &reason)) {
    case PYGRAPH_KEEP_WARMING:
      break;
    case PYGRAPH_CAPTURE_NEXT:
      seg->capture_next = 1;
      if (!seg->n_variants)
        seg->phase = PYGRAPH_PHASE_CAPTURE;
      pygraph_debug_log(&seg->settings, SEG_FMT ": stable after %u iterations, capturing next",
                        SEG_ARGS(seg), seg->stable_iterations);
      break;
    case PYGRAPH_GO_EAGER:
      go_eager(seg, reason);
      return;
    }
  }
  note_behaviour(seg, miss);
}

void pygraph_segment_flush(struct pygraph_segment *seg, const char *reason)
{
  pygraph_op_list_materialize(seg->current);
  execute_all(seg, seg->current);
  seg->flushed = 1;
  seg->stats.flushes++;
  seg->last_flush_reason = reason;
  /* A flushed iteration says nothing about stability: the candidate starts
   * over.  Variants (and the lists they mirror) stay as they were. */
  seg->stable_iterations = 0;
  seg->has_reference = 0;
  seg->capture_next = 0;
  if (seg->phase == PYGRAPH_PHASE_CAPTURE)
    seg->phase = PYGRAPH_PHASE_WARMUP;
  if (seg->probe_state)
    seg->probe_state = 0;
  pygraph_debug_log(&seg->settings, SEG_FMT ": flushed after %zu deferred ops: %s",
                    SEG_ARGS(seg), seg->current->n_ops, reason);
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
