/* selection.h - the policy: what each recorded iteration of a segment runs
 * (eagerly, a graph, a capture, a direct rival), how it is timed, and what
 * the timings decide (keep a graph, which of an indirect graph and its
 * direct rival, run eagerly, capture the candidate next).  In every mode:
 * auto mode measures, graph mode keeps every graph.
 *
 * The state machine (segment.c) talks to it through two calls per
 * iteration end, and through nothing else:
 *   pygraph_selection_plan     the facts of a recorded iteration (its
 *                              signature, its graph if any) -> what runs it;
 *                              a shadowed iteration (its ops run as they
 *                              come) asks at its first op instead, since its
 *                              timing span starts there;
 *   pygraph_selection_outcome  what happened (every iteration end, whatever
 *                              its path) -> what to drop, whether to go
 *                              eager, whether to capture the candidate.
 * The segment applies the reply itself: selection never writes the
 * segment's state and never changes the graph cache (it reads it).  Its own
 * state below is written by selection/ alone; the report reads a summary.
 * Pure policy lives in decide.c, samples in samples.c, timing in timing.c,
 * measuring turns in turns.c, verdicts in verdicts.c. */
#ifndef PYGRAPH_SELECTION_H
#define PYGRAPH_SELECTION_H

#include "common/policy.h"
#include "common/settings.h"
#include "graphs/variant_cache.h"
#include "port/backend.h"
#include "pygraph_rt.h"
#include "selection/decide.h"
#include "selection/measure.h"
#include "selection/samples.h"

/* Per signature: its eager samples and what was decided about it. */
struct pygraph_sig_stats {
  unsigned long long hash;
  unsigned long long last_used;              /* 0 = free entry */
  struct pygraph_samples eager;              /* graph samples are per graph */
  int challenged;                            /* a direct rival of its indirect graph
                                                was captured (once per signature) */
  unsigned turn, run_left;                   /* measuring: eager and its undecided
                                                graphs take turns, runs of
                                                PYGRAPH_TURN_RUN iterations */
  double capture_us;                         /* host time of capture + instantiate */
  int rejected;                              /* its graph did not pay: eager, never recaptured */
  int put_off;                               /* its capture could not pay back yet:
                                                timed only for the samples a
                                                capture waits for */
  long changed_ops;                          /* kernel ops with moving args (-1 unknown) */
};

/* Per graph of the cache (by slot): the verdict on it.  `id` names the
 * variant it is about; a slot whose variant changed starts afresh. */
struct pygraph_graph_verdict {
  unsigned long long id;
  int decided;                               /* 0: still measured; 1: kept */
  struct pygraph_samples samples;            /* its graph samples while undecided */
  char rival[80];                            /* "; indirect graph x us vs direct y us"
                                                once it beat its rival, else "" */
  long changed_ops;                          /* ops updated by the last measured replay */
};

enum pygraph_decision_state {
  PYGRAPH_UNDECIDED,
  PYGRAPH_DECIDED_GRAPH,
  PYGRAPH_DECIDED_EAGER
};

/* What runs an iteration that has a graph (a hit), while no side is timed
 * (every side's samples are planned or in flight, the GPU is far behind,
 * the ring is full):
 *   TURN_WAIT        the graph its samples show faster, or one running on a
 *                    sibling's gain (verdicts.h), untimed;
 *   TURN_WAIT_EAGER  its ops eagerly, untimed: no graph is shown faster yet. */
enum pygraph_turn { TURN_GRAPH, TURN_EAGER, TURN_RIVAL, TURN_WAIT, TURN_WAIT_EAGER };

struct pygraph_selection {
  /* What it reads (the segment's, given at init). */
  const struct pygraph_backend *backend;
  const struct pygraph_settings *settings;
  const pygraph_region *region;              /* for messages and the trip count */
  unsigned index;
  const struct pygraph_variant_cache *cache; /* the graphs it judges (read only) */
  unsigned long long iters;                  /* iteration ends seen (the segment's count) */

