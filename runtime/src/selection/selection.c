/* selection.c - auto mode (selective deployment): per-signature samples,
 * what each iteration runs while measured (eager, or which graph), how it
 * is timed (period or span), and the verdicts: keep a graph, which of an
 * indirect graph and its direct rival, or run eagerly; hysteresis and what
 * probes show.  It owns struct pygraph_auto_mode (selection.h) and never
 * writes the segment's state.  The policy's pure parts are in decide.c. */
#include "selection/selection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selection/capture_cost.h"
#include "common/debug_log.h"
#include "recording/signature.h"

void pygraph_auto_init(struct pygraph_auto_mode *am, const struct pygraph_backend *backend,
                       const struct pygraph_settings *settings, const pygraph_region *region,
                       unsigned index, struct pygraph_variant_cache *cache,
                       const unsigned long long *iters)
{
  memset(am, 0, sizeof *am);
  am->backend = backend;
  am->settings = settings;
  am->region = region;
  am->index = index;
  am->cache = cache;
  am->iters = iters;
}

/* ---- signature statistics -------------------------------------------- */

struct pygraph_sig_stats *pygraph_auto_sig_find(struct pygraph_auto_mode *am,
                                               unsigned long long hash)
{
  for (unsigned i = 0; i < PYGRAPH_SIG_STATS; i++)
    if (am->sigs[i].last_used && am->sigs[i].hash == hash)
      return &am->sigs[i];
  return NULL;
}

static int has_live_variant(const struct pygraph_auto_mode *am, unsigned long long hash)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
    if (am->cache->variants[i].graph && am->cache->variants[i].hash == hash)
      return 1;
  return 0;
}

struct pygraph_sig_stats *pygraph_auto_sig_get(struct pygraph_auto_mode *am,
                                              unsigned long long hash)
{
  struct pygraph_sig_stats *s = pygraph_auto_sig_find(am, hash), *victim = NULL;
  if (!s) {
    for (unsigned i = 0; i < PYGRAPH_SIG_STATS; i++) {
      struct pygraph_sig_stats *c = &am->sigs[i];
      if (!c->last_used) {
        victim = c;
        break;
      }
      if (has_live_variant(am, c->hash))
        continue;
      if (!victim || c->last_used < victim->last_used)
        victim = c;
    }
    if (!victim)
      victim = &am->sigs[0];
    s = victim;
    memset(s, 0, sizeof *s);
    s->hash = hash;
    s->changed_ops = -1;
  }
  s->last_used = ++am->sig_clock;
  return s;
}

/* The median of us[from..n-1]. */
static double median_from(const struct pygraph_samples *s, unsigned from)
{
  float v[PYGRAPH_MAX_MEASURE_ITERS];
  unsigned n = s->n > from ? s->n - from : 0;
  memcpy(v, s->us + from, n * sizeof v[0]);
  for (unsigned i = 1; i < n; i++)       /* n <= 64: insertion sort */
    for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
      float t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return n ? (n % 2 ? v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + v[n / 2])) : 0.0;
}

static double median(const struct pygraph_samples *s)
{
  return median_from(s, 0);
}

/* The mean host time the runtime itself spent per sampled iteration. */
static double host_mean(const struct pygraph_samples *s)
{
  return s->n ? s->host_sum / s->n : 0.0;
}

/* The cost of an iteration: its stream-order period, but never less than
 * the host time the runtime itself spent on it. */
double pygraph_auto_period_us(const struct pygraph_samples *s)
{
  double p = median(s), host = host_mean(s);
  return host > p ? host : p;
}

/* A side's cost once its samples can be trusted: the first one (at
 * start-up, or the first replay after a capture: often cold) is never
 * trusted alone, and once later ones exist it no longer counts (the sort
 * benchmark's eager 37.6 us then 18.3 us made a 23.6 us graph look faster
 * by their median).  0 = not enough samples yet. */
static int trusted_cost(const struct pygraph_samples *s, double *us)
{
  if (s->n < 2)
    return 0;
  double p = median_from(s, 1), host = host_mean(s);
  *us = host > p ? host : p;
  return 1;
}

/* A side's cost as decisions, the report and the debug log see it: trusted
 * if it can be, else what was read (0 only with no sample). */
