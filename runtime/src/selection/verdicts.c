/* verdicts.c - what the samples decide (verdicts.h).  Nothing is
 * concluded from fewer than PYGRAPH_MEASURE_MIN samples a side (policy.h).
 * Clear cases are settled from the first samples by their extremes (every
 * sample agrees: an outlier such as a cold first iteration can only make a
 * case look closer; keeping a graph leaves its first replay out, which can
 * be slow); close cases wait for full windows and compare medians by the
 * margin; an undecided graph runs outside its turns only when medians of
 * the floor of samples show it faster. */
#include "selection/verdicts.h"

#include <stdio.h>
#include <string.h>

#include "common/debug_log.h"
#include "recording/signature.h"
#include "selection/signatures.h"

int pygraph_verdicts_clear_case(struct pygraph_selection *sel, const struct pygraph_samples *eager,
                                const struct pygraph_samples *graph,
                                enum pygraph_verdict *verdict)
{
  unsigned first = pygraph_measure_first(sel->settings);
  if (eager->n < first || graph->n < first)
    return 0;
  /* Every sample agrees (no median of a few: two outliers of three would
   * make it), except the graph's first when keeping it: a fresh graph's
   * first replay can be slow, which would only keep a clear case waiting. */
  double elo, ehi, glo, ghi, warm_lo, warm_hi;
  pygraph_samples_extremes(eager, 0, &elo, &ehi);
  pygraph_samples_extremes(graph, 0, &glo, &ghi);
  pygraph_samples_extremes(graph, 1, &warm_lo, &warm_hi);
  return pygraph_clear_verdict_bounds(elo, ehi, glo, warm_hi, verdict);
}

/* One graph's settled cost, if it shows faster than eager's (*us set). */
static int settled_faster(struct pygraph_selection *sel, const struct pygraph_variant *g,
                          double eager_us, double *us)
{
  unsigned floor = pygraph_measure_first(sel->settings);
  return g && pygraph_samples_settled_us(&pygraph_sel_verdict(sel, g)->samples, floor, us) &&
         pygraph_faster_by_margin(sel->settings, eager_us, *us);
}

const struct pygraph_variant *pygraph_verdicts_shown_faster(struct pygraph_selection *sel,
                                                            const struct pygraph_sig_stats *s,
                                                            const struct pygraph_variant *v)
{
  double eager_us, gv = 0, gr = 0;
  if (!pygraph_samples_settled_us(&s->eager, pygraph_measure_first(sel->settings), &eager_us))
    return NULL;
  const struct pygraph_variant *r = pygraph_sel_rival_of(sel, v);
  int fv = settled_faster(sel, v, eager_us, &gv), fr = settled_faster(sel, r, eager_us, &gr);
  if (fv && fr)
    return gr < gv ? r : v;
  return fv ? v : fr ? r : NULL;
}

double pygraph_verdicts_sibling_gain(const struct pygraph_selection *sel)
{
  int shown = sel->decision == PYGRAPH_DECIDED_GRAPH ||
              (sel->decision == PYGRAPH_UNDECIDED && sel->undecided_graph);
  if (!shown || !(sel->graph_us > 0) || !(sel->graph_us < sel->eager_us))
    return 0.0;
  return (sel->eager_us - sel->graph_us) / sel->eager_us;
}

/* A graph a verdict kept, of another signature than v's. */
static int kept_sibling(struct pygraph_selection *sel, const struct pygraph_variant *v)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *w = pygraph_sel_live(sel, i);
    if (w && w->hash != v->hash && pygraph_sel_verdict(sel, w)->decided)
      return 1;
  }
  return 0;
}

int pygraph_verdicts_runs_on_sibling(struct pygraph_selection *sel,
                                     const struct pygraph_variant *v)
{
  const struct pygraph_graph_verdict *g = pygraph_sel_verdict(sel, v);
  return sel->measure.state >= 0 && sel->decision == PYGRAPH_DECIDED_GRAPH && !g->decided &&
         g->samples.n < pygraph_measure_first(sel->settings) &&
         g->samples.iters < PYGRAPH_SIBLING_TRUST_ITERS &&
         pygraph_sibling_clearly_faster(pygraph_verdicts_sibling_gain(sel)) &&
         kept_sibling(sel, v);
}

