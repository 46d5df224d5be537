/* turns.c - what a measured iteration runs, and what is worth timing. */
#include "selection/turns.h"

#include "selection/signatures.h"
#include "selection/verdicts.h"

/* While a variant is undecided, or while this signature (not a graph yet,
 * not rejected) lacks eager samples - only those a capture waits for
 * (PYGRAPH_EAGER_BEFORE_CAPTURE) while its capture is put off for cost. */
int pygraph_turns_want_timing(struct pygraph_selection *sel, unsigned long long hash,
                              const struct pygraph_variant *v)
{
  if (!pygraph_sel_all_decided(sel))
    return 1;
  if (v)
    return 0;
  const struct pygraph_sig_stats *s = pygraph_sel_sig_find(sel, hash);
  if (!s)
    return 1;
  unsigned wanted = s->put_off ? pygraph_eager_before_capture(sel->settings)
                               : sel->settings->measure_iters;
  return !s->rejected && pygraph_turns_eager_planned(sel, hash) < wanted;
}

unsigned pygraph_turns_eager_planned(struct pygraph_selection *sel, unsigned long long hash)
{
  const struct pygraph_sig_stats *s = pygraph_sel_sig_find(sel, hash);
  struct pygraph_sample_tag tag = {.hash = hash, .kind = PYGRAPH_SAMPLE_EAGER};
  return (s ? s->eager.n : 0) + pygraph_measure_in_flight(&sel->measure, &tag);
}

/* Does one side still need timed iterations?  Samples recorded but not read
 * yet count as taken (a GPU far behind would else keep the sides taking
 * turns for as long as its queue is deep), and the first
 * PYGRAPH_MEASURE_MIN are awaited before more are planned. */
static int side_needs(const struct pygraph_selection *sel, const struct pygraph_samples *smp,
                      const struct pygraph_sample_tag *tag)
{
  unsigned window = sel->settings->measure_iters;
  unsigned first = pygraph_measure_first(sel->settings);
  unsigned target = smp->n >= first ? window : first;
  return smp->n + pygraph_measure_in_flight(&sel->measure, tag) < target;
}

int pygraph_turns_far_behind(const struct pygraph_selection *sel)
{
  return sel->measure.count >= PYGRAPH_BACKLOG_EVENTS && sel->iters < PYGRAPH_YOUNG_ITERS;
}

static int eager_clearly_slower(struct pygraph_selection *sel, const struct pygraph_samples *eager,
                                const struct pygraph_variant *g)
{
  enum pygraph_verdict verdict;
  return g && pygraph_verdicts_clear_case(sel, eager, &pygraph_sel_verdict(sel, g)->samples,
                                          &verdict) &&
         verdict == PYGRAPH_VERDICT_GRAPH;
}

/* Eager has its floor of samples read and a graph side runs on a sibling's
 * gain (its own floor not read yet, verdicts.h): that graph's first samples
 * may settle the case (a clear one needs no more), so eager's window waits
 * for them; meanwhile the graph runs (untimed below). */
static int eager_waits_for_graphs(struct pygraph_selection *sel,
                                  const struct pygraph_samples *eager,
                                  const struct pygraph_variant *const side[3])
{
  return eager->n >= pygraph_measure_first(sel->settings) &&
         (pygraph_verdicts_runs_on_sibling(sel, side[1]) ||
          (side[2] && pygraph_verdicts_runs_on_sibling(sel, side[2])));
}

/* One more iteration of hash's signature for each of its undecided graphs
 * (bounded by PYGRAPH_VERDICT_ITERS). */
static void count_undecided(struct pygraph_selection *sel, unsigned long long hash)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++) {
    const struct pygraph_variant *v = pygraph_sel_live(sel, i);
    struct pygraph_graph_verdict *g = v ? pygraph_sel_verdict(sel, v) : NULL;
    if (g && !g->decided && v->hash == hash)
      g->samples.iters++;
  }
}

/* The side whose turn it is (0 eager, 1 and 2 graphs), or -1 when every
 * side's samples are planned (in flight). */
