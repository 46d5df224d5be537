/* region_state.h - the runtime-owned `state` of a pygraph_region: its
 * segments, created on first use and kept for the process (the report
 * reads them at exit).
 *
 * Per host thread: each segment keeps a table of up to
 * PYGRAPH_THREAD_STATES segment states, one per thread, claimed first come
 * first served (CAS on the slot's owner) and created lazily, so threads
 * running the same region concurrently (each with its own streams) record
 * and replay their own graphs without contending.  Slot 0's state is
 * `segments[i]` (the single-thread case is exactly as before).
 * Threads beyond the table share slot 0's state: one of them at a time
 * (the segment's trylock), the others pass through.  Slots are never given
 * back: a thread id is not reused, so programs that keep creating threads
 * end up sharing slot 0 once the table is full. */
#ifndef PYGRAPH_REGION_STATE_H
#define PYGRAPH_REGION_STATE_H

#include "segment/segment.h"

#define PYGRAPH_THREAD_STATES 8u

/* One segment's per-thread states.  owner: the claiming thread's id (0 =
 * free); seg: its state, published after owner (NULL while being created,
 * or when creation failed: that thread then shares slot 0's state). */
struct pygraph_thread_states {
  unsigned long owner[PYGRAPH_THREAD_STATES];          /* atomic access only */
  struct pygraph_segment *seg[PYGRAPH_THREAD_STATES];  /* atomic access only */
};

struct pygraph_region_state {
  pygraph_region *region;
  struct pygraph_region_state *next;        /* registry, for the report */
  struct pygraph_thread_states *threads;    /* [n_segments] */
  unsigned n_segments;
  struct pygraph_segment *segments[];       /* slot 0 of each segment */
};

/* The calling thread's state of segment `index` of `region`, or NULL when
 * the region cannot be served (ABI mismatch, index out of range, out of
 * memory): pass through.  Shared states (slot 0) still need the segment's
 * trylock, so callers always use pygraph_segment_try_acquire(). */
struct pygraph_segment *pygraph_region_segment(const struct pygraph_backend *backend,
                                               pygraph_region *region, unsigned index);

/* Slot `slot` of segment `index`'s thread table: slot 0 is always
 * segments[index]; others are NULL until a thread created them. */
const struct pygraph_segment *pygraph_region_thread_segment(
    const struct pygraph_region_state *state, unsigned index, unsigned slot);

/* Thread slots of segment `index` that hold a state (>= 1). */
unsigned pygraph_region_thread_states(const struct pygraph_region_state *state, unsigned index);

/* Visits every region used so far, in order of first use. */
void pygraph_region_states_foreach(void (*visit)(const struct pygraph_region_state *, void *),
                                   void *ctx);

#endif /* PYGRAPH_REGION_STATE_H */