void pygraph_verdicts_set_decision(struct pygraph_selection *sel, enum pygraph_decision_state d,
                                   const char *why)
{
  if (sel->decision != PYGRAPH_UNDECIDED && sel->decision != d)
    sel->flips++;
  sel->decision = d;
  snprintf(sel->why, sizeof sel->why, "%s", why);
}

/* A graph no longer pays: its signature runs eagerly (never recaptured). */
static void reject_variant(struct pygraph_selection *sel, const struct pygraph_variant *v,
                           struct pygraph_sig_stats *s, double eager_us, double graph_us,
                           const char *why)
{
  s->rejected = 1;
  s->changed_ops = pygraph_sel_verdict(sel, v)->changed_ops;   /* what probes compare against */
  pygraph_sel_drop(sel, v);
  int any_graph = 0;
  for (unsigned j = 0; j < PYGRAPH_MAX_VARIANTS; j++) {
    const struct pygraph_variant *w = pygraph_sel_live(sel, j);
    any_graph |= w && pygraph_sel_verdict(sel, w)->decided;
  }
  if (!any_graph) {                           /* else the segment stays graph */
    sel->eager_us = eager_us;
    sel->graph_us = graph_us;
  }
  if (pygraph_sel_n_live(sel) == 0)
    snprintf(sel->eager_why, sizeof sel->eager_why, "%s", why);   /* the segment goes eager */
  else if (!any_graph)
    snprintf(sel->why, sizeof sel->why, "%s", why);   /* others still measuring */
}

/* Not one with many indirect nodes: its direct rival would pay a per-node
 * update for each of them every replay, where the indirect graph pays one
 * copy; measuring it would only cost. */
int pygraph_verdicts_rival_pending(struct pygraph_selection *sel, const struct pygraph_variant *v,
                                   const struct pygraph_sig_stats *s)
{
  return v->indirect.n_nodes && v->indirect.n_nodes <= PYGRAPH_RIVAL_MAX_INDIRECT &&
         !v->direct_only && !s->challenged && pygraph_sel_n_live(sel) < sel->settings->variants;
}

/* Of an indirect graph and its direct rival, `best` stays. */
static void keep_rival(struct pygraph_selection *sel, const struct pygraph_variant *best,
                       const struct pygraph_variant *loser, double best_us, double loser_us)
{
  char *rival = pygraph_sel_verdict(sel, best)->rival;
  snprintf(rival, sizeof sel->graphs[0].rival, "; %s graph %.1f us vs %s %.1f us",
           best->direct_only ? "direct" : "indirect", best_us,
           loser->direct_only ? "direct" : "indirect", loser_us);
  pygraph_debug_log(sel->settings, SEG_FMT ": keeping the%s", SEG_ARGS(sel), rival + 1);
  pygraph_sel_drop(sel, loser);
}

static void keep_variant(struct pygraph_selection *sel, const struct pygraph_variant *v,
                         double eager_us, double graph_us, const char *why)
{
  pygraph_sel_verdict(sel, v)->decided = 1;
  sel->eager_us = eager_us;
  sel->graph_us = graph_us;
  sel->has_baseline = 0;
  sel->block_iters = sel->block_updates = sel->block_misses = 0;
  pygraph_verdicts_set_decision(sel, PYGRAPH_DECIDED_GRAPH, why);
}

/* The cost verdict on best: kept, or its signature runs eagerly. */
static void apply_verdict(struct pygraph_selection *sel, const struct pygraph_variant *best,
                          struct pygraph_sig_stats *s, const struct pygraph_cost_input *in,
                          enum pygraph_verdict verdict, const char *why)
{
  pygraph_debug_log(sel->settings, SEG_FMT ": variant %u: %s", SEG_ARGS(sel),
                    (unsigned)(best - sel->cache->variants), why);
  if (verdict == PYGRAPH_VERDICT_GRAPH)
    keep_variant(sel, best, in->eager_us, in->graph_us, why);
  else
    reject_variant(sel, best, s, in->eager_us, in->graph_us, why);
}