double pygraph_auto_cost_us(const struct pygraph_samples *s)
{
  double us;
  return trusted_cost(s, &us) ? us : pygraph_auto_period_us(s);
}

/* The fastest and the slowest sample, as costs (never below the host
 * time, as pygraph_auto_period_us). */
static void extremes(const struct pygraph_samples *s, double *lo, double *hi)
{
  double host = host_mean(s);
  *lo = *hi = 0.0;
  for (unsigned i = 0; i < s->n; i++) {
    double v = s->us[i] > host ? s->us[i] : host;
    if (i == 0 || v < *lo)
      *lo = v;
    if (i == 0 || v > *hi)
      *hi = v;
  }
}

/* Do the samples so far settle graph against eager, before full windows?
 * By the extremes from PYGRAPH_CLEAR_MIN samples a side (decide.h); for
 * the graph also by the medians from PYGRAPH_MEASURE_MIN.  Dropping a
 * graph takes every sample: the first replays of a fresh graph can be
 * slow, and in a loop that synchronizes every iteration (bfs) the medians
 * of 3 once made a graph look 25% slower than it is.  Few eager samples
 * matter beyond their own cost: on the H200 a multi-stream graph runs ~10%
 * slower for good once 4 eager iterations of its loop ran, before or after
 * its capture (bench/results.md, also with a hand-written graph). */
static int clear_case(const struct pygraph_auto_mode *am, const struct pygraph_samples *eager,
                      const struct pygraph_samples *graph, enum pygraph_verdict *verdict)
{
  unsigned first = pygraph_measure_first(am->settings);
  if (eager->n >= first && graph->n >= first &&
      pygraph_clear_verdict(pygraph_auto_cost_us(eager), pygraph_auto_period_us(graph),
                            verdict) &&
      *verdict == PYGRAPH_VERDICT_GRAPH)
    return 1;
  if (eager->n < PYGRAPH_CLEAR_MIN || graph->n < PYGRAPH_CLEAR_MIN)
    return 0;
  double elo, ehi, glo, ghi;
  extremes(eager, &elo, &ehi);
  extremes(graph, &glo, &ghi);
  return pygraph_clear_verdict_bounds(elo, ehi, glo, ghi, verdict);
}

void pygraph_auto_add_sample(void *ctx, const struct pygraph_sample_tag *tag, double us)
{
  struct pygraph_auto_mode *am = ctx;
  struct pygraph_sig_stats *s = pygraph_auto_sig_find(am, tag->hash);
  if (!s || tag->kind == PYGRAPH_SAMPLE_NONE)
    return;
  struct pygraph_samples *smp = tag->kind == PYGRAPH_SAMPLE_EAGER ? &s->eager : NULL;
  for (unsigned i = 0; !smp && i < PYGRAPH_MAX_VARIANTS; i++)
    if (am->cache->variants[i].graph && am->cache->variants[i].id == tag->variant)
      smp = &am->cache->variants[i].samples;
  if (!smp || smp->n >= am->settings->measure_iters)
    return;
  smp->us[smp->n++] = (float)us;
  smp->host_sum += tag->host_us;
  if (smp == &s->eager)
    pygraph_debug_log(am->settings, SEG_FMT ": sample eager %.1f us (runtime host %.1f us)",
                      SEG_ARGS(am), us, (double)tag->host_us);
  else
    pygraph_debug_log(am->settings,
                      SEG_FMT ": sample graph #%llu %.1f us (runtime host %.1f us)",
                      SEG_ARGS(am), tag->variant, us, (double)tag->host_us);
}

/* ---- decisions ------------------------------------------------------- */

void pygraph_auto_set_decision(struct pygraph_auto_mode *am, enum pygraph_decision_state d,
                              const char *why)
{
  if (am->decision != PYGRAPH_UNDECIDED && am->decision != d)
    am->flips++;
  am->decision = d;
  snprintf(am->why, sizeof am->why, "%s", why);
}

/* The other live, undecided graph of v's signature (its direct rival or
 * the indirect graph it rivals), or NULL. */
static struct pygraph_variant *rival_of(struct pygraph_auto_mode *am,
                                        const struct pygraph_variant *v)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    struct pygraph_variant *r = &am->cache->variants[i];
    if (r != v && r->graph && !r->decided && r->hash == v->hash)
      return r;
  }
  return NULL;
}

