/* segment.h - the per region-segment state machine, the only writer of
 * the phase.  It owns the recording lists, the capture candidate, the
 * warm-up and the statistics; the graphs are the variant cache's
 * (variant_cache.h), measuring and verdicts auto mode's (selection.h).
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
#define PYGRAPH_SEGMENT_H


#include <stdatomic.h>

#include "common/settings.h"
#include "graphs/variant_cache.h"
#include "port/backend.h"
#include "pygraph_rt.h"
#include "segment/batch.h"
#include "segment/candidate.h"
#include "selection/selection.h"

enum pygraph_phase {
  PYGRAPH_PHASE_WARMUP,
  PYGRAPH_PHASE_CAPTURE,       /* the next iteration becomes the graph */
  PYGRAPH_PHASE_REPLAY,
  PYGRAPH_PHASE_EAGER          /* for good, or by decision (then probed) */
};

/* A decided-eager segment records 2 consecutive iterations out of every
 * PYGRAPH_PROBE_INTERVAL, which look for a change in behaviour. */
enum pygraph_probe_state {
  PYGRAPH_PROBE_OFF,           /* not probing: iterations pass through */
  PYGRAPH_PROBE_FIRST,         /* this iteration is the probe's first */
  PYGRAPH_PROBE_SECOND_NEXT,   /* the first ended: the next one records too */
  PYGRAPH_PROBE_SECOND         /* this iteration is the probe's second */
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
  unsigned long long program_captured;       /* iterations passed into a capture of the
                                                program's own (capture_check.h) */
  unsigned long long graph_iters;            /* loop iterations run by graphs (a unit
                                                of a batchable loop holds several) */
  unsigned long long tail_iters;             /* loop iterations of partial units, run
                                                eagerly (batch.h) */
};

struct pygraph_segment {
  const struct pygraph_backend *backend;
  struct pygraph_settings settings;          /* copied at creation */
  const pygraph_region *region;              /* for messages */
  unsigned index;

  atomic_flag busy;                          /* one thread per iteration */
  enum pygraph_phase phase;
  int final;                                 /* EAGER for good: no probes */
  enum pygraph_probe_state probe;
  unsigned probe_countdown;                  /* iterations since the last probe */

  struct pygraph_candidate cand;             /* the capture candidate (candidate.h) */

  int flushed;                               /* this iteration stopped deferring */
  int shadowed;                              /* this iteration runs its ops as they come,
                                                recorded only for its signature (it can
                                                be neither replayed nor captured) */
  /* The host clock at this iteration's begin, read when selection's last
   * reply asked for it (it times an iteration against the host's own work
   * between timed ones). */
  int clock_next_begin, clocked;
  double begin_us;
  size_t too_long;                           /* ops recorded when PYGRAPH_MAX_OPS was crossed */
  const char *eager_for_good;                /* this iteration sent it eager for good: why */
  int stopped_batching;                      /* this iteration gave up batching */
  /* current = being recorded; candidate = the last missed iteration; each
   * variant's ref = what its graph holds.  A pool of lists whose pointers
   * are swapped, never copied. */
  struct pygraph_op_list lists[PYGRAPH_MAX_VARIANTS + 2];
  struct pygraph_op_list *current, *candidate;
  const struct pygraph_op_list *hint;        /* last completed iteration (layout hints) */

  /* Per op position: did its kernel arguments change between consecutive
   * iterations of the current signature (warm-up and the capture itself)? */
  unsigned char *arg_changed;
  size_t n_arg_changed, cap_arg_changed;

  unsigned long long iter_updates;           /* updates + refreshes this iteration */
  struct pygraph_segment_stats stats;
  char fallback[160];                        /* why EAGER; "" when not a fallback */
  const char *last_flush_reason;

  struct pygraph_batch batch;                /* iterations per unit (batch.h) */
  struct pygraph_variant_cache cache;        /* the graphs */
  struct pygraph_selection sel;              /* the policy: what runs, verdicts (selection.h) */
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

/* Batchable loops (batch.h), where the "iteration" above is a unit of K
 * loop iterations.  The loop is entered (trips: its trip count from here,
 * -1 when not known). */
void pygraph_segment_start_loop_run(struct pygraph_segment *seg, long long trips);
/* A loop iteration of the recording unit ended.  Returns 1 when the unit is
 * complete and must end (pygraph_segment_end_iteration); 0 while it goes on
 * recording into the next loop iteration. */
int pygraph_segment_loop_iteration_end(struct pygraph_segment *seg);

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
