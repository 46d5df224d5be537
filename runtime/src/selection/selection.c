/* selection.c - the two calls of the policy (selection.h): the plan of a
 * recorded iteration and what its outcome decides.  Measuring turns,
 * timing and verdicts are in turns.c, timing.c and verdicts.c. */
#include "selection/selection.h"

#include <stdio.h>
#include <string.h>

#include "common/debug_log.h"
#include "selection/capture_cost.h"
#include "selection/signatures.h"
#include "selection/timing.h"
#include "selection/turns.h"
#include "selection/verdicts.h"

void pygraph_selection_init(struct pygraph_selection *sel, const struct pygraph_backend *backend,
                            const struct pygraph_settings *settings,
                            const pygraph_region *region, unsigned index,
                            const struct pygraph_variant_cache *cache)
{
  memset(sel, 0, sizeof *sel);
  sel->backend = backend;
  sel->settings = settings;
  sel->region = region;
  sel->index = index;
  sel->cache = cache;
  if (settings->mode == PYGRAPH_MODE_EAGER)
    pygraph_verdicts_set_decision(sel, PYGRAPH_DECIDED_EAGER, "PYGRAPH_MODE=eager");
}

static int auto_mode(const struct pygraph_selection *sel)
{
  return sel->settings->mode == PYGRAPH_MODE_AUTO;
}

/* ---- the plan --------------------------------------------------------------- */

/* What the iteration will be sampled as (NONE: a capture, or untimed). */
static struct pygraph_sample_tag planned_sample(struct pygraph_selection *sel,
                                                const struct pygraph_iteration_facts *f,
                                                const struct pygraph_plan *plan)
{
  struct pygraph_sample_tag planned = {.hash = f->hash, .kind = PYGRAPH_SAMPLE_EAGER};
  const struct pygraph_variant *v = plan->variant;
  if (v && plan->turn == TURN_GRAPH && !pygraph_sel_verdict(sel, v)->decided) {
    planned.kind = PYGRAPH_SAMPLE_GRAPH;
    planned.variant = v->id;
  } else if ((v && plan->turn != TURN_EAGER && plan->turn != TURN_WAIT_EAGER) ||
             (!v && f->capture_planned)) {
    planned.kind = PYGRAPH_SAMPLE_NONE;
  }
  return planned;
}

/* Only a timed iteration reads the host clock (in a VM a clock read can
 * cost a syscall) or records an event: not a decided segment, nor one
 * waiting for the samples it planned.  Its host time starts here: the
 * recording and hashing before are the same whatever runs. */
static void start_timing(struct pygraph_selection *sel, const struct pygraph_iteration_facts *f,
                         const struct pygraph_plan *plan)
{
  sel->now.timing = auto_mode(sel) && plan->turn != TURN_WAIT &&
                    plan->turn != TURN_WAIT_EAGER &&
                    pygraph_turns_want_timing(sel, f->hash, plan->variant);
  sel->now.t0 = sel->now.timing ? pygraph_timing_now_us(sel) : 0.0;
  if (!sel->now.timing) {
    pygraph_timing_break(sel);
    return;
  }
  struct pygraph_sample_tag planned = planned_sample(sel, f, plan);
  pygraph_timing_start(sel, f->stream, pygraph_timing_solo(sel), &planned, f->clocked,
                       f->begin_us);
}

struct pygraph_plan pygraph_selection_plan(struct pygraph_selection *sel,
                                           const struct pygraph_iteration_facts *f)
{
  struct pygraph_plan plan = {.turn = TURN_GRAPH, .variant = f->hit};
  if (f->shadowed) {                          /* its first op: the span starts */
    if (auto_mode(sel) && !f->phase_eager)
      pygraph_timing_shadow_start(sel, f->stream);
    return plan;
  }
  sel->iters = f->iters;
  pygraph_timing_unit_end(sel, 0);            /* a graph exists or is planned */
  const struct pygraph_variant *v = f->hit;
  if (v && auto_mode(sel) && !pygraph_sel_verdict(sel, v)->decided) {
    plan.turn = pygraph_turns_next(sel, &v, f->hash);
    plan.variant = (struct pygraph_variant *)v;   /* the cache's own variant */
  }
  if (plan.variant)
    plan.count_changes = !pygraph_sel_verdict(sel, plan.variant)->decided;
  start_timing(sel, f, &plan);
  plan.capture_decided = !auto_mode(sel) || sel->measure.state < 0;
  sel->now.turn = plan.turn;
  sel->now.variant = plan.variant;
  sel->now.capture_decided = plan.capture_decided;
  return plan;
}

/* ---- the outcome ------------------------------------------------------------ */

/* Eager from now on, by selection's own verdict or the segment's fault:
 * timing stops for good, or (by decision) breaks and may resume with a
 * probe's re-evaluation. */
