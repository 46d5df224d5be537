/* segment_internal.h - the state of a region segment, private to segment/
 * (utils/check_layers.py refuses an include of it from elsewhere in the
 * runtime; unit tests look inside on purpose).  segment.h says what the
 * state machine does. */
#ifndef PYGRAPH_SEGMENT_INTERNAL_H
#define PYGRAPH_SEGMENT_INTERNAL_H

#include <stdatomic.h>

#include "graphs/variant_cache.h"
#include "segment/alloc_pool.h"
#include "segment/batch.h"
#include "segment/candidate.h"
#include "segment/ranges.h"
#include "segment/segment.h"
#include "segment/verify.h"
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
  PYGRAPH_PROBE_SECOND,        /* this iteration is the probe's second */
  PYGRAPH_PROBE_COUNT          /* this iteration's ops are only counted (probe_counts) */
};

struct pygraph_segment_stats {
  unsigned long long iters, replays, captures, updates, flushes, mismatches;
  unsigned long long rivals;                 /* captures of direct rivals (among captures) */
  unsigned long long launches_in_graphs;     /* kernel and library ops run through graphs */
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
  unsigned long long library_calls;          /* library calls recorded (PYGRAPH_OP_LIBRARY) */
};

struct pygraph_segment {
  const struct pygraph_backend *backend;
  struct pygraph_settings settings;          /* copied at creation */
  const pygraph_region *region;              /* for messages */
  unsigned index;

  atomic_flag busy;                          /* one thread per iteration */
  enum pygraph_phase phase;
  int final;                                 /* EAGER for good: no probes */
  int collective;                            /* it records NCCL collectives: its choices
                                                are graph mode's, untimed
                                                (pygraph_segment_note_collective) */
  int devices;                               /* it takes part in iterations over several
                                                devices: likewise graph mode's choices
                                                (pygraph_segment_note_devices) */
  enum pygraph_probe_state probe;
  unsigned probe_countdown;                  /* iterations since the last probe */
  /* Its iterations held fewer ops than a probe needs to show anything
   * (selection's probe_min_ops, PYGRAPH_MIN_OPS): a probe counts the
   * iteration's ops as they pass through - no capture query, no copy, no
   * hash - and records a probe only once they reach that many. */
  int probe_counts;
  unsigned probe_min_ops;
  size_t counted;                            /* ops counted this iteration */

  struct pygraph_candidate cand;             /* the capture candidate (candidate.h) */
  unsigned long long warm_from;              /* iterations when a probe last restarted the
                                                warm-up (PYGRAPH_SETTLE_ITERS counts from
                                                there) */

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
  const char *fallback;                      /* why EAGER for good, whole (a heap copy or
                                                kOutOfMemoryWhy); "" when not a fallback */
  const char *last_flush_reason;

  struct pygraph_batch batch;                /* iterations per unit (batch.h) */
  struct pygraph_variant_cache cache;        /* the graphs */
  struct pygraph_selection sel;              /* the policy: what runs, verdicts (selection.h) */
  struct pygraph_ranges ranges;              /* the timeline's range names (ranges.h) */
  struct pygraph_verify verify;              /* PYGRAPH_VERIFY (verify.h) */
  struct pygraph_alloc_pool pool;            /* cudaMalloc/cudaFree in iterations */
};

/* Sets up a segment state in place (tests use it on the stack). */
void pygraph_segment_init(struct pygraph_segment *seg, const struct pygraph_backend *backend,
                          const struct pygraph_settings *settings,
                          const pygraph_region *region, unsigned index);

#endif /* PYGRAPH_SEGMENT_INTERNAL_H */
