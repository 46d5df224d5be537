/* decide.h - when does a segment capture, and does its graph pay?
 *
 * Pure functions of counts and measurements (no clock, no CUDA), so that
 * the policy is table-testable.  segment.c gathers the inputs:
 *
 *   pygraph_decide       after every eager (warm-up / miss) iteration:
 *                        keep warming, capture the next iteration of this
 *                        signature, or give up on graphs for good.
 *   pygraph_decide_cost  once a signature has a full eager window and a full
 *                        graph window: keep its graph or run it eagerly. */
#ifndef PYGRAPH_DECIDE_H
#define PYGRAPH_DECIDE_H

#include <stddef.h>

#include "common/settings.h"

enum pygraph_decision {
  PYGRAPH_KEEP_WARMING,
  PYGRAPH_CAPTURE_NEXT,
  PYGRAPH_GO_EAGER,
  PYGRAPH_STAY_EAGER            /* auto: eager by decision (re-probed later) */
};

/* auto mode captures no iteration of fewer than PYGRAPH_MIN_OPS ops
 * (settings.h, default 2): a one-op graph replay costs
 * the host a launch (plus an update when its arguments change) like the
 * eager call, and on the GPU each graph launch adds a gap that back-to-back
 * kernels do not have. */


struct pygraph_decide_input {
  unsigned stable_iterations;   /* sightings of this signature among the
                                   iterations no graph variant matched:
                                   consecutive, or recent for a recurring one */
  unsigned captures;            /* graphs built so far by this segment */
  unsigned long n_ops;          /* ops in the last iteration */
  /* Cost model (auto mode only; ignored when !timing): */
  int timing;                   /* stream-order timing events are available */
  unsigned eager_samples;       /* eager samples of this signature, read or
                                   still in flight */
  unsigned backlog;             /* timing events recorded, not yet readable
                                   (0 when the segment is no longer young) */
  double eager_us;              /* eager cost so far, a cold first sample
                                   left out once others exist (0: none) */
  double capture_us;            /* expected capture cost (capture_cost.h;
                                   0: pygraph_capture_estimate_us) */
  long long trip_count;         /* pygraph_region.trip_count (-1: unknown) */
  unsigned long long iters_observed;  /* iterations of the segment so far */
  /* A signature that recurs apart (a cycle) comes only `recent_sightings`
   * times in `recent_window` iterations: its graph is replayed that often,
   * not every iteration.  recent_window 0: it came back to back. */
  unsigned recent_sightings, recent_window;
  /* Host time from one recorded iteration's end to the next one's (0: not
   * measured; batchable loops only).  Beside eager_us, the GPU's period,
   * it tells a GPU-bound loop, which no graph speeds up. */
  double host_period_us;
  /* A graph of another launch sequence of this segment shown faster than
   * eager (kept by a verdict, or undecided with settled samples faster by
   * the margin): (eager - graph) / eager (0: none).  In a GPU-bound loop
   * the gaps a graph saves are then known to be worth that share of this
   * sequence's eager cost (its units cycle through sequences of the same
   * kernels: md_step); once the segment has a graph (captures > 0), it
   * alone weighs a capture there, the per-op prior only the first. */
  double sibling_gain_ratio;
};


/* Was another launch sequence's graph shown faster by a clear case's ratio
 * (pygraph_clear_verdict: a fifth of eager's cost saved)?  sibling_gain_ratio
 * as in pygraph_decide_input. */
int pygraph_sibling_clearly_faster(double sibling_gain_ratio);

/* What a capture + instantiate is expected to cost before one was timed:
 * PYGRAPH_CAPTURE_BASE_US + PYGRAPH_CAPTURE_PER_OP_US per node (policy.h). */
double pygraph_capture_estimate_us(unsigned long n_ops);

/* What a graph can save per iteration at most: the eager cost itself (when
 * one was read: eager_us > 0), and no more than PYGRAPH_GAIN_PER_OP_US per
 * op (the bound also holds while eager samples are still in flight, which
 * would otherwise let a capture through that cannot pay; bigger kernels
 * hide more of the launch cost). */
double pygraph_gain_bound_us(double eager_us, unsigned long n_ops);

/* What trying a graph costs: the capture, plus in auto mode with timing
 * the timed iterations that compare it with eager runs afterwards
 * (PYGRAPH_MEASURE_COST_US). */
double pygraph_trial_cost_us(const struct pygraph_decide_input *in);

/* (A capture is put off while the expected hits (pygraph_expected_hits)
 * times the gain bound could not pay for the trial: a rent-or-buy rule
 * whose worst case is bounded - with the trip count unknown, a loop is
 * eager by decision until a probe finds that its iterations so far would
 * have paid for it.  Within a known trip count the hits to come only
 * shrink: a back-to-back signature is then eager by decision too
 * (PYGRAPH_STAY_EAGER, "capture cannot pay back in the iterations left";
 * probes look again).  A cycle's signature keeps warming.) */