static void go_eager(struct pygraph_selection *sel, struct pygraph_selection_reply *reply,
                     const char *why, int for_good)
{
  if (for_good)
    pygraph_timing_stop(sel);
  else
    pygraph_timing_break(sel);
  pygraph_verdicts_set_decision(sel, PYGRAPH_DECIDED_EAGER, why);
  reply->go_eager = why;
  reply->for_good = for_good;
  reply->final = for_good || sel->reevaluations >= PYGRAPH_MAX_FLIPS;
}

/* A capture of hash's signature took `us` of host time. */
static void note_capture(struct pygraph_selection *sel, const struct pygraph_iteration_outcome *o)
{
  struct pygraph_sig_stats *s = pygraph_sel_sig_get(sel, o->hash);
  pygraph_sel_verdict(sel, o->ran)->decided = sel->now.capture_decided;
  s->capture_us = o->capture_us;
  if (s->capture_us > 0)                      /* 0: no clock */
    pygraph_capture_cost_note(o->n_ops, s->capture_us);
  if (sel->now.capture_decided && sel->decision == PYGRAPH_UNDECIDED)
    pygraph_verdicts_set_decision(sel, PYGRAPH_DECIDED_GRAPH,
                                  sel->settings->mode == PYGRAPH_MODE_GRAPH
                                      ? "PYGRAPH_MODE=graph"
                                      : "unmeasured: no timing events");
}

/* What the iteration ran as, for its sample; a miss's signature entry is
 * made here (in auto mode), and tells whether it is known not to pay. */
static struct pygraph_sample_tag what_ran(struct pygraph_selection *sel,
                                          const struct pygraph_iteration_outcome *o,
                                          struct pygraph_selection_reply *reply)
{
  struct pygraph_sample_tag tag = {.hash = o->hash, .kind = PYGRAPH_SAMPLE_NONE};
  if (o->miss) {
    struct pygraph_sig_stats *s = auto_mode(sel) ? pygraph_sel_sig_get(sel, o->hash) : NULL;
    reply->rejected = s && s->rejected;
    if (o->candidate.same && s)
      s->changed_ops = o->candidate.changed_vs_candidate;   /* what probes compare */
  }
  if (o->captured) {
    note_capture(sel, o);
  } else if (o->ran) {
    struct pygraph_graph_verdict *g = pygraph_sel_verdict(sel, o->ran);
    if (!g->decided)
      g->changed_ops = o->changed_ops;
    if (!g->decided && sel->now.turn == TURN_GRAPH && !o->verified) {
      tag.kind = PYGRAPH_SAMPLE_GRAPH;
      tag.variant = o->ran->id;
    }
  } else if (!o->miss || !reply->rejected) {
    tag.kind = PYGRAPH_SAMPLE_EAGER;          /* an eager turn, or a miss run eagerly */
  }
  return tag;
}

/* A shadowed iteration's timing is decided at its end: its span began at
 * its first op (or it has none). */
static void shadowed_timing(struct pygraph_selection *sel, const struct pygraph_iteration_outcome *o)
{
  pygraph_timing_unit_end(sel, o->batch && auto_mode(sel) && sel->decision == PYGRAPH_UNDECIDED);
  sel->now = (struct pygraph_iteration_plan_state){.turn = TURN_GRAPH};
  sel->now.timing = auto_mode(sel) && pygraph_turns_want_timing(sel, o->hash, NULL) &&
                    sel->shadow_timed;
  sel->now.t0 = sel->now.timing ? pygraph_timing_now_us(sel) : 0.0;
  if (!sel->now.timing)
    pygraph_timing_break(sel);
}

/* Auto mode's part of the end: the timing's end, samples read, verdicts.
 * Returns 0 when a verdict left no graph (the segment goes eager). */
static int measure(struct pygraph_selection *sel, const struct pygraph_iteration_outcome *o,
                   struct pygraph_sample_tag *tag, struct pygraph_selection_reply *reply)
{
  if (sel->now.timing)
    pygraph_timing_end(sel, o->stream, tag);
  pygraph_timing_poll(sel);
  const char *eager_why = pygraph_verdicts_decide(sel);
  if (eager_why) {
    go_eager(sel, reply, eager_why, 0);
    return 0;
  }
  pygraph_timing_release_idle(sel, sel->now.timing);
  return 1;
}

/* What decides whether the candidate is captured next (decide.h). */
static struct pygraph_decide_input capture_question(struct pygraph_selection *sel,
                                                    const struct pygraph_iteration_outcome *o)
{
  const struct pygraph_candidate_facts *c = &o->candidate;
  struct pygraph_sig_stats *s = auto_mode(sel) ? pygraph_sel_sig_find(sel, o->hash) : NULL;
  struct pygraph_decide_input in = {
      .stable_iterations = c->sightings,
      .captures = c->captures,
      .n_ops = c->n_ops,
      .timing = auto_mode(sel) && pygraph_timing_possible(sel),
      .eager_samples = s ? pygraph_turns_eager_planned(sel, o->hash) : 0,
      .backlog = pygraph_turns_far_behind(sel) ? sel->measure.count : 0,
      .eager_us = s && s->eager.n ? pygraph_samples_cost_us(&s->eager) : 0.0,
      .capture_us = pygraph_capture_cost_us(c->n_ops),
      .trip_count = c->trip_count,
      .host_period_us = sel->host_period_us,
      .iters_observed = sel->iters,
      .sibling_gain_ratio = pygraph_verdicts_sibling_gain(sel),
  };
  if (c->recent_sightings >= 2) {             /* recurs apart: a cycle */
    in.recent_sightings = c->recent_sightings;
    in.recent_window = c->recent_window;
  }
  return in;
}