/* PYGRAPH_VERDICT_ITERS iterations of v's signature without a verdict:
 * decided now on the samples read so far, settled ones only (the floor,
 * PYGRAPH_MEASURE_MIN a side: never one sample alone).  A graph without
 * them goes; so do all when eager has too few (nothing shows that a graph
 * pays). */
static void settle_overdue(struct pygraph_selection *sel, const struct pygraph_variant *v,
                           const struct pygraph_variant *r, struct pygraph_sig_stats *s)
{
  double gv = 0, gr = 0, eager_us = 0;
  unsigned floor = pygraph_measure_first(sel->settings);
  int tv = pygraph_samples_settled_us(&pygraph_sel_verdict(sel, v)->samples, floor, &gv);
  int tr = r && pygraph_samples_settled_us(&pygraph_sel_verdict(sel, r)->samples, floor, &gr);
  const struct pygraph_variant *best = tv && (!tr || gv <= gr) ? v : tr ? r : NULL;
  const struct pygraph_variant *other = best == r ? v : r;
  char why[sizeof sel->why];
  if (best && other && (best == v ? tr : tv))
    keep_rival(sel, best, other, best == v ? gv : gr, best == v ? gr : gv);
  else if (best && other)
    pygraph_sel_drop(sel, other);     /* never timed: nothing to compare */
  if (!best || !pygraph_samples_settled_us(&s->eager, floor, &eager_us)) {
    const struct pygraph_samples *shown = &pygraph_sel_verdict(sel, best ? best : v)->samples;
    double e = pygraph_samples_cost_us(&s->eager), g = pygraph_samples_cost_us(shown);
    snprintf(why, sizeof why, "no verdict in %u iterations (eager %.1f us x%u, graph %.1f us x%u)",
             PYGRAPH_VERDICT_ITERS, e, s->eager.n, g, shown->n);
    pygraph_debug_log(sel->settings, SEG_FMT ": %s", SEG_ARGS(sel), why);
    if (!best && r)
      pygraph_sel_drop(sel, r);
    reject_variant(sel, best ? best : v, s, e, g, why);
    return;
  }
  struct pygraph_cost_input in = {.eager_us = eager_us, .graph_us = best == v ? gv : gr,
                                  .capture_us = 0, .trip_count = sel->region->trip_count,
                                  .iters_observed = sel->iters};
  enum pygraph_verdict verdict = pygraph_decide_cost(sel->settings, &in, why, sizeof why);
  size_t len = strlen(why);
  snprintf(why + len, sizeof why - len, "%s; after %u iterations",
           pygraph_sel_verdict(sel, best)->rival,
           PYGRAPH_VERDICT_ITERS);
  apply_verdict(sel, best, s, &in, verdict, why);
}

/* While still measuring, the report shows what was read so far, and what
 * runs meanwhile (turns.c): a graph only once its samples show it faster
 * (an undecided segment keeps no graph a sibling's gain could come from). */
static void note_undecided(struct pygraph_selection *sel)
{
  sel->undecided_graph = 0;
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *v = pygraph_sel_live(sel, i);
    const struct pygraph_sig_stats *s = v ? pygraph_sel_sig_find(sel, v->hash) : NULL;
    const struct pygraph_graph_verdict *g = s ? pygraph_sel_verdict(sel, v) : NULL;
    if (!g || g->decided)
      continue;
    unsigned floor = pygraph_measure_first(sel->settings);
    sel->undecided_graph = pygraph_verdicts_shown_faster(sel, s, v) != NULL;
    const char *runs = sel->undecided_graph                          ? "graph (faster so far)"
                       : s->eager.n < floor || g->samples.n < floor ? "eager (too few samples)"
                                                                     : "eager (graph not faster)";
    sel->eager_us = pygraph_samples_cost_us(&s->eager);
    sel->graph_us = pygraph_samples_cost_us(&g->samples);
    snprintf(sel->why, sizeof sel->why,
             "undecided: %s after %u iterations (eager x%u, graph x%u samples)", runs,
             g->samples.iters, s->eager.n, g->samples.n);
    return;
  }
}


