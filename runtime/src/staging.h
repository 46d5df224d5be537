/* staging.h - the host side of parameter indirection: a ring of pinned
 * staging slots feeding one device argument block.
 *
 * The graph's memcpy node copies the *current* slot into the device block
 * when the graph runs.  To refresh arguments the host moves to the next
 * slot, writes it, and points the memcpy node there; after each launch an
 * event is recorded for the slot that launch reads.  A slot is written again
 * only after cudaEventSynchronize on its event, i.e. after the last launch
 * that read it completed, so this blocks only when PYGRAPH_STAGING_SLOTS
 * replays are queued.  Launches of one graph exec are serialized in their
 * stream, so replay k+1's memcpy node cannot overwrite the device block
 * while replay k's kernels still read it. */
#ifndef PYGRAPH_STAGING_H
#define PYGRAPH_STAGING_H

#include "backend.h"

#define PYGRAPH_STAGING_SLOTS 8u
#define PYGRAPH_STAGING_SLOT_ALIGN 64u

struct pygraph_staging {
  void *device_block;                             /* size bytes, NULL = no staging */
  unsigned char *host;                            /* PYGRAPH_STAGING_SLOTS * stride, pinned */
  size_t size, stride;
  cudaEvent_t events[PYGRAPH_STAGING_SLOTS];
  unsigned char in_flight[PYGRAPH_STAGING_SLOTS]; /* event recorded, not yet waited on */
  unsigned n_events;                              /* created so far */
  unsigned current;                               /* slot the memcpy node reads */
  int launch_unrecorded;                          /* a launch read `current` without
                                                     its event being recorded */
};

/* Allocates the device block, the pinned ring and one event per slot;
 * current = slot 0, zero-filled.  On failure everything allocated is freed
 * again and *step names what failed. */
cudaError_t pygraph_staging_create(struct pygraph_staging *st,
                                   const struct pygraph_backend *backend, size_t size,
                                   const char **step);

unsigned char *pygraph_staging_slot(const struct pygraph_staging *st, unsigned slot);

/* Makes the next slot current, first waiting for the last launch that read
 * it.  The caller then fills it and points the memcpy node at it. */
cudaError_t pygraph_staging_advance(struct pygraph_staging *st,
                                    const struct pygraph_backend *backend);

/* After a launch of `graph` that reads the current slot: record its event. */
cudaError_t pygraph_staging_launched(struct pygraph_staging *st,
                                     const struct pygraph_backend *backend, void *graph);

/* Waits for every launch that may still read the ring, then frees it all.
 * `graph` (may be NULL) is the graph whose launches use it; it is still
 * alive here and is synchronized when a launch went unrecorded. */
void pygraph_staging_free(struct pygraph_staging *st, const struct pygraph_backend *backend,
                          void *graph);

#endif /* PYGRAPH_STAGING_H */
