/* segment.h - the per region-segment state machine.
 *
 * Every recorded iteration ends in exactly one of:
 *   hit      its launch-sequence signature matches a cached graph variant:
 *            changed nodes are updated (or the argument block refreshed) and
 *            the variant is launched;
 *   miss     no variant matches: its ops run eagerly, in order, once; a
 *            signature missed PYGRAPH_WARMUP times in a row (graph mode: once),
 *            or seen twice among the last PYGRAPH_NEVER_REPEATS misses (a
 *            cycle of launch sequences), gets its next iteration captured as
 *            a new variant, if a slot is free or a variant has gone stale
 *            (a full cache of variants in use is left alone);
 *   capture  that next iteration: built, instantiated, launched.
 * auto mode (selection.c) measures each signature eagerly (before its
 * capture and in turns after it) and as a graph, and keeps a variant only
 * when it pays (decide.h); a graph with indirect nodes gets a rival captured
 * without indirection, and the faster of the two stays.  A segment none of
 * whose variants pays runs eagerly (pass-through).  Faults, "signature
 * unstable", "signature never repeats", "iteration too long" and
 * PYGRAPH_MODE=eager: EAGER for good.
 *
 *   WARMUP --(stable)--> CAPTURE --(graph ok)--> REPLAY (>= 1 variant)
 *   REPLAY --(no variant left)--> WARMUP, or EAGER (cost decision, probed)
 *   any --(fault, unstable, too long, never repeats)--> EAGER (final) */
#ifndef PYGRAPH_SEGMENT_H
/* Iterations a segment may record without ever capturing before it stops
 * recording ("launch sequence never settles"). */
#define PYGRAPH_SETTLE_ITERS 256u
#define PYGRAPH_SEGMENT_H
/* Iterations a pinned capture candidate may stay away before another
 * signature takes its place. */
#define PYGRAPH_PIN_PATIENCE 32u

#include <stdatomic.h>

#include "backend.h"
#include "indirect.h"
#include "measure.h"
#include "pygraph_rt.h"
#include "settings.h"
#include "decide.h"

enum pygraph_phase {
  PYGRAPH_PHASE_WARMUP,
  PYGRAPH_PHASE_CAPTURE,       /* the next iteration becomes the graph */
  PYGRAPH_PHASE_REPLAY,
  PYGRAPH_PHASE_EAGER          /* for good */
};

struct pygraph_segment_stats {
  unsigned long long iters, replays, captures, updates, flushes, mismatches;
  unsigned long long rivals;                 /* captures of direct rivals (among captures) */
  unsigned long long launches_in_graphs;     /* kernel ops run through graphs */
  unsigned long long refreshes;              /* argument block (loader node) updates */
  unsigned long long indirect_nodes;         /* of the last graph captured */
  unsigned long long indirect_bytes;         /* its device block: bytes per refresh */
  unsigned long long eager_iters;            /* recorded iterations run eagerly (warm-up,
                                                misses, measuring turns) */
  unsigned long long timed;                  /* iterations timed by auto mode */
  unsigned long long program_captured;       /* iterations passed into a capture of the
                                                program's own (capture_check.h) */
};

/* Periods measured for one signature (the first measure_iters of each). */
struct pygraph_samples {
  float us[PYGRAPH_MAX_MEASURE_ITERS];
  unsigned n;
  double host_sum;                           /* host time inside the runtime */
  unsigned iters;                            /* a graph's: iterations of its signature
                                                while undecided (PYGRAPH_VERDICT_ITERS) */
};

#define PYGRAPH_SIG_STATS (PYGRAPH_MAX_VARIANTS + 4u)

struct pygraph_sig_stats {
  unsigned long long hash;
  unsigned long long last_used;              /* 0 = free entry */
  struct pygraph_samples eager;              /* graph spans are per variant */
  int challenged;                            /* a direct rival of its indirect graph
                                                was captured (once per signature) */
  unsigned turn, run_left;                   /* measuring: eager and its undecided
                                                graphs take turns, runs of
                                                PYGRAPH_TURN_RUN iterations */
  double capture_us;                         /* host time of capture + instantiate */
  int rejected;                              /* its graph did not pay: eager, never recaptured */
  int put_off;                               /* its capture could not pay back yet
                                                (pygraph_decide): timed only for
                                                the samples a capture waits for */
  long changed_ops;                          /* kernel ops with moving args (-1 unknown) */
};

/* One cached graph of the segment, for one signature. */
struct pygraph_variant {
  void *graph;                               /* NULL = free slot */
  struct pygraph_op_list *ref;               /* exactly what the graph's nodes hold */
  unsigned long long hash;
  struct pygraph_indirect indirect;          /* its indirect nodes */
  struct pygraph_arg_block args;             /* their argument block and loaders */
  unsigned long long last_used;              /* LRU stamp */
  int decided;                               /* 0: still measuring; 1: keeps its graph */
  unsigned long long id;                     /* capture number (samples name it) */
  unsigned long long seen_iter;              /* stats.iters when its signature last came */
  int direct_only;                           /* captured without indirection (the rival) */
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

struct pygraph_segment {
  const struct pygraph_backend *backend;
  struct pygraph_settings settings;          /* copied at creation */
  const pygraph_region *region;              /* for messages */
  unsigned index;