/* The verdict on eager against `best` (v or its rival r, chosen by
 * decide_graphs), once its windows are full or the case is clear. */
static void decide_against_eager(struct pygraph_selection *sel, const struct pygraph_variant *best,
                                 struct pygraph_sig_stats *s, double graph_us, int graphs_full)
{
  const char *pair = pygraph_sel_verdict(sel, best)->rival;   /* kept for the verdict */
  char why[sizeof sel->why];
  enum pygraph_verdict early;
  unsigned window = sel->settings->measure_iters;
  /* No graph is kept on its own samples alone: eager's come in turns (or,
   * if they never do, PYGRAPH_VERDICT_ITERS ends it, eager). */
  if (!(graphs_full && s->eager.n >= window) &&
      !pygraph_verdicts_clear_case(sel, &s->eager, &pygraph_sel_verdict(sel, best)->samples,
                                   &early))
    return;
  /* The capture is already paid when this is decided: what counts from
   * here on is the period (pygraph_decide_cost amortizes a capture that is
   * still to be paid). */
  struct pygraph_cost_input in = {
      .eager_us = pygraph_samples_period_us(&s->eager), .graph_us = graph_us, .capture_us = 0,
      .trip_count = sel->region->trip_count, .iters_observed = sel->iters};
  enum pygraph_verdict verdict = pygraph_decide_cost(sel->settings, &in, why, sizeof why);
  size_t len = strlen(why);
  snprintf(why + len, sizeof why - len, "%s", pair);
  apply_verdict(sel, best, s, &in, verdict, why);
}

/* One undecided signature: its graph v (and its rival r, or NULL). */
static void decide_graphs(struct pygraph_selection *sel, const struct pygraph_variant *v,
                          const struct pygraph_variant *r, struct pygraph_sig_stats *s)
{
  unsigned window = sel->settings->measure_iters;
  unsigned first = pygraph_measure_first(sel->settings);
  const struct pygraph_samples *sv = &pygraph_sel_verdict(sel, v)->samples;
  const struct pygraph_samples *sr = r ? &pygraph_sel_verdict(sel, r)->samples : NULL;
  if (sv->iters >= PYGRAPH_VERDICT_ITERS) {
    settle_overdue(sel, v, r, s);
    return;
  }
  if (sv->n < first || (r && sr->n < first) ||
      (!r && pygraph_verdicts_rival_pending(sel, v, s)))
    return;
  int graphs_full = sv->n >= window && (!r || sr->n >= window);
  double gv = pygraph_samples_period_us(sv);
  double gr = r ? pygraph_samples_period_us(sr) : 0.0;
  enum pygraph_verdict early;
  /* Which graph: the rival wins only when measured faster. */
  if (r && !graphs_full && !pygraph_clear_verdict(gv, gr, &early))
    return;
  const struct pygraph_variant *best = r && gr < gv ? r : v;
  if (r)
    keep_rival(sel, best, best == v ? r : v, best == v ? gv : gr, best == v ? gr : gv);
  decide_against_eager(sel, best, s, best == v ? gv : gr, graphs_full);
}

/* Timing broke after a capture: keep what runs, unmeasured. */
static void keep_unmeasured(struct pygraph_selection *sel)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *v = pygraph_sel_live(sel, i);
    struct pygraph_graph_verdict *g = v ? pygraph_sel_verdict(sel, v) : NULL;
    if (g && !g->decided) {
      g->decided = 1;
      pygraph_verdicts_set_decision(sel, PYGRAPH_DECIDED_GRAPH, "unmeasured: no timing events");
    }
  }
}

