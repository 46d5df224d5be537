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

/* One segment's per-thread states.  owner: the claiming thread's key (0 =
 * free): its id shifted left by PYGRAPH_DEVICE_KEY_BITS, the low bits 0
 * for a state claimed without a device, device + 1 for one claimed for a
 * device (several devices, abi/devices.h); seg: its state, published after
 * owner (NULL while being created, or when creation failed: that thread
 * then shares slot 0's state); device: the device + 1 its state runs on,
 * 0 while not known (written by the owner only, read by the report). */
struct pygraph_thread_states {
  unsigned long owner[PYGRAPH_THREAD_STATES];          /* atomic access only */
  struct pygraph_segment *seg[PYGRAPH_THREAD_STATES];  /* atomic access only */
  int device[PYGRAPH_THREAD_STATES];                   /* atomic access only */
};

/* Devices 0 .. 2^PYGRAPH_DEVICE_KEY_BITS - 2 get states of their own. */
#define PYGRAPH_DEVICE_KEY_BITS 10u

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

/* The calling thread's state of segment `index` of `region` for `device`
 * (abi/devices.h): its state of unknown device, which then runs on
 * `device` from now on, or the one it has or claims for `device`; NULL
 * when none can be had (table full, out of memory, a device number past
 * the keys): the caller passes through.  Never a shared state. */
struct pygraph_segment *pygraph_region_segment_on(const struct pygraph_backend *backend,
                                                  pygraph_region *region, unsigned index,
                                                  int device);

/* Every state of the calling thread whose device is not known yet runs on
 * `device`: the thread changes its device for the first time, and what it
 * ran so far ran there. */
void pygraph_region_states_on_device(int device);

/* The device slot `slot` of segment `index` runs on, -1 when not known. */
int pygraph_region_thread_device(const struct pygraph_region_state *state, unsigned index,
                                 unsigned slot);

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