static int pick_side(struct pygraph_sig_stats *s, const int needs[3])
{
  unsigned c = s->turn % 3;
  if (!(s->run_left && needs[c])) {           /* next side that still needs samples */
    unsigned k;
    for (k = 1; k <= 3 && !needs[(s->turn + k) % 3]; k++)
      ;
    if (k > 3)
      return -1;
    c = (s->turn + k) % 3;
    s->turn = c;
    s->run_left = PYGRAPH_TURN_RUN;
  }
  s->run_left--;
  return (int)c;
}

/* What runs when no side is timed now: a graph where its samples show it
 * faster (*pv set to it); v itself where it runs on a sibling's gain
 * (verdicts.h: a loop of a few units per launch sequence would otherwise be
 * over before its samples come back); else the iteration's ops, eagerly. */
static enum pygraph_turn untimed(struct pygraph_selection *sel, const struct pygraph_variant **pv,
                                 const struct pygraph_sig_stats *s)
{
  const struct pygraph_variant *fast = pygraph_verdicts_shown_faster(sel, s, *pv);
  if (!fast && pygraph_verdicts_runs_on_sibling(sel, *pv))
    fast = *pv;
  if (!fast)
    return TURN_WAIT_EAGER;
  *pv = fast;
  return TURN_WAIT;
}

/* Eager runs and each undecided graph of the signature (the indirect one
 * as side 1, its direct rival as side 2) take turns until their windows
 * are full; an indirect graph first gets a direct rival, captured from this
 * iteration.  Not while the GPU is far behind: samples would come too late.
 * A graph runs only in its own measuring turns until its samples show it
 * faster (verdicts.h): with none read yet, a loop too short for them runs
 * eagerly, unless the graph runs on a sibling's gain (a kept graph of
 * another launch sequence clearly faster; bounded, verdicts.h). */
enum pygraph_turn pygraph_turns_next(struct pygraph_selection *sel,
                                     const struct pygraph_variant **pv, unsigned long long hash)
{
  const struct pygraph_variant *v = *pv;
  count_undecided(sel, hash);
  struct pygraph_sig_stats *s = pygraph_sel_sig_get(sel, hash);
  if (sel->measure.state < 0 || pygraph_turns_far_behind(sel))
    return untimed(sel, pv, s);
  const struct pygraph_variant *r = pygraph_sel_rival_of(sel, v);
  if (!r && pygraph_verdicts_rival_pending(sel, v, s)) {
    s->challenged = 1;
    return TURN_RIVAL;
  }
  const struct pygraph_variant *side[3] = {NULL, v, r};
  if (r && r->direct_only == 0) {
    side[1] = r;
    side[2] = v;
  }
  struct pygraph_sample_tag tags[3] = {
      {.hash = hash, .kind = PYGRAPH_SAMPLE_EAGER},
      {.hash = hash, .kind = PYGRAPH_SAMPLE_GRAPH, .variant = side[1]->id},
      {.hash = hash, .kind = PYGRAPH_SAMPLE_GRAPH, .variant = side[2] ? side[2]->id : 0}};
  int needs[3] = {side_needs(sel, &s->eager, &tags[0]),
                  side_needs(sel, &pygraph_sel_verdict(sel, side[1])->samples, &tags[1]),
                  side[2] && side_needs(sel, &pygraph_sel_verdict(sel, side[2])->samples, &tags[2])};
  /* Eager clearly slower than a graph already: only the graphs still need
   * telling apart (should the other one win and not be clearly faster,
   * eager turns resume then). */
  if (needs[0] && (eager_clearly_slower(sel, &s->eager, side[1]) ||
                   eager_clearly_slower(sel, &s->eager, side[2]) ||
                   eager_waits_for_graphs(sel, &s->eager, side)))
    needs[0] = 0;
  int c = sel->measure.count >= PYGRAPH_MEASURE_RING ? -1 : pick_side(s, needs);
  if (c < 0)                                  /* a full ring, or all planned */
    return untimed(sel, pv, s);
  if (c == 0)
    return TURN_EAGER;
  *pv = side[c];
  return TURN_GRAPH;
}