/* A variant's signature no longer pays as a graph: it runs eagerly. */
static void reject_variant(struct pygraph_auto_mode *am, struct pygraph_variant *v,
                           struct pygraph_sig_stats *s, double eager_us, double graph_us,
                           const char *why)
{
  s->rejected = 1;
  s->changed_ops = v->changed_ops;            /* what probes compare against */
  pygraph_variant_cache_drop(am->cache, v);
  int any_graph = 0;
  for (unsigned j = 0; j < PYGRAPH_MAX_VARIANTS; j++)
    any_graph |= am->cache->variants[j].graph && am->cache->variants[j].decided;
  if (!any_graph) {                           /* else the segment stays graph */
    am->eager_us = eager_us;
    am->graph_us = graph_us;
  }
  if (am->cache->n_variants == 0)
    snprintf(am->eager_why, sizeof am->eager_why, "%s", why);   /* the segment goes eager */
  else if (!any_graph)
    snprintf(am->why, sizeof am->why, "%s", why);   /* others still measuring */
}

/* An indirect graph that has not met its direct rival yet (captured at
 * its first measuring turn).  Not one with many indirect nodes: its direct
 * rival would pay a per-node update (about 1 us of host time on the H200)
 * for each of them every replay, where the indirect graph pays one copy;
 * measuring it only costs (tiny_chain batched 32 iterations a graph: 1023
 * indirect nodes, its direct rival's turns 5,000-29,000 node updates). */
static int rival_pending(const struct pygraph_auto_mode *am, const struct pygraph_variant *v,
                         const struct pygraph_sig_stats *s)
{
  return v->indirect.n_nodes && v->indirect.n_nodes <= PYGRAPH_RIVAL_MAX_INDIRECT &&
         !v->direct_only && !s->challenged && am->cache->n_variants < am->settings->variants;
}

/* Of an indirect graph and its direct rival, `best` stays. */
static void keep_rival(struct pygraph_auto_mode *am, struct pygraph_variant *best,
                       struct pygraph_variant *loser, double best_us, double loser_us)
{
  snprintf(best->rival, sizeof best->rival, "; %s graph %.1f us vs %s %.1f us",
           best->direct_only ? "direct" : "indirect", best_us,
           loser->direct_only ? "direct" : "indirect", loser_us);
  pygraph_debug_log(am->settings, SEG_FMT ": keeping the%s", SEG_ARGS(am), best->rival + 1);
  pygraph_variant_cache_drop(am->cache, loser);
}

static void keep_variant(struct pygraph_auto_mode *am, struct pygraph_variant *v, double eager_us,
                         double graph_us, const char *why)
{
  v->decided = 1;
  am->eager_us = eager_us;
  am->graph_us = graph_us;
  am->has_baseline = 0;
  am->block_iters = am->block_updates = am->block_misses = 0;
  pygraph_auto_set_decision(am, PYGRAPH_DECIDED_GRAPH, why);
}

/* The cost verdict on best (with the figures it was given): kept, or its
 * signature runs eagerly. */
static void apply_verdict(struct pygraph_auto_mode *am, struct pygraph_variant *best,
                          struct pygraph_sig_stats *s, const struct pygraph_cost_input *in,
                          enum pygraph_verdict verdict, const char *why)
{
  pygraph_debug_log(am->settings, SEG_FMT ": variant %u: %s", SEG_ARGS(am),
                    (unsigned)(best - am->cache->variants), why);
  if (verdict == PYGRAPH_VERDICT_GRAPH)
    keep_variant(am, best, in->eager_us, in->graph_us, why);
  else
    reject_variant(am, best, s, in->eager_us, in->graph_us, why);
}

/* PYGRAPH_VERDICT_ITERS iterations of v's signature without a verdict
 * (the GPU far behind, a rival never timed, windows never full): decided
 * now on the trusted samples read so far.  A graph without them goes; so
 * do all when eager has none (nothing shows that a graph pays). */
