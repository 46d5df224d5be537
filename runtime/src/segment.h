/* segment.h - the per region-segment state machine.
 *
 *   WARMUP --(decide: stable)--> CAPTURE --(graph ok)--> REPLAY
 *     ^                                                    |
 *     +------------------(signature mismatch)--------------+
 *   any graph fault, PYGRAPH_MODE=eager, too many captures --> EAGER (final)
 *
 * Every iteration records its ops (except in EAGER) and, at its end, runs
 * them exactly once: eagerly in order, or as one graph launch. */
#ifndef PYGRAPH_SEGMENT_H
#define PYGRAPH_SEGMENT_H

#include <stdatomic.h>

#include "backend.h"
#include "indirect.h"
#include "pygraph_rt.h"
#include "settings.h"
#include "staging.h"

enum pygraph_phase {
  PYGRAPH_PHASE_WARMUP,
  PYGRAPH_PHASE_CAPTURE,       /* the next iteration becomes the graph */
  PYGRAPH_PHASE_REPLAY,
  PYGRAPH_PHASE_EAGER          /* for good */
};

struct pygraph_segment_stats {
  unsigned long long iters, replays, captures, updates, flushes, mismatches;
  unsigned long long launches_in_graphs;     /* kernel ops run through graphs */
  unsigned long long refreshes;              /* staging (memcpy node) updates */
  unsigned long long indirect_nodes;         /* of the last graph captured */
  unsigned long long indirect_bytes;         /* its device block: bytes per refresh */
};

struct pygraph_segment {
  const struct pygraph_backend *backend;
  struct pygraph_settings settings;          /* copied at creation */
  const pygraph_region *region;              /* for messages */
  unsigned index;

  atomic_flag busy;                          /* one thread per iteration */
  enum pygraph_phase phase;
  unsigned stable_iterations;
  int has_reference;
  int flushed;                               /* this iteration stopped deferring */

  /* current = being recorded; reference = last completed iteration, which
   * in REPLAY is exactly what the graph's nodes hold.  Swapped, not copied. */
  struct pygraph_op_list lists[2];
  struct pygraph_op_list *current, *reference;

  /* Per op position: did its kernel arguments change between consecutive
   * iterations of the current signature (warm-up and the capture itself)? */
  unsigned char *arg_changed;
  size_t n_arg_changed, cap_arg_changed;

  void *graph;                               /* backend graph, NULL if none */
  struct pygraph_indirect indirect;          /* graph's indirect nodes */
  struct pygraph_staging staging;            /* their argument refresh ring */
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

/* Returns 1 when this iteration's ops are to be recorded (deferred). */
int pygraph_segment_begin_iteration(struct pygraph_segment *seg);
void pygraph_segment_end_iteration(struct pygraph_segment *seg);

/* An op that cannot be deferred arrived: run what was recorded so far; the
 * caller runs the op itself and the rest of the iteration passes through. */
void pygraph_segment_flush(struct pygraph_segment *seg, const char *reason);

/* "graph", "eager" or "warmup", for the report. */
const char *pygraph_segment_mode_name(const struct pygraph_segment *seg);

#endif /* PYGRAPH_SEGMENT_H */
