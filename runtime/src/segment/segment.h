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


#include "common/settings.h"
#include "port/backend.h"
#include "pygraph_rt.h"
#include "recording/op_list.h"

/* Opaque outside segment/ (segment_internal.h holds it): the report reads a
 * summary, the interception front records through the calls below. */
struct pygraph_segment;

/* A new segment state (common/state_arena.h's memory), or NULL when out
 * of memory.  Private to its creator until published. */
struct pygraph_segment *pygraph_segment_create(const struct pygraph_backend *backend,
                                               const struct pygraph_settings *settings,
                                               const pygraph_region *region, unsigned index);
/* Another state of the same segment (another thread's), configured alike. */
struct pygraph_segment *pygraph_segment_create_like(const struct pygraph_segment *first);
/* The state is in use for good (never freed from now on: the report reads it
 * at exit, and its allocation pool joins the process's list). */
void pygraph_segment_publish(struct pygraph_segment *seg);
/* Frees a state never published (one that lost a creation race). */
void pygraph_segment_discard(struct pygraph_segment *seg);

/* Non-blocking: a busy segment is left alone (the caller passes through). */
int pygraph_segment_try_acquire(struct pygraph_segment *seg);
void pygraph_segment_release(struct pygraph_segment *seg);

/* Returns 1 when this iteration's ops are to be recorded: deferred, or
 * (a shadowed iteration) run as they come and recorded alongside. */
int pygraph_segment_begin_iteration(struct pygraph_segment *seg);

/* Batchable loops (batch.h), where the "iteration" above is a unit of K
 * loop iterations.  The loop is entered (trips: its trip count from here,
 * -1 when not known). */
void pygraph_segment_start_loop_run(struct pygraph_segment *seg, long long trips);
/* A loop iteration of the recording unit ended.  Returns 1 when the unit is
 * complete and must end (pygraph_segment_end_iteration); 0 while it goes on
 * recording into the next loop iteration. */
int pygraph_segment_loop_iteration_end(struct pygraph_segment *seg);

/* ---- recording (the interception front, abi/record.c) ---- */

/* The backend the segment runs on. */
const struct pygraph_backend *pygraph_segment_backend(const struct pygraph_segment *seg);
/* What this iteration recorded so far, and the last completed iteration
 * (layout hints; NULL when none). */
const struct pygraph_op_list *pygraph_segment_recorded(const struct pygraph_segment *seg);
const struct pygraph_op_list *pygraph_segment_hint(const struct pygraph_segment *seg);
/* Appends op (`args`: a kernel's arguments as the caller passed them,
 * copied into the recording; else NULL; a PYGRAPH_OP_HOST_BYTES op's bytes
 * at op->src are copied too); in a shadowed iteration it also runs now.  Returns NULL, or why it
 * could not be recorded (the caller flushes). */
const char *pygraph_segment_append(struct pygraph_segment *seg, const struct pygraph_op *op,
                                   void **args);

/* A probe that only counts (a decided-eager segment whose iterations held
 * too few ops for a graph): counts this op and returns 1, and the caller
 * makes the call itself, as when passing through; else 0. */
int pygraph_segment_counts_only(struct pygraph_segment *seg);

void pygraph_segment_end_iteration(struct pygraph_segment *seg);

/* cudaMalloc / cudaFree of a recording iteration (alloc_pool.h): 1 when
 * the segment's pool answered (*ptr set; the block taken back), 0 when the
 * caller makes the real call (a free then flushes first: what was deferred
 * may still use the memory). */
int pygraph_segment_allocate(struct pygraph_segment *seg, size_t size, void **ptr);
int pygraph_segment_free(struct pygraph_segment *seg, const void *ptr);

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

/* ---- for the report ---- */