  /* Timing (timing.c). */
  struct pygraph_measure measure;
  unsigned poll_backoff;                     /* iterations until the next poll */
  unsigned long long last_clock;             /* thread's iteration clock at our last end */
  unsigned long long timed_iter;             /* the last timed iteration ... */
  unsigned long long timed_hash;             /* ... its signature ... */
  enum pygraph_sample_kind timed_kind;       /* ... what it ran as ... */
  unsigned long long timed_variant;          /* ... and which graph */
  unsigned long long timed;                  /* iterations timed */
  double timed_end_us;                       /* host clock at the last timed end */
  int shadow_timed;                          /* a shadowed iteration's span started */
  double unit_end_us, host_period_us;        /* batchable loops: host time between two
                                                recorded eager units (0: not measured) */
  unsigned long long unit_end_iter;

  /* The iteration being ended (plan -> outcome). */
  struct pygraph_iteration_plan_state {
    int timing;                              /* timed: its end event is recorded */
    double t0;                               /* host clock at the timing's start */
    enum pygraph_turn turn;
    const struct pygraph_variant *variant;   /* the graph the plan runs, or NULL */
    int capture_decided;                     /* a capture's graph is kept unmeasured */
  } now;

  /* Samples and verdicts (verdicts.c). */
  struct pygraph_sig_stats sigs[PYGRAPH_SIG_STATS];
  unsigned long long sig_clock;              /* LRU stamps of sigs */
  struct pygraph_graph_verdict graphs[PYGRAPH_MAX_VARIANTS];
  unsigned drop;                             /* slots to drop, returned by the outcome */
  enum pygraph_decision_state decision;
  double eager_us, graph_us;                 /* of the last cost decision */
  char why[160];                             /* reason of the current decision */
  char eager_why[160];                       /* a verdict that left no graph: why */
  int undecided_graph;                       /* undecided, a graph shown faster runs */
  unsigned flips;                            /* decision changes */
  unsigned reevaluations;                    /* <= PYGRAPH_MAX_FLIPS */

  /* Hysteresis: behaviour per PYGRAPH_BEHAVIOUR_BLOCK iterations. */
  struct pygraph_behaviour baseline;
  int has_baseline;
  unsigned long long block_iters, block_updates, block_misses;
};

void pygraph_selection_init(struct pygraph_selection *sel, const struct pygraph_backend *backend,
                            const struct pygraph_settings *settings,
                            const pygraph_region *region, unsigned index,
                            const struct pygraph_variant_cache *cache);

/* ---- call 1: the plan ---------------------------------------------------- */

struct pygraph_iteration_facts {
  unsigned long long iters;                  /* the segment's iterations, this one included */
  int shadowed;                              /* asked at the first op of an iteration
                                                whose ops run as they come: only
                                                `stream` and `phase_eager` are set */
  int phase_eager;                           /* a probe of a decided-eager segment */
  unsigned long long hash;                   /* its launch-sequence signature */
  cudaStream_t stream;                       /* its first op's stream */
  struct pygraph_variant *hit;               /* the graph matching it, or NULL */
  int capture_planned;                       /* a miss whose capture is planned now */
  int clocked;                               /* begin_us is the host clock at its begin */
  double begin_us;
};

struct pygraph_plan {
  enum pygraph_turn turn;                    /* a hit: what runs */
  struct pygraph_variant *variant;           /* the graph to run (the hit, or its rival) */
  int count_changes;                         /* replay: count every changed op */
  int capture_decided;                       /* a capture: its graph needs no measuring */
};

struct pygraph_plan pygraph_selection_plan(struct pygraph_selection *sel,
                                           const struct pygraph_iteration_facts *facts);

/* ---- call 2: the outcome -------------------------------------------------- */