/* Returns 0 when the segment is to go eager. */
static int decide_capture(struct pygraph_selection *sel, const struct pygraph_iteration_outcome *o,
                          struct pygraph_selection_reply *reply)
{
  struct pygraph_decide_input in = capture_question(sel, o);
  struct pygraph_sig_stats *s = auto_mode(sel) ? pygraph_sel_sig_find(sel, o->hash) : NULL;
  const char *reason = NULL;
  switch (pygraph_decide(sel->settings, &in, &reason)) {
  case PYGRAPH_KEEP_WARMING:
    /* Put off, not just warming: others may take the candidate's place. */
    reply->capture = reason ? PYGRAPH_CAPTURE_WAIT_UNPIN : PYGRAPH_CAPTURE_WAIT;
    if (s)
      s->put_off = reason != NULL;
    return 1;
  case PYGRAPH_CAPTURE_NEXT:
    reply->capture = PYGRAPH_CAPTURE_PLAN;
    return 1;
  case PYGRAPH_GO_EAGER:
    go_eager(sel, reply, reason, 1);
    return 0;
  case PYGRAPH_STAY_EAGER:
    go_eager(sel, reply, reason, 0);
    return 0;
  }
  return 1;
}

/* The segment itself went eager for good in this iteration (a fault, a
 * hopeless launch sequence, an iteration over the op cap) or gave up
 * batching: selection follows.  Returns 1 when it did. */
static int follow_segment(struct pygraph_selection *sel, const struct pygraph_iteration_outcome *o,
                          struct pygraph_selection_reply *reply)
{
  if (o->eager_for_good) {                    /* the ops ran once */
    go_eager(sel, reply, o->eager_for_good, 1);
    return 1;
  }
  if (o->stopped_batching) {                  /* hopeless as units: one iteration each now */
    pygraph_timing_break(sel);
    return 1;
  }
  return 0;
}

/* A recorded iteration that ran: samples, verdicts, the capture question
 * for a miss that may become the candidate, hysteresis. */
static void judge(struct pygraph_selection *sel, const struct pygraph_iteration_outcome *o,
                  struct pygraph_selection_reply *reply)
{
  if (o->end == PYGRAPH_END_SHADOWED)
    shadowed_timing(sel, o);
  if (follow_segment(sel, o, reply))
    return;
  struct pygraph_sample_tag tag = what_ran(sel, o, reply);
  if (auto_mode(sel) && !measure(sel, o, &tag, reply))
    return;
  int candidate = o->miss && !o->captured && !reply->rejected && !o->candidate.keep_other;
  if (candidate && !decide_capture(sel, o, reply))
    return;
  pygraph_verdicts_note_behaviour(sel, o->miss, o->iter_updates);
}

struct pygraph_selection_reply pygraph_selection_outcome(
    struct pygraph_selection *sel, const struct pygraph_iteration_outcome *o)
{
  struct pygraph_selection_reply reply = {0};
  sel->iters = o->iters;
  sel->drop = 0;
  switch (o->end) {
  case PYGRAPH_END_RAN:
  case PYGRAPH_END_SHADOWED:
    judge(sel, o, &reply);
    break;
  case PYGRAPH_END_PROBE:
    pygraph_timing_end_probe(sel);
    if (o->probe_second && o->cur)
      reply.restart = pygraph_verdicts_probe(sel, o->cur, o->prev);
    break;
  case PYGRAPH_END_PARTIAL:
    if (o->probe_cut)
      pygraph_timing_end_probe(sel);
    pygraph_timing_break(sel);
    break;
  case PYGRAPH_END_FLUSHED:
    pygraph_timing_break(sel);
    break;
  case PYGRAPH_END_IDLE:
    (void)follow_segment(sel, o, &reply);
    break;
  }
  pygraph_timing_iteration_ends(sel);
  sel->shadow_timed = 0;
  reply.drop = sel->drop;
  reply.probe_min_ops = auto_mode(sel) ? sel->settings->min_ops : 0;
  reply.clock_next_begin = auto_mode(sel) && sel->decision == PYGRAPH_UNDECIDED && sel->iters &&
                           sel->timed_iter == sel->iters;
  return reply;
}

void pygraph_selection_summarize(const struct pygraph_selection *sel,
                                 struct pygraph_selection_summary *out)
{
  out->decision = sel->decision;
  out->undecided_graph = sel->decision == PYGRAPH_UNDECIDED && sel->undecided_graph;
  out->why = sel->why;
  out->eager_us = sel->eager_us;
  out->graph_us = sel->graph_us;
  out->timed = sel->timed;
}