  atomic_flag busy;                          /* one thread per iteration */
  enum pygraph_phase phase;
  unsigned stable_iterations;                /* sightings of the candidate (reference)'s
                                                signature: consecutive, or recent ones
                                                when pinned */
  int has_reference;
  int pinned;                                /* reference = a recurring candidate that
                                                others' misses do not replace */
  int capture_next;                          /* the next miss like `reference` is captured */
  int flushed;                               /* this iteration stopped deferring */
  int shadowed;                              /* this iteration runs its ops as they come,
                                                recorded only for its signature (it can
                                                be neither replayed nor captured) */
  int shadow_timed;                          /* ... and a timing span started at its
                                                first op */
  /* Host clock at this iteration's begin (when the previous one was timed)
   * and at the end of the last timed one: a period between end events is
   * only taken when the host spent no longer outside the region than in it
   * (merge: 3 ms of host sorting around 2 launches of 25 us made eager and
   * graph periods indistinguishable, and auto never decided). */
  double begin_us, timed_end_us;
  int begin_clocked;
  size_t too_long;                           /* ops recorded when PYGRAPH_MAX_OPS was crossed */

  /* current = being recorded; reference = the last missed iteration (the
   * capture candidate); each variant's ref = what its graph holds.  A pool
   * of lists whose pointers are swapped, never copied. */
  struct pygraph_op_list lists[PYGRAPH_MAX_VARIANTS + 2];
  struct pygraph_op_list *current, *reference;
  const struct pygraph_op_list *hint;        /* last completed iteration (layout hints) */
  unsigned long long candidate_seen;         /* iteration the candidate was last seen */

  /* Per op position: did its kernel arguments change between consecutive
   * iterations of the current signature (warm-up and the capture itself)? */
  unsigned char *arg_changed;
  size_t n_arg_changed, cap_arg_changed;

  struct pygraph_variant variants[PYGRAPH_MAX_VARIANTS];
  unsigned n_variants;
  struct pygraph_variant *active;            /* last captured or replayed, or NULL */
  unsigned long long variant_ids;            /* ids handed out */
  unsigned long long clock;                  /* LRU stamps */

  /* Selective deployment (auto mode). */
  struct pygraph_measure measure;
  unsigned poll_backoff;                     /* iterations until the next poll */
  unsigned long long last_clock;             /* thread's iteration clock at our last end */
  unsigned long long timed_iter;             /* the last timed iteration (stats.iters) ... */
  unsigned long long timed_hash;             /* ... its signature ... */
  enum pygraph_sample_kind timed_kind;       /* ... what it ran as ... */
  unsigned long long timed_variant;          /* ... and which graph */
  struct pygraph_sig_stats sigs[PYGRAPH_SIG_STATS];
  enum pygraph_decision_state decision;
  double eager_us, graph_us;                 /* of the last cost decision */
  char why[160];                             /* reason of the current decision */
  unsigned flips;                            /* decision changes */
  unsigned reevaluations;                    /* <= PYGRAPH_MAX_FLIPS */
  int final;                                 /* EAGER for good: no probes */
  unsigned probe_countdown, probe_state;     /* decided-eager: 2 recorded of 64 */
  /* hysteresis: behaviour per PYGRAPH_BEHAVIOUR_BLOCK iterations */
  struct pygraph_behaviour baseline;
  int has_baseline;
  unsigned long long block_iters, block_updates, block_misses;
  unsigned long long iter_updates;           /* updates + refreshes this iteration */
  /* signature never repeats */
  unsigned long long recent[PYGRAPH_NEVER_REPEATS];
  unsigned n_recent, recent_next, distinct_streak;

  struct pygraph_segment_stats stats;
  char fallback[160];                        /* why EAGER; "" when not a fallback */
  const char *last_flush_reason;
};

void pygraph_segment_init(struct pygraph_segment *seg, const struct pygraph_backend *backend,
                          const struct pygraph_settings *settings,
                          const pygraph_region *region, unsigned index);

/* Non-blocking: a busy segment is left alone (the caller passes through). */
int pygraph_segment_try_acquire(struct pygraph_segment *seg);
void pygraph_segment_release(struct pygraph_segment *seg);

/* Returns 1 when this iteration's ops are to be recorded: deferred, or
 * (seg->shadowed) run as they come and recorded alongside. */
int pygraph_segment_begin_iteration(struct pygraph_segment *seg);

/* A shadowed iteration's op, just recorded: it runs now (`args`: the
 * kernel's arguments as the caller passed them), after the start of the
 * iteration's timing span when it is the first and auto mode may sample
 * it. */
void pygraph_segment_run_shadowed(struct pygraph_segment *seg, const struct pygraph_op *op,
                                  void **args);
void pygraph_segment_end_iteration(struct pygraph_segment *seg);

/* An op that cannot be deferred arrived: run what was recorded so far; the
 * caller runs the op itself and the rest of the iteration passes through. */
void pygraph_segment_flush(struct pygraph_segment *seg, const char *reason);

/* A stream of this iteration is being captured by the program: run what was
 * recorded so far, in order; the rest of the iteration passes straight into
 * the capture, and its end does nothing (no timing, no capture, no graph).
 * Unlike a flush it leaves the warm-up alone: the iterations around it go on
 * as if it had not been a recorded one. */
void pygraph_segment_yield_to_program_capture(struct pygraph_segment *seg);

/* The report's words for such iterations. */
#define PYGRAPH_PROGRAM_CAPTURE_REASON "stream captured by the program"

/* "graph", "eager" or "warmup", for the report. */
const char *pygraph_segment_mode_name(const struct pygraph_segment *seg);

/* "graph" or "eager": what the segment has decided (or, undecided, runs). */
const char *pygraph_segment_decision_name(const struct pygraph_segment *seg);

/* Live graph variants. */
unsigned pygraph_segment_variants(const struct pygraph_segment *seg);

/* Record-time cap (PYGRAPH_MAX_OPS): called by record.c before appending
 * op number n_ops + 1.  Returns 1 when the op must not be recorded (the
 * segment flushed and will go eager for good at the iteration's end). */
int pygraph_segment_over_cap(struct pygraph_segment *seg);

#endif /* PYGRAPH_SEGMENT_H */