/* How many iterations a graph of this signature could save: the iterations
 * still to come (the rest of a known trip count; else, or once a loop entered
 * again ran past it, as many as ran so far) for one that comes back to back;
 * for one recurring apart, its share of them less (when timing) the
 * PYGRAPH_TURN_RUN eager turns that measuring it takes out of its few
 * sightings (a few signatures in turn, each seen a few times, would
 * otherwise capture graphs that are never replayed). */
double pygraph_expected_hits(const struct pygraph_decide_input *in);
/* Called after every completed (not flushed) iteration that ran eagerly
 * because no graph variant matched it.  On PYGRAPH_GO_EAGER, *reason says
 * why (on PYGRAPH_STAY_EAGER too); on PYGRAPH_KEEP_WARMING it is set only when the capture is put off
 * for cost (left alone while merely warming up or waiting for samples).
 * In auto mode with timing, a capture also waits for the signature's first
 * eager samples (pygraph_eager_before_capture: PYGRAPH_EAGER_BEFORE_CAPTURE,
 * at most PYGRAPH_MEASURE_MIN and the window) - unless the
 * GPU is PYGRAPH_BACKLOG_EVENTS events behind a young segment: launch costs
 * are hidden by the queue then, and a short loop would be over before the
 * samples came back. */
enum pygraph_decision pygraph_decide(const struct pygraph_settings *settings,
                                     const struct pygraph_decide_input *in,
                                     const char **reason);

/* ---- does a graph pay? ---------------------------------------------- */

struct pygraph_cost_input {
  double eager_us;              /* eager iteration period (stream order) */
  double graph_us;              /* graph iteration period, updates/refresh included */
  double capture_us;            /* host time of capture + instantiate */
  long long trip_count;         /* pygraph_region.trip_count (-1: unknown) */
  unsigned long long iters_observed;  /* iterations of the segment so far */
};

/* An undecided graph gets its verdict at the latest after this many
 * iterations of its signature, from the samples read by then (eager when
 * they are too few to trust): a GPU far behind, or a rival never timed,
 * cannot keep a segment measuring, nor running an unproven graph, for the
 * rest of the program. */

enum pygraph_verdict {
  PYGRAPH_VERDICT_GRAPH,
  PYGRAPH_VERDICT_EAGER
};

/* Iterations the capture cost is spread over: trip_count when known (>= 0)
 * unless more were observed already (a loop entered again), else the
 * iterations observed so far (a loop that ran N times is expected to run
 * about N more); at least 1. */
unsigned long long pygraph_expected_iterations(long long trip_count,
                                               unsigned long long iters_observed);

/* Graph only if graph_us + capture_us / expected < eager_us * (1 - margin).
 * PYGRAPH_MODE=graph always says graph, eager always eager.  The reason
 * (graph: "graph faster (...)", eager: "graph slower (<g> us vs <e> us per
 * iteration)", <g> including the amortized capture) is written to reason. */
enum pygraph_verdict pygraph_decide_cost(const struct pygraph_settings *settings,
                                         const struct pygraph_cost_input *in, char *reason,
                                         size_t reason_cap);

/* Is graph_us below eager_us by the margin (PYGRAPH_MARGIN), both
 * measured?  pygraph_decide_cost's test, with no capture to amortize: what
 * an undecided segment asks before it runs a graph outside its measuring
 * turns. */
int pygraph_faster_by_margin(const struct pygraph_settings *settings, double eager_us,
                             double graph_us);

/* Before the full window: 1 when the first samples already settle it
 * (graph at most 4/5 of eager, or at least 5/4), with *verdict set. */
int pygraph_clear_verdict(double eager_us, double graph_us, enum pygraph_verdict *verdict);

/* The same from PYGRAPH_MEASURE_MIN samples a side, by their extremes: the
 * graph's slowest sample at most 4/5 of eager's fastest (graph), or its
 * fastest at least 5/4 of eager's slowest (eager).  An outlier, such as a
 * cold first iteration, can only make a case look closer. */
int pygraph_clear_verdict_bounds(double eager_lo, double eager_hi, double graph_lo,
                                 double graph_hi, enum pygraph_verdict *verdict);

/* Hysteresis: has the behaviour a decision was based on changed markedly?
 * Compares per-iteration node updates (direct updates + argument refreshes)
 * and the share of iterations no variant matched, over a block of
 * iterations, with the block the decision was made on. */
struct pygraph_behaviour {
  double updates_per_iter;
  double miss_share;            /* 0..1 */
};
int pygraph_behaviour_changed(const struct pygraph_behaviour *then,
                              const struct pygraph_behaviour *now);

#endif /* PYGRAPH_DECIDE_H */
