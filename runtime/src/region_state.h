/* region_state.h - the runtime-owned `state` of a pygraph_region: its
 * segments, created on first use and kept for the process (the report
 * reads them at exit). */
#ifndef PYGRAPH_REGION_STATE_H
#define PYGRAPH_REGION_STATE_H

#include "segment.h"

struct pygraph_region_state {
  pygraph_region *region;
  struct pygraph_region_state *next;        /* registry, for the report */
  unsigned n_segments;
  struct pygraph_segment segments[];
};

/* Segment `index` of `region`, or NULL when the region cannot be served
 * (ABI mismatch, index out of range, out of memory): pass through. */
struct pygraph_segment *pygraph_region_segment(const struct pygraph_backend *backend,
                                               pygraph_region *region, unsigned index);

/* Visits every region used so far, in order of first use. */
void pygraph_region_states_foreach(void (*visit)(const struct pygraph_region_state *, void *),
                                   void *ctx);

#endif /* PYGRAPH_REGION_STATE_H */
