/* batch.h - multi-iteration units of a batchable loop (PYGRAPH_REGION_BATCH).
 *
 * The pass proved such a loop barrier-free and its host part free of stores
 * a kernel could read, so the segment may keep recording across iterations:
 * its unit of work (what one signature, one graph and one measurement cover)
 * becomes K consecutive loop iterations instead of one.  This file is the
 * only writer of the batch state and holds the policy for K; the segment
 * (segment.c) asks it whether a unit is complete.
 *
 * K is chosen at the end of the first recorded iteration of each loop run
 * (the first time its op count is known) and frozen for the run, so every
 * full unit of the run has the same launch sequence:
 *   - a power of 2 (even: period-2 pointer swaps repeat within a unit),
 *   - at most the region's batch_max (the plugin's batch=) and PYGRAPH_BATCH,
 *   - at most PYGRAPH_MAX_OPS / (2 x ops of an iteration) (the op cap),
 *   - at most trips / PYGRAPH_BATCH_MIN_UNITS when the run's trip count is
 *     known (from the pass, else the previous run's), so the units of one
 *     run repay their capture and the eager tail stays short;
 *   - 1 when an iteration has PYGRAPH_BATCH_MAX_ITER_OPS ops or more,
 *   - at most PYGRAPH_BATCH_MULTISTREAM_K when the iteration's ops use more
 *     than one stream (the legacy default stream among them counts as one:
 *     the graph plan chains every op then),
 *   - K < 2 means no batching: one iteration per unit, as for loop regions.
 * The iterations of a run after its last full unit (the tail, or a unit cut
 * short by a loop exit) run eagerly, exactly once. */
#ifndef PYGRAPH_BATCH_H
#define PYGRAPH_BATCH_H

#include <stddef.h>

#include "common/policy.h"
#include "recording/op_list.h"

struct pygraph_batch {
  unsigned max;                       /* most iterations per unit; < 2: off */
  unsigned k;                         /* this run's iterations per unit; 0: not chosen */
  unsigned in_unit;                   /* iterations ended in the open unit */
  long long trips;                    /* this run's trip count, -1: not known */
  unsigned long long run_iters;       /* iterations ended in this run */
  unsigned long long last_run_iters;  /* the previous run's, 0: none yet */
  int given_up;                       /* units never settled: one iteration each */
};

/* What K is chosen from (pure policy: pygraph_batch_choose_k). */
struct pygraph_batch_limits {
  unsigned max;                       /* batch_max and PYGRAPH_BATCH together */
  size_t ops_per_iter;                /* ops of the run's first recorded iteration */
  unsigned max_ops;                   /* PYGRAPH_MAX_OPS */
  long long trips;                    /* the run's trip count, -1: not known */
  int several_streams;                /* the first iteration's ops use more than one
                                         stream (the legacy one among them: no) */
};

/* region_batch_max: the region's batch_max (0 for other kinds); setting:
 * PYGRAPH_BATCH (0: not set). */
void pygraph_batch_init(struct pygraph_batch *b, unsigned region_batch_max, unsigned setting);
unsigned pygraph_batch_choose_k(const struct pygraph_batch_limits *in);

/* The loop is entered (again): trips from the pass, -1 when not known, then
 * the compile-time count (>= 0) or the previous run's is used. */
void pygraph_batch_start_run(struct pygraph_batch *b, long long trips, long long static_trips);
/* A unit begins. */
void pygraph_batch_unit_begin(struct pygraph_batch *b);
/* A loop iteration of the open unit ended with `ops` recorded in the unit
 * so far.  Returns 1 when the unit is complete. */
int pygraph_batch_iteration_end(struct pygraph_batch *b, const struct pygraph_op_list *ops,
                                unsigned max_ops);
/* 1 when the open unit holds fewer iterations than a full one (a tail or an
 * exit in the middle of a unit): it runs eagerly, not as a graph. */
int pygraph_batch_unit_partial(const struct pygraph_batch *b);
/* Loop iterations in the open unit (1 for segments that do not batch). */
unsigned pygraph_batch_unit_iterations(const struct pygraph_batch *b);
/* Batching is dropped for good (a unit over the op cap, or units whose
 * launch sequence never settles).  Returns 0 when it was not on. */
int pygraph_batch_give_up(struct pygraph_batch *b);
/* Units the run's trip count makes (-1: not known), for the capture
 * decision's "iterations left". */
long long pygraph_batch_unit_trips(const struct pygraph_batch *b, long long static_trips);
/* 1 while iterations may be batched (max >= 2, not given up). */
int pygraph_batch_on(const struct pygraph_batch *b);

#endif /* PYGRAPH_BATCH_H */
