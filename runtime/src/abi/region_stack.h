/* region_stack.h - the calling thread's open regions.
 *
 * Only the bottom (outermost) region is live: it owns a segment while its
 * iteration runs.  Nested begins are pushed only so that their ends pair
 * up; they defer nothing of their own. */
#ifndef PYGRAPH_REGION_STACK_H
#define PYGRAPH_REGION_STACK_H

#include "port/backend.h"
#include "pygraph_rt.h"
#include "segment/segment.h"

void pygraph_region_begin_with(const struct pygraph_backend *backend, pygraph_region *region,
                               unsigned segment);
void pygraph_region_end_impl(pygraph_region *region);
/* Batchable loops (pygraph_rt.h): entering the loop, leaving it. */
void pygraph_region_loop_enter_impl(const struct pygraph_backend *backend,
                                    pygraph_region *region, long long trips);
void pygraph_region_exit_impl(pygraph_region *region);

/* Across files (pygraph_rt.h): a checked external call (`region`, `segment`:
 * the live region's reserved segment for a split there, or NULL), and a
 * barrier point.  Both split a live iteration when they must. */
void pygraph_external_call_impl(const struct pygraph_backend *backend, pygraph_region *region,
                                unsigned segment, const void *aware);
void pygraph_barrier_point_impl(const struct pygraph_backend *backend);

/* The segment recording the calling thread's ops, or NULL: then every
 * routed call must go straight to CUDA.  This is the launch-path check. */
struct pygraph_segment *pygraph_recording_segment(void);

/* After a flush the rest of the iteration passes through. */
void pygraph_stop_recording(void);

/* An op of `seg` (the recording segment) cannot be deferred: the live
 * iteration stops recording and what it recorded runs now, in order (on
 * every device it spans: devices.h); the rest passes through. */
void pygraph_stop_live(struct pygraph_segment *seg, const char *reason);
/* The same when the program captures a stream of the iteration
 * (pygraph_segment_yield_to_program_capture). */
void pygraph_yield_live(struct pygraph_segment *seg);

/* A routed cudaSetDevice changed the thread's device from `prev` (-1: not
 * known) to `device` (devices.h): a recording iteration goes on in
 * `device`'s state, or stops recording when it cannot. */
void pygraph_region_device_changed(const struct pygraph_backend *backend, int prev, int device);
/* A routed cudaSetDevice: the device before it asked, the call made (its
 * error returned), and a change handled as above. */
cudaError_t pygraph_region_set_device(const struct pygraph_backend *backend, int device);

/* A library adapter's per-thread state that must not outlive the live
 * iteration (the NCCL adapter's group held back: cuda/nccl_entry_points.c)
 * is handed back by `hook`, which runs on the thread whose live iteration
 * just ended, after its end.  Set once for the process (the adapter that
 * needs it sets it at its first use: the runtime refers to no adapter). */
void pygraph_set_iteration_end_hook(void (*hook)(void));

/* How many regions (live + nested) the thread has open; for tests. */
unsigned pygraph_open_region_depth(void);
/* The live (outermost open) region, or NULL. */
pygraph_region *pygraph_live_region(void);
/* Ends the live iteration (what it deferred runs) and forgets every open
 * region: the rest of the iteration passes through until the next begin.
 * For a whole loop inside its region's loop, before its WHILE graph; and at
 * a throw point (pygraph_abi.def), where an exception may leave the region
 * without its end (the end, if it comes, is then a no-op). */
void pygraph_region_close_live(void);

#endif /* PYGRAPH_REGION_STACK_H */