static void settle_overdue(struct pygraph_auto_mode *am, struct pygraph_variant *v,
                           struct pygraph_variant *r, struct pygraph_sig_stats *s)
{
  double gv = 0, gr = 0, eager_us = 0;
  int tv = trusted_cost(&v->samples, &gv), tr = r && trusted_cost(&r->samples, &gr);
  struct pygraph_variant *best = tv && (!tr || gv <= gr) ? v : tr ? r : NULL;
  struct pygraph_variant *other = best == r ? v : r;
  char why[sizeof am->why];
  if (best && other && (best == v ? tr : tv))
    keep_rival(am, best, other, best == v ? gv : gr, best == v ? gr : gv);
  else if (best && other)
    pygraph_variant_cache_drop(am->cache, other);     /* never timed: nothing to compare */
  if (!best || !trusted_cost(&s->eager, &eager_us)) {
    const struct pygraph_variant *shown = best ? best : v;
    double e = pygraph_auto_cost_us(&s->eager), g = pygraph_auto_cost_us(&shown->samples);
    snprintf(why, sizeof why, "no verdict in %u iterations (eager %.1f us x%u, graph %.1f us x%u)",
             PYGRAPH_VERDICT_ITERS, e, s->eager.n, g, shown->samples.n);
    pygraph_debug_log(am->settings, SEG_FMT ": %s", SEG_ARGS(am), why);
    if (!best && r)
      pygraph_variant_cache_drop(am->cache, r);
    reject_variant(am, best ? best : v, s, e, g, why);
    return;
  }
  struct pygraph_cost_input in = {.eager_us = eager_us, .graph_us = best == v ? gv : gr,
                                  .capture_us = 0, .trip_count = am->region->trip_count,
                                  .iters_observed = *am->iters};
  enum pygraph_verdict verdict = pygraph_decide_cost(am->settings, &in, why, sizeof why);
  size_t len = strlen(why);
  snprintf(why + len, sizeof why - len, "%s; after %u iterations", best->rival,
           PYGRAPH_VERDICT_ITERS);
  apply_verdict(am, best, s, &in, verdict, why);
}

/* While still measuring, the report shows what was read so far. */
static void note_undecided(struct pygraph_auto_mode *am)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *v = &am->cache->variants[i];
    const struct pygraph_sig_stats *s = v->graph ? pygraph_auto_sig_find(am, v->hash) : NULL;
    if (!s || v->decided)
      continue;
    am->eager_us = pygraph_auto_cost_us(&s->eager);
    am->graph_us = pygraph_auto_cost_us(&v->samples);
    snprintf(am->why, sizeof am->why,
             "undecided after %u iterations (eager x%u, graph x%u samples)", v->samples.iters,
             s->eager.n, v->samples.n);
    return;
  }
}

/* Compares each undecided signature's graphs (one, or an indirect one and
 * its direct rival) with each other and with its eager runs.  A clear case
 * is settled by the first samples; a close one waits for full windows
 * (taken in turn, see pygraph_auto_measuring_turn). */