const char *pygraph_verdicts_decide(struct pygraph_selection *sel)
{
  sel->eager_why[0] = '\0';
  if (sel->measure.state < 0) {
    keep_unmeasured(sel);
    return NULL;
  }
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *v = pygraph_sel_live(sel, i);
    if (!v || pygraph_sel_verdict(sel, v)->decided)
      continue;
    const struct pygraph_variant *r = pygraph_sel_rival_of(sel, v);
    if (r && r < v)
      continue;                               /* the pair is handled from r */
    struct pygraph_sig_stats *s = pygraph_sel_sig_find(sel, v->hash);
    if (s)
      decide_graphs(sel, v, r, s);
  }
  if (sel->decision == PYGRAPH_UNDECIDED)
    note_undecided(sel);
  return sel->eager_why[0] ? sel->eager_why : NULL;
}

/* Start measuring again (bounded: PYGRAPH_MAX_FLIPS per segment). */
static void note_reevaluation(struct pygraph_selection *sel, const char *what)
{
  sel->reevaluations++;
  sel->has_baseline = 0;
  sel->block_iters = sel->block_updates = sel->block_misses = 0;
  pygraph_debug_log(sel->settings, SEG_FMT ": behaviour changed (%s), re-evaluating (%u/%u)",
                    SEG_ARGS(sel), what, sel->reevaluations, PYGRAPH_MAX_FLIPS);
}

/* From decided-graph: re-measure the graphs against the eager periods. */
static void remeasure_graphs(struct pygraph_selection *sel, const char *what)
{
  note_reevaluation(sel, what);
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *v = pygraph_sel_live(sel, i);
    if (!v)
      continue;
    struct pygraph_graph_verdict *g = pygraph_sel_verdict(sel, v);
    g->decided = 0;
    memset(&g->samples, 0, sizeof g->samples);
  }
}

/* Per block of iterations, the node updates per iteration and the share of
 * misses; a marked change from the block after the decision re-measures. */
void pygraph_verdicts_note_behaviour(struct pygraph_selection *sel, int miss,
                                     unsigned long long iter_updates)
{
  if (sel->settings->mode != PYGRAPH_MODE_AUTO || sel->decision != PYGRAPH_DECIDED_GRAPH ||
      !pygraph_sel_all_decided(sel))
    return;
  sel->block_iters++;
  sel->block_updates += iter_updates;
  sel->block_misses += (unsigned long long)miss;
  if (sel->block_iters < PYGRAPH_BEHAVIOUR_BLOCK)
    return;
  struct pygraph_behaviour now = {
      .updates_per_iter = (double)sel->block_updates / (double)sel->block_iters,
      .miss_share = (double)sel->block_misses / (double)sel->block_iters};
  sel->block_iters = sel->block_updates = sel->block_misses = 0;
  if (!sel->has_baseline) {
    sel->baseline = now;
    sel->has_baseline = 1;
    return;
  }
  if (sel->reevaluations < PYGRAPH_MAX_FLIPS && pygraph_behaviour_changed(&sel->baseline, &now))
    remeasure_graphs(sel, "updates or signature mix");
}

/* A new signature, or one rejected whose argument updates moved by half
 * or more, is worth measuring again; an iteration of fewer ops than
 * PYGRAPH_MIN_OPS never is (auto could not capture it). */
static const char *probe_change(struct pygraph_selection *sel, const struct pygraph_op_list *cur,
                                const struct pygraph_op_list *prev)
{
  if (sel->settings->mode == PYGRAPH_MODE_AUTO && cur->n_ops < sel->settings->min_ops)
    return NULL;
  const struct pygraph_sig_stats *s = pygraph_sel_sig_find(sel, pygraph_signature_hash(cur));
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

const char *pygraph_verdicts_probe(struct pygraph_selection *sel,
                                   const struct pygraph_op_list *cur,
                                   const struct pygraph_op_list *prev)
{
  const char *what = probe_change(sel, cur, prev);
  if (!what || sel->reevaluations >= PYGRAPH_MAX_FLIPS)
    return NULL;
  note_reevaluation(sel, what);
  memset(sel->sigs, 0, sizeof sel->sigs);     /* measure everything afresh, eager first */
  return what;
}
