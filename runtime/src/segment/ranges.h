/* ranges.h - the timeline of a region segment: ranges a profiler shows
 * (NVTX through the port's range_push/range_pop), named by the source:
 *
 *   "<function> <file>:<first>-<last> seg <N>"          each iteration, from
 *       its begin to its end (a batchable loop's unit: its K iterations);
 *       the program's own launches of a pass-through iteration fall in it
 *   "... seg <N> eager" / "capture" / "replay" / "flush"   inside it, the
 *       work the iteration's end does: recorded ops run eagerly, a graph
 *       captured (built, instantiated, launched), a graph replayed (updates
 *       and launch), recorded ops run early because an op could not be
 *       deferred or the program captures the stream
 *
 * Names are built once per segment state; an iteration formats nothing.
 * Off (PYGRAPH_NVTX=0, a backend without ranges, or no memory for the
 * names): one load and branch per range.  Pushes and pops pair on every
 * path, on the thread that runs the iteration. */
#ifndef PYGRAPH_RANGES_H
#define PYGRAPH_RANGES_H

#include "common/settings.h"
#include "port/backend.h"
#include "pygraph_rt.h"

enum pygraph_range_kind {
  PYGRAPH_RANGE_ITERATION,
  PYGRAPH_RANGE_EAGER,
  PYGRAPH_RANGE_CAPTURE,
  PYGRAPH_RANGE_REPLAY,
  PYGRAPH_RANGE_FLUSH,
  PYGRAPH_RANGE_KINDS
};

struct pygraph_ranges {
  const struct pygraph_backend *backend;
  const char *names[PYGRAPH_RANGE_KINDS];    /* all NULL: ranges off */
};

/* Builds the names (one allocation, kept for the process like the segment
 * state) when ranges are on. */
void pygraph_ranges_init(struct pygraph_ranges *r, const struct pygraph_backend *backend,
                         const struct pygraph_settings *settings, const pygraph_region *region,
                         unsigned index);
/* Frees the names of a segment state never published (segment.h). */
void pygraph_ranges_discard(struct pygraph_ranges *r);

/* The colour of each kind's ranges (ARGB; 0: the tool's). */
unsigned pygraph_range_colour(enum pygraph_range_kind kind);

static inline void pygraph_range_push(const struct pygraph_ranges *r,
                                      enum pygraph_range_kind kind)
{
  if (r->names[kind])
    r->backend->range_push(r->names[kind], pygraph_range_colour(kind));
}

/* Closes the range the last pygraph_range_push (of these ranges) opened. */
static inline void pygraph_range_pop(const struct pygraph_ranges *r)
{
  if (r->names[PYGRAPH_RANGE_ITERATION])
    r->backend->range_pop();
}

#endif /* PYGRAPH_RANGES_H */
