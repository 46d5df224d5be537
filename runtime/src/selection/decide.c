/* decide.c - the capture policy and the graph-vs-eager cost model. */
#include "selection/decide.h"

#include <math.h>
#include <stdio.h>

/* The GPU takes longer per iteration than the host needs to issue it
 * eagerly: the host already waits, so a graph saves no host time, only the
 * GPU's gaps between kernels (a probe looks again later).  Shown by the
 * eager samples against the host's period or, before any sample was read,
 * by a GPU so far behind the host that its timing events are still queued
 * (the samples of a GPU-bound loop come back late: weighing its capture by
 * the host time an eager launch can cost would capture what a graph cannot
 * pay back) - not where a graph of another launch sequence of the segment
 * was clearly faster than its eager runs: a measurement, where the backlog
 * is only a presumption (it may be that graph's own work). */
static int gpu_bound_loop(const struct pygraph_settings *settings,
                          const struct pygraph_decide_input *in)
{
  if (settings->mode != PYGRAPH_MODE_AUTO)
    return 0;
  if (in->eager_us <= 0)                /* presumed, unless measured otherwise */
    return in->backlog >= PYGRAPH_BACKLOG_EVENTS &&
           !pygraph_sibling_clearly_faster(in->sibling_gain_ratio);
  return in->host_period_us > 0 && in->eager_us > PYGRAPH_GPU_BOUND_RATIO * in->host_period_us;
}

#define GPU_BOUND_WHY                                                                    \
  "GPU-bound: the GPU takes longer than the host's eager launches, and the gaps a graph " \
  "would save cannot pay back its capture"

/* The most a graph can save an iteration.  In a GPU-bound loop only the
 * GPU's gaps between kernels, which only a measurement shows: the
 * segment's first graph is a trial weighed by the per-op gap prior (or by
 * a measured share, should one be known); once it has one, the share of
 * eager cost a graph of it was shown to save decides alone (none while it
 * is unmeasured or slower: the capture waits), so a cycle of launch
 * sequences is captured when its first graph wins and never when it
 * loses. */
static double capture_gain_us(const struct pygraph_decide_input *in, int gpu_bound)
{
  double gain = pygraph_gain_bound_us(in->eager_us, in->n_ops);
  if (!gpu_bound)
    return gain;
  double gaps = in->sibling_gain_ratio * in->eager_us;
  double prior = PYGRAPH_GPU_GAP_PER_OP_US * (double)in->n_ops;
  if (in->captures == 0 && prior > gaps)
    gaps = prior;
  return gaps < gain ? gaps : gain;
}

enum pygraph_decision pygraph_decide(const struct pygraph_settings *settings,
                                     const struct pygraph_decide_input *in,
                                     const char **reason)
{
  if (settings->mode == PYGRAPH_MODE_EAGER) {
    *reason = "PYGRAPH_MODE=eager";
    return PYGRAPH_GO_EAGER;
  }
  if (settings->max_captures == 0) {
    *reason = "PYGRAPH_MAX_CAPTURES=0";
    return PYGRAPH_GO_EAGER;
  }
  if (in->captures >= settings->max_captures) {
    *reason = "signature unstable";
    return PYGRAPH_GO_EAGER;
  }
  if (settings->mode == PYGRAPH_MODE_AUTO && in->n_ops < settings->min_ops) {
    *reason = "too few ops per iteration for a graph to pay (PYGRAPH_MIN_OPS)";
    return PYGRAPH_STAY_EAGER;
  }
  if (in->stable_iterations < pygraph_effective_warmup(settings))
    return PYGRAPH_KEEP_WARMING;
  /* auto: the eager side of the comparison is sampled before capture (its
   * cost tells whether a capture can pay back), unless
   * PYGRAPH_EAGER_BEFORE_CAPTURE says to take those samples in turns with
   * the graph afterwards. */
  if (settings->mode == PYGRAPH_MODE_AUTO && in->timing &&
      in->eager_samples < pygraph_eager_before_capture(settings) &&
      in->backlog < PYGRAPH_BACKLOG_EVENTS)
    return PYGRAPH_KEEP_WARMING;
  /* Too few iterations left to win back the capture, whatever the graph
   * (no hits at all: whatever the eager cost, measured or not yet). */
  double hits = pygraph_expected_hits(in);
  int gpu_bound = gpu_bound_loop(settings, in);
  if (settings->mode == PYGRAPH_MODE_AUTO &&
      (hits <= 0 || ((in->timing || in->eager_us > 0) &&
                     hits * capture_gain_us(in, gpu_bound) < pygraph_trial_cost_us(in)))) {
    /* Within a known trip count the hits to come only shrink: waiting is
     * recording for nothing, every iteration.  A probe looks
     * again later (a loop entered again has run past its count then).  A
     * signature of a cycle leaves the others their chance. */
    if (in->recent_window == 0 && in->trip_count >= 0 &&
        (unsigned long long)in->trip_count > in->iters_observed) {
      *reason = gpu_bound ? GPU_BOUND_WHY : "capture cannot pay back in the iterations left";
      return PYGRAPH_STAY_EAGER;
    }
    /* Unknown count: warming up records every iteration, so pass through;
     * the probe PYGRAPH_PROBE_INTERVAL iterations on looks again with the
     * hits those iterations add. */
    if (in->recent_window == 0 && in->trip_count < 0) {
      *reason = gpu_bound ? GPU_BOUND_WHY : "capture would not pay back yet";
      return PYGRAPH_STAY_EAGER;
    }
    *reason = "capture would not pay back yet";
    return PYGRAPH_KEEP_WARMING;
  }
  return PYGRAPH_CAPTURE_NEXT;
}