const char *pygraph_auto_decide_variants(struct pygraph_auto_mode *am)
{
  am->eager_why[0] = '\0';
  if (am->measure.state < 0) {
    /* Timing broke after a capture: keep what runs, unmeasured. */
    for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
      if (am->cache->variants[i].graph && !am->cache->variants[i].decided) {
        am->cache->variants[i].decided = 1;
        pygraph_auto_set_decision(am, PYGRAPH_DECIDED_GRAPH, "unmeasured: no timing events");
      }
    return NULL;
  }
  unsigned window = am->settings->measure_iters;
  unsigned first = pygraph_measure_first(am->settings);
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    struct pygraph_variant *v = &am->cache->variants[i];
    if (!v->graph || v->decided)
      continue;
    struct pygraph_variant *r = rival_of(am, v);
    if (r && r < v)
      continue;                               /* the pair is handled from r */
    struct pygraph_sig_stats *s = pygraph_auto_sig_find(am, v->hash);
    if (s && v->samples.iters >= PYGRAPH_VERDICT_ITERS) {
      settle_overdue(am, v, r, s);
      continue;
    }
    if (!s || v->samples.n < first || (r && r->samples.n < first) ||
        (!r && rival_pending(am, v, s)))
      continue;
    int graphs_full = v->samples.n >= window && (!r || r->samples.n >= window);
    double gv = pygraph_auto_period_us(&v->samples);
    double gr = r ? pygraph_auto_period_us(&r->samples) : 0.0;
    enum pygraph_verdict early;
    /* Which graph: the rival wins only when measured faster. */
    if (r && !graphs_full && !pygraph_clear_verdict(gv, gr, &early))
      continue;
    struct pygraph_variant *best = r && gr < gv ? r : v;
    if (r)
      keep_rival(am, best, best == v ? r : v, best == v ? gv : gr, best == v ? gr : gv);
    const char *pair = best->rival;           /* kept for the verdict on eager */
    double graph_us = best == v ? gv : gr;
    char why[sizeof am->why];
    if (s->eager.n == 0 && graphs_full) {
      best->decided = 1;
      snprintf(why, sizeof why, "eager unmeasured%s", pair);
      pygraph_auto_set_decision(am, PYGRAPH_DECIDED_GRAPH, why);
      continue;
    }
    if (!(graphs_full && s->eager.n >= window) &&
        !clear_case(am, &s->eager, &best->samples, &early))
      continue;
    struct pygraph_cost_input in = {
        .eager_us = pygraph_auto_period_us(&s->eager), .graph_us = graph_us,
        /* The capture is already paid when this is decided: what counts
         * from here on is the span (pygraph_decide_cost amortizes a capture
         * that is still to be paid). */
        .capture_us = 0, .trip_count = am->region->trip_count,
        .iters_observed = *am->iters};
    enum pygraph_verdict verdict = pygraph_decide_cost(am->settings, &in, why, sizeof why);
    size_t len = strlen(why);
    snprintf(why + len, sizeof why - len, "%s", pair);
    apply_verdict(am, best, s, &in, verdict, why);
  }
  if (am->decision == PYGRAPH_UNDECIDED)
    note_undecided(am);
  return am->eager_why[0] ? am->eager_why : NULL;
}

/* Start measuring again (bounded: PYGRAPH_MAX_FLIPS per segment). */
static void note_reevaluation(struct pygraph_auto_mode *am, const char *what)
{
  am->reevaluations++;
  am->has_baseline = 0;
  am->block_iters = am->block_updates = am->block_misses = 0;
  pygraph_debug_log(am->settings, SEG_FMT ": behaviour changed (%s), re-evaluating (%u/%u)",
                    SEG_ARGS(am), what, am->reevaluations, PYGRAPH_MAX_FLIPS);
}

/* From decided-eager (a probe saw a change): measure everything afresh,
 * eager first.  The state machine starts its warm-up over. */
void pygraph_auto_restart(struct pygraph_auto_mode *am, const char *what)
{
  note_reevaluation(am, what);
  memset(am->sigs, 0, sizeof am->sigs);
}

/* From decided-graph: re-measure the graphs against the eager periods. */
static void remeasure_graphs(struct pygraph_auto_mode *am, const char *what)
{
  note_reevaluation(am, what);
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    struct pygraph_variant *v = &am->cache->variants[i];
    if (!v->graph)
      continue;
    v->decided = 0;
    memset(&v->samples, 0, sizeof v->samples);
  }
}

/* Are all variants decided?  One whose signature has not come for
 * PYGRAPH_BEHAVIOUR_BLOCK iterations does not count: measuring resumes if
 * it comes back, rather than timing every iteration until then. */
static int all_decided(const struct pygraph_auto_mode *am)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *v = &am->cache->variants[i];
    if (v->graph && !v->decided && *am->iters - v->seen_iter <= PYGRAPH_BEHAVIOUR_BLOCK)
      return 0;
  }
  return 1;
}

/* Hysteresis for a segment decided graph: per block of iterations, the
 * node updates per iteration and the share of misses; a marked change from
 * the block after the decision re-measures. */
void pygraph_auto_note_behaviour(struct pygraph_auto_mode *am, int miss,
                                 unsigned long long iter_updates)
{
  if (!pygraph_auto_enabled(am->settings) || am->decision != PYGRAPH_DECIDED_GRAPH ||
      !all_decided(am))
    return;
  am->block_iters++;
  am->block_updates += iter_updates;
  am->block_misses += (unsigned long long)miss;
  if (am->block_iters < PYGRAPH_BEHAVIOUR_BLOCK)
    return;
  struct pygraph_behaviour now = {
      .updates_per_iter = (double)am->block_updates / (double)am->block_iters,
      .miss_share = (double)am->block_misses / (double)am->block_iters};
  am->block_iters = am->block_updates = am->block_misses = 0;
  if (!am->has_baseline) {
    am->baseline = now;
    am->has_baseline = 1;
    return;
  }
  if (am->reevaluations < PYGRAPH_MAX_FLIPS && pygraph_behaviour_changed(&am->baseline, &now))
    remeasure_graphs(am, "updates or signature mix");
}