struct pygraph_segment_summary {
  const pygraph_region *region;
  unsigned index;
  const char *mode;                          /* "graph", "eager" or "warmup" */
  const char *decision;                      /* "graph" or "eager": decided, or what runs */
  const char *why;                           /* why it runs as it does ("-" when nothing) */
  const char *fallback;                      /* why it (also) ran eagerly ("-" when not) */
  const char *last_flush;                    /* NULL when it never flushed */
  unsigned long long iters, replays, captures, updates, flushes, mismatches;
  unsigned long long indirect_nodes, indirect_bytes;   /* of the graph in use (or the last) */
  unsigned long long eager_iters, timed, program_captured, launches_in_graphs;
  unsigned long long rivals;                 /* direct rivals among the captures */
  unsigned long long refreshes;              /* argument-block refreshes (loader updates) */
  unsigned long long graph_iters;            /* loop iterations run by graphs */
  unsigned variants;                         /* live graph variants */
  double eager_us, graph_us;
  int batched;                               /* a batchable loop's segment */
  unsigned batch_k;                          /* K of the last run (1: not batched) */
  int batch_given_up;
  double iters_per_graph;
  unsigned long long tail_iters;
  unsigned long long pool_served;            /* cudaMalloc answered by a reused block */
  unsigned long long pool_allocated;         /* blocks the pool allocated */
  unsigned long long pool_bytes;             /* bytes it holds now */
  const char *pool_off;                      /* why it serves nothing (NULL: it does) */
  unsigned long long library_calls;          /* library calls recorded (cuBLAS) */
  const char *verify;                        /* PYGRAPH_VERIFY: "ok <n>", "mismatch <kernel>
                                                arg <i> buffer <base>+<offset>" or
                                                "off: <why>" (verify.h); NULL when off */
};

void pygraph_segment_summarize(const struct pygraph_segment *seg,
                               struct pygraph_segment_summary *out);

/* "graph" or "eager": what the segment has decided (or, undecided, runs). */
const char *pygraph_segment_decision_name(const struct pygraph_segment *seg);

/* Record-time cap (PYGRAPH_MAX_OPS): called by record.c before appending
 * op number n_ops + 1.  Returns 1 when the op must not be recorded (the
 * segment flushed and will go eager for good at the iteration's end). */
int pygraph_segment_over_cap(struct pygraph_segment *seg);

/* A collective library call (NCCL) is about to be recorded in this
 * iteration.  Whether a collective's launch is graph-captured must be the
 * same on every rank taking part (NCCL, "Using NCCL with CUDA Graphs"), and
 * every rank decides alone: the segment's choices must not hang on
 * timings, which differ between processes.  A segment that meets its first
 * collective in its first iteration makes graph mode's choices from then
 * on (warm-up, capture, replay, a miss eager: the same on every rank whose
 * iterations launch alike) and returns NULL.  One that meets it later,
 * when auto mode may have timed and decided, goes eager for good (also the
 * same on every rank) and returns why: the caller flushes, the call runs
 * at once.  A segment in graph mode already returns NULL. */
const char *pygraph_segment_note_collective(struct pygraph_segment *seg);

/* The segment's iteration (its state of one device) is part of a region
 * iteration whose ops span several devices (abi/devices.h): one state per
 * device, each recording its device's ops.  Their choices must not hang on
 * timings taken on one device only, nor differ so that one device replays
 * while another runs eagerly: as for collectives, a segment meeting it in
 * its first iteration makes graph mode's choices from then on (NULL); one
 * meeting it later goes eager for good and returns why (the caller
 * flushes). */
const char *pygraph_segment_note_devices(struct pygraph_segment *seg);

/* Why the segment is eager for good (a fault, ...), NULL when it is not. */
const char *pygraph_segment_eager_for_good(const struct pygraph_segment *seg);

/* Eager for good from the next iteration, for `why` (copied), unless it is
 * already: another device's state of the same region iteration went. */
void pygraph_segment_give_up(struct pygraph_segment *seg, const char *why);

#endif /* PYGRAPH_SEGMENT_H */