int pygraph_sibling_clearly_faster(double sibling_gain_ratio)
{
  enum pygraph_verdict verdict;
  return sibling_gain_ratio > 0 && sibling_gain_ratio < 1 &&
         pygraph_clear_verdict(1.0, 1.0 - sibling_gain_ratio, &verdict) &&
         verdict == PYGRAPH_VERDICT_GRAPH;
}

double pygraph_gain_bound_us(double eager_us, unsigned long n_ops)
{
  double bound = PYGRAPH_GAIN_PER_OP_US * (double)n_ops;
  return eager_us > 0 && eager_us < bound ? eager_us : bound;
}

double pygraph_trial_cost_us(const struct pygraph_decide_input *in)
{
  double capture = in->capture_us > 0 ? in->capture_us : pygraph_capture_estimate_us(in->n_ops);
  return in->timing ? capture + PYGRAPH_MEASURE_COST_US : capture;
}

double pygraph_expected_hits(const struct pygraph_decide_input *in)
{
  /* The iterations still to come: the rest of a known trip count, else (a
   * loop entered again, or an unknown count) as many as ran so far. */
  unsigned long long seen = in->iters_observed;
  double n = in->trip_count >= 0 && (unsigned long long)in->trip_count > seen
                 ? (double)((unsigned long long)in->trip_count - seen)
                 : (double)(seen ? seen : 1);
  if (in->recent_window == 0)
    return n;
  double hits = n * (double)in->recent_sightings / (double)in->recent_window;
  return in->timing ? hits - (double)PYGRAPH_TURN_RUN : hits;   /* no timing: no measuring */
}

double pygraph_capture_estimate_us(unsigned long n_ops)
{
  return PYGRAPH_CAPTURE_BASE_US + PYGRAPH_CAPTURE_PER_OP_US * (double)n_ops;
}

unsigned long long pygraph_expected_iterations(long long trip_count,
                                               unsigned long long iters_observed)
{
  /* A loop entered again has shown more iterations than one entry runs. */
  unsigned long long n = trip_count >= 0 && (unsigned long long)trip_count > iters_observed
                             ? (unsigned long long)trip_count
                             : iters_observed;
  return n ? n : 1;
}

enum pygraph_verdict pygraph_decide_cost(const struct pygraph_settings *settings,
                                         const struct pygraph_cost_input *in, char *reason,
                                         size_t reason_cap)
{
  if (settings->mode == PYGRAPH_MODE_GRAPH) {
    snprintf(reason, reason_cap, "PYGRAPH_MODE=graph");
    return PYGRAPH_VERDICT_GRAPH;
  }
  if (settings->mode == PYGRAPH_MODE_EAGER) {
    snprintf(reason, reason_cap, "PYGRAPH_MODE=eager");
    return PYGRAPH_VERDICT_EAGER;
  }
  double expected = (double)pygraph_expected_iterations(in->trip_count, in->iters_observed);
  double capture = in->capture_us > 0 ? in->capture_us : 0;
  double graph = in->graph_us + capture / expected;
  if (!pygraph_faster_by_margin(settings, in->eager_us, graph)) {
    snprintf(reason, reason_cap, "graph slower (%.1f us vs %.1f us per iteration)", graph,
             in->eager_us);
    return PYGRAPH_VERDICT_EAGER;
  }
  snprintf(reason, reason_cap, "graph faster (%.1f us vs %.1f us per iteration)", graph,
           in->eager_us);
  return PYGRAPH_VERDICT_GRAPH;
}

int pygraph_faster_by_margin(const struct pygraph_settings *settings, double eager_us,
                             double graph_us)
{
  double margin = (double)settings->margin_pct / 100.0;
  return isfinite(graph_us) && isfinite(eager_us) && eager_us > 0 &&
         graph_us < eager_us * (1.0 - margin);
}

int pygraph_clear_verdict(double eager_us, double graph_us, enum pygraph_verdict *verdict)
{
  if (!(eager_us > 0) || !(graph_us > 0) || !isfinite(eager_us) || !isfinite(graph_us))
    return 0;
  if (graph_us * 5.0 <= eager_us * 4.0)
    *verdict = PYGRAPH_VERDICT_GRAPH;
  else if (graph_us * 4.0 >= eager_us * 5.0)
    *verdict = PYGRAPH_VERDICT_EAGER;
  else
    return 0;
  return 1;
}

int pygraph_clear_verdict_bounds(double eager_lo, double eager_hi, double graph_lo,
                                 double graph_hi, enum pygraph_verdict *verdict)
{
  enum pygraph_verdict a, b;
  /* graph_hi against eager_lo, graph_lo against eager_hi: both must agree */
  if (!pygraph_clear_verdict(eager_lo, graph_hi, &a) ||
      !pygraph_clear_verdict(eager_hi, graph_lo, &b) || a != b)
    return 0;
  *verdict = a;
  return 1;
}

int pygraph_behaviour_changed(const struct pygraph_behaviour *then,
                              const struct pygraph_behaviour *now)
{
  double du = fabs(now->updates_per_iter - then->updates_per_iter);
  /* Updates: at least one more/less per iteration and half the baseline. */
  if (du >= 1.0 && du >= 0.5 * then->updates_per_iter)
    return 1;
  return fabs(now->miss_share - then->miss_share) >= 0.25;
}