enum pygraph_iteration_end {
  PYGRAPH_END_RAN,              /* recorded and run as planned */
  PYGRAPH_END_SHADOWED,         /* recorded, its ops ran as they came */
  PYGRAPH_END_IDLE,             /* nothing to judge: empty, unrecorded, a probe-less eager
                                   iteration, or one over the op cap */
  PYGRAPH_END_FLUSHED,          /* stopped recording midway: everything ran */
  PYGRAPH_END_PARTIAL,          /* a batch unit cut short: run eagerly */
  PYGRAPH_END_PROBE             /* a probe iteration of a decided-eager segment, run */
};

/* A miss: what would make it the capture candidate (decide.h's input). */
struct pygraph_candidate_facts {
  int same;                                  /* like the current candidate */
  int back_to_back;                          /* ... which came the iteration before too */
  int keep_other;                            /* a pinned candidate keeps its place */
  unsigned sightings;                        /* its sightings, if it becomes the candidate */
  unsigned recent_sightings, recent_window;  /* a cycle: sightings among the last misses */
  unsigned captures;                         /* graphs captured so far, rivals not counted */
  unsigned long n_ops;
  long changed_vs_candidate;                 /* same: ops whose arguments moved */
  long long trip_count;                      /* units to come in this loop run (-1 unknown) */
};

struct pygraph_iteration_outcome {
  enum pygraph_iteration_end end;
  unsigned long long iters;                  /* the segment's iterations, this one included */
  unsigned long long hash;
  cudaStream_t stream;
  const struct pygraph_variant *ran;         /* the graph that ran it, or NULL */
  int captured;                              /* `ran` was captured this iteration */
  double capture_us;
  unsigned long n_ops;
  long changed_ops;                          /* a replay: ops with new parameters */
  int miss;                                  /* no graph matched (captured or run eagerly) */
  struct pygraph_candidate_facts candidate;  /* a miss run eagerly */
  unsigned long long iter_updates;           /* node updates and refreshes */
  const char *eager_for_good;                /* the segment went eager for good: why */
  int stopped_batching;                      /* its units of K iterations were given up */
  int batch;                                 /* a batchable loop's unit */
  int probe_second;                          /* PROBE: the second of the pair */
  const struct pygraph_op_list *cur, *prev;  /* PROBE: the two iterations */
  int probe_cut;                             /* PARTIAL: it was a probe's */
  int verified;                              /* also run eagerly for verify mode: its
                                                timing is no sample */
};

enum pygraph_capture_answer {
  PYGRAPH_CAPTURE_NONE,         /* not a candidate question */
  PYGRAPH_CAPTURE_WAIT,         /* keep warming */
  PYGRAPH_CAPTURE_WAIT_UNPIN,   /* put off for cost: another may take its place */
  PYGRAPH_CAPTURE_PLAN          /* capture it at its next sighting */
};

struct pygraph_selection_reply {
  unsigned drop;                             /* bit i: drop the cache's variant i */
  const char *go_eager;                      /* NULL, or why it runs eagerly from now on */
  int for_good;                              /* ... for good (no probes) */
  int final;                                 /* by decision, no re-evaluation left */
  int rejected;                              /* a miss known not to pay: not a candidate */
  enum pygraph_capture_answer capture;
  const char *restart;                       /* a probe saw this change: warm up again */
  unsigned probe_min_ops;                    /* a probe of fewer ops shows no change worth
                                                a graph (verdicts.c: PYGRAPH_MIN_OPS in
                                                auto mode), so need not be recorded */
  int clock_next_begin;                      /* read the host clock at the next begin */
};

struct pygraph_selection_reply pygraph_selection_outcome(
    struct pygraph_selection *sel, const struct pygraph_iteration_outcome *out);

/* ---- for the report ------------------------------------------------------ */

struct pygraph_selection_summary {
  enum pygraph_decision_state decision;
  int undecided_graph;                       /* undecided: a graph (shown faster) runs,
                                                else eager runs */
  const char *why;                           /* "" when none */
  double eager_us, graph_us;
  unsigned long long timed;
};

void pygraph_selection_summarize(const struct pygraph_selection *sel,
                                 struct pygraph_selection_summary *out);

#endif /* PYGRAPH_SELECTION_H */