/* ---- what runs while measuring, and how it is timed ------------------ */

/* Is this iteration worth timing?  While a variant is undecided, or while
 * this signature (not a graph yet, not rejected) lacks eager samples - only
 * those a capture waits for (PYGRAPH_EAGER_BEFORE_CAPTURE) while its capture
 * is put off for cost: timing more then cost merge ~13 us per timed
 * iteration, 12 of each region's 30. */
int pygraph_auto_wants_timing(struct pygraph_auto_mode *am, unsigned long long hash,
                             const struct pygraph_variant *v)
{
  if (!all_decided(am))
    return 1;
  if (v)
    return 0;
  const struct pygraph_sig_stats *s = pygraph_auto_sig_find(am, hash);
  if (!s)
    return 1;
  unsigned wanted = s->put_off ? pygraph_eager_before_capture(am->settings)
                               : am->settings->measure_iters;
  return !s->rejected && pygraph_auto_eager_planned(am, hash) < wanted;
}

unsigned pygraph_auto_eager_planned(struct pygraph_auto_mode *am, unsigned long long hash)
{
  const struct pygraph_sig_stats *s = pygraph_auto_sig_find(am, hash);
  struct pygraph_sample_tag tag = {.hash = hash, .kind = PYGRAPH_SAMPLE_EAGER};
  return (s ? s->eager.n : 0) + pygraph_measure_in_flight(&am->measure, &tag);
}

/* Does one side of a measuring turn still need timed iterations?  Samples
 * recorded but not read yet count as taken (a GPU far behind would else
 * keep the sides taking turns for as long as its queue is deep), and the
 * first PYGRAPH_MEASURE_MIN are awaited before more are planned: a clear
 * case needs no more. */
static int side_needs(const struct pygraph_auto_mode *am, const struct pygraph_samples *smp,
                      const struct pygraph_sample_tag *tag)
{
  unsigned window = am->settings->measure_iters;
  unsigned first = pygraph_measure_first(am->settings);
  unsigned target = smp->n >= first ? window : first;
  return smp->n + pygraph_measure_in_flight(&am->measure, tag) < target;
}

/* A young segment (its first PYGRAPH_YOUNG_ITERS iterations) whose timing
 * events lag PYGRAPH_BACKLOG_EVENTS behind: the GPU is busy with earlier
 * work, launch costs hide in its queue, and a short loop would be over
 * before samples came back.  Older segments just wait for their samples. */
int pygraph_auto_far_behind(const struct pygraph_auto_mode *am)
{
  return am->measure.count >= PYGRAPH_BACKLOG_EVENTS && *am->iters < PYGRAPH_YOUNG_ITERS;
}

static int eager_clearly_slower(const struct pygraph_auto_mode *am,
                                const struct pygraph_samples *eager,
                                const struct pygraph_variant *g)
{
  enum pygraph_verdict verdict;
  return g && clear_case(am, eager, &g->samples, &verdict) && verdict == PYGRAPH_VERDICT_GRAPH;
}

/* Do v's own samples show it slower than eager runs (both trusted)? */
static int graph_shown_slower(const struct pygraph_sig_stats *s, const struct pygraph_variant *v)
{
  double eager_us, graph_us;
  return trusted_cost(&s->eager, &eager_us) && trusted_cost(&v->samples, &graph_us) &&
         graph_us > eager_us;
}

/* One more iteration of hash's signature for each of its undecided graphs
 * (bounded by PYGRAPH_VERDICT_ITERS). */
static void count_undecided(struct pygraph_auto_mode *am, unsigned long long hash)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    struct pygraph_variant *v = &am->cache->variants[i];
    if (v->graph && !v->decided && v->hash == hash)
      v->samples.iters++;
  }
}

/* While v's signature is measured: what runs this iteration.  Eager runs
 * and each undecided graph of the signature take turns, in runs of
 * PYGRAPH_TURN_RUN iterations, until their windows are full, so all see
 * the same conditions (*pv may become the rival); an indirect graph first
 * gets a direct rival, captured from this iteration.  Not while the GPU is
 * far behind: samples would come too late. */
enum pygraph_turn pygraph_auto_measuring_turn(struct pygraph_auto_mode *am,
                                              struct pygraph_variant **pv, int enabled,
                                              unsigned long long hash)
{
  struct pygraph_variant *v = *pv;
  if (v->decided || !enabled)
    return TURN_GRAPH;
  count_undecided(am, hash);
  struct pygraph_sig_stats *s = pygraph_auto_sig_find(am, hash);
  if (!s)
    return TURN_GRAPH;
  /* What runs when no side is measured now: not a graph whose samples
   * show it slower than eager. */
  enum pygraph_turn idle = graph_shown_slower(s, v) ? TURN_EAGER : TURN_GRAPH;
  if (am->measure.state <= 0 || pygraph_auto_far_behind(am))
    return idle;
  struct pygraph_variant *r = rival_of(am, v);
  if (!r && rival_pending(am, v, s)) {
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
  struct pygraph_sample_tag tags[3] = {
      {.hash = hash, .kind = PYGRAPH_SAMPLE_EAGER},
      {.hash = hash, .kind = PYGRAPH_SAMPLE_GRAPH, .variant = side[1]->id},
      {.hash = hash, .kind = PYGRAPH_SAMPLE_GRAPH, .variant = side[2] ? side[2]->id : 0}};
  int needs[3] = {side_needs(am, &s->eager, &tags[0]),
                  side_needs(am, &side[1]->samples, &tags[1]),
                  side[2] && side_needs(am, &side[2]->samples, &tags[2])};
  /* Eager clearly slower than a graph already: only the two graphs still
   * need telling apart, eager runs would only cost (should the other graph
   * win and not be clearly faster, eager turns resume then). */
  if (needs[0] && (eager_clearly_slower(am, &s->eager, side[1]) ||
                   eager_clearly_slower(am, &s->eager, side[2])))
    needs[0] = 0;
  /* A full ring records nothing: no side would get its sample. */
  if (am->measure.count >= PYGRAPH_MEASURE_RING)
    return idle == TURN_EAGER ? TURN_EAGER : TURN_WAIT;
  unsigned c = s->turn % 3;
  if (!(s->run_left && needs[c])) {           /* next side that still needs samples */
    unsigned k;
    for (k = 1; k <= 3 && !needs[(s->turn + k) % 3]; k++)
      ;
    if (k > 3)                                /* all planned: samples still in flight */
      return idle == TURN_EAGER ? TURN_EAGER : TURN_WAIT;
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

/* An iteration with fewer ops than PYGRAPH_MIN_OPS that auto can never
 * capture (pygraph_decide keeps it eager whatever its timing). */
static int below_min_ops(const struct pygraph_auto_mode *am, const struct pygraph_op_list *cur)
{
  return am->settings->mode == PYGRAPH_MODE_AUTO && cur->n_ops < am->settings->min_ops;
}

void pygraph_auto_end_probe_timing(struct pygraph_auto_mode *am)
{
  if (am->measure.count)
    pygraph_measure_poll(&am->measure, am->backend, pygraph_auto_add_sample, am);
  pygraph_measure_release(&am->measure, am->backend);
}

/* A probe of a decided-eager segment: did its behaviour change? */
const char *pygraph_auto_probe_change(struct pygraph_auto_mode *am,
                                      const struct pygraph_op_list *cur,
                                      const struct pygraph_op_list *prev)
{
  unsigned long long hash = pygraph_signature_hash(cur);
  struct pygraph_sig_stats *s = pygraph_auto_sig_find(am, hash);
  if (below_min_ops(am, cur))
    return NULL;                              /* can never be captured: nothing to re-evaluate */
  if (!s || !s->rejected)
    return "new signature";
  if (pygraph_same_signature(cur, prev) && s->changed_ops >= 0) {
    long now = pygraph_count_changed_params(cur, prev), then = s->changed_ops;
    long d = now > then ? now - then : then - now;
    if (d >= 1 && 2 * d >= then)
      return "argument updates";
  }
  return NULL;
}

/* Before the work of a timed iteration.  Back to back with a timed
 * iteration of the same signature and kind (and graph), the sample is the
 * period between their end events: what an iteration costs in steady
 * state, host work between iterations included.  Otherwise it is a span:
 * an event before its work, one after, so other segments' or signatures'
 * work never counts - except when only the kind changed (a new run of
 * measuring turns): that iteration gives no sample, its end event starts
 * the next periods. */
void pygraph_auto_start_timing(struct pygraph_auto_mode *am, cudaStream_t stream, int solo,
                              const struct pygraph_sample_tag *planned)
{
  int run = solo && am->measure.chain && am->timed_iter + 1 == *am->iters &&
            am->timed_hash == planned->hash;
  if (run && planned->kind != PYGRAPH_SAMPLE_NONE && am->timed_kind == planned->kind &&
      am->timed_variant == planned->variant)
    return;                                   /* a period */
  pygraph_measure_break(&am->measure);
  if (!run) {                                 /* a span */
    struct pygraph_sample_tag start = {.hash = planned->hash, .kind = PYGRAPH_SAMPLE_NONE};
    pygraph_measure_record(&am->measure, am->backend, stream, &start);
  }
}

/* Segment iterations ended by this thread: a segment whose previous
 * iteration was the thread's previous one runs back to back (solo). */
static _Thread_local unsigned long long iteration_clock;

int pygraph_auto_solo(struct pygraph_auto_mode *am)
{
  unsigned long long clock = ++iteration_clock;
  int solo = am->last_clock + 1 == clock;
  am->last_clock = clock;
  return solo;
}

void pygraph_auto_end_timing(struct pygraph_auto_mode *am, cudaStream_t stream,
                             const struct pygraph_sample_tag *tag)
{
  pygraph_measure_record(&am->measure, am->backend, stream, tag);
  am->timed_iter = *am->iters;
  am->timed_hash = tag->hash;
  am->timed_kind = tag->kind;
  am->timed_variant = tag->variant;
}

/* An event not done yet is tried again PYGRAPH_POLL_BACKOFF iterations
 * later: a GPU far behind costs no query per iteration. */
void pygraph_auto_poll(struct pygraph_auto_mode *am)
{
  if (!am->measure.count)
    return;
  if (am->poll_backoff)
    am->poll_backoff--;
  else if (!pygraph_measure_poll(&am->measure, am->backend, pygraph_auto_add_sample, am) &&
           am->measure.count > 1)
    am->poll_backoff = PYGRAPH_POLL_BACKOFF;
}

/* Measuring may resume later (e.g. after a change of behaviour) and
 * creates the events again. */
void pygraph_auto_release_idle(struct pygraph_auto_mode *am, int timed)
{
  if (!timed && *am->iters - am->timed_iter > PYGRAPH_BEHAVIOUR_BLOCK &&
      pygraph_measure_release(&am->measure, am->backend))
    pygraph_debug_log(am->settings, SEG_FMT ": timing events released", SEG_ARGS(am));
}

void pygraph_auto_stop(struct pygraph_auto_mode *am)
{
  pygraph_measure_free(&am->measure, am->backend);
}

/* ---- what the state machine tells it ------------------------------------ */

void pygraph_auto_note_capture(struct pygraph_auto_mode *am, unsigned long long hash,
                               unsigned long n_ops, double us, int decided)
{
  struct pygraph_sig_stats *s = pygraph_auto_sig_get(am, hash);
  s->capture_us = us;
  if (s->capture_us > 0)                             /* 0: no clock */
    pygraph_capture_cost_note(n_ops, s->capture_us);
  if (decided && am->decision == PYGRAPH_UNDECIDED)
    pygraph_auto_set_decision(am, PYGRAPH_DECIDED_GRAPH,
                              am->settings->mode == PYGRAPH_MODE_GRAPH
                                  ? "PYGRAPH_MODE=graph"
                                  : "unmeasured: no timing events");
}

void pygraph_auto_note_changed_ops(struct pygraph_variant *v, long changed_ops)
{
  v->changed_ops = changed_ops;
}

void pygraph_auto_note_miss_changes(struct pygraph_sig_stats *s, long changed_ops)
{
  s->changed_ops = changed_ops;
}

void pygraph_auto_note_put_off(struct pygraph_sig_stats *s, int put_off)
{
  s->put_off = put_off;
}
