/* measure.h - iteration costs in stream order, read without blocking.
 *
 * A FIFO of timing events recorded on a segment's launch stream; each event
 * may close a sample that started at the previous one (a chain).  The
 * segment decides what the samples are (segment.c start_timing, through
 * selection.c pygraph_auto_start_timing): periods
 * between the end events of back-to-back iterations, or spans bracketing
 * one iteration's work.  Either is GPU time when the GPU is the bottleneck
 * and host time when the host is (the GPU then idles between the events).
 * Events are read later with cudaEventQuery + cudaEventElapsedTime, at
 * region ends, oldest first; one not ready yet is simply tried again at a
 * later region end.  Nothing here ever synchronizes. */
#ifndef PYGRAPH_MEASURE_H
#define PYGRAPH_MEASURE_H

#include "common/policy.h"
#include "port/backend.h"


enum pygraph_sample_kind {
  PYGRAPH_SAMPLE_NONE,                 /* period not attributed (e.g. a capture) */
  PYGRAPH_SAMPLE_EAGER,
  PYGRAPH_SAMPLE_GRAPH
};

struct pygraph_sample_tag {
  unsigned long long hash;             /* signature of the iteration */
  enum pygraph_sample_kind kind;
  unsigned long long variant;          /* GRAPH: id of the variant replayed */
  float host_us;                       /* host time inside the runtime */
};

struct pygraph_measure {
  cudaEvent_t events[PYGRAPH_MEASURE_RING];
  struct pygraph_sample_tag tags[PYGRAPH_MEASURE_RING];
  unsigned char has_prev[PYGRAPH_MEASURE_RING];
  unsigned n_events;                   /* created */
  int state;                           /* 0 untried, 1 usable, -1 unavailable */
  unsigned head, count;                /* FIFO of recorded, unread events */
  int chain;                           /* newest event may start the next period */
};

/* Creates the first event on first use (the others as their slots are
 * first reached); 0 = measuring is impossible (then
 * state == -1 for good). */
int pygraph_measure_available(struct pygraph_measure *m, const struct pygraph_backend *backend);

/* Records an event on `stream`; the time since the previous one (when the
 * chain is unbroken) is a sample attributed to `tag`.  A span: break, record
 * the start (tag kind NONE), do the work, record the end, break.  When the
 * ring is full nothing is recorded and the chain breaks. */
void pygraph_measure_record(struct pygraph_measure *m, const struct pygraph_backend *backend,
                            cudaStream_t stream, const struct pygraph_sample_tag *tag);

/* Samples recorded for `tag`'s side (same hash and kind, and for GRAPH the
 * same variant) whose events are not read yet: each will reach the sink
 * (unless its elapsed time is negative or its window is already full).
 * Measuring plans by it, so a GPU far behind does not make it take turns
 * for as long as the queue is deep. */
unsigned pygraph_measure_in_flight(const struct pygraph_measure *m,
                                   const struct pygraph_sample_tag *tag);

/* The next event starts a new chain. */
void pygraph_measure_break(struct pygraph_measure *m);

/* Reads every sample whose two events are done, oldest first, calling
 * sink(ctx, tag of the later event, microseconds between them).  Stops at
 * the first event not done yet.  Returns the number of samples read. */
typedef void (*pygraph_sample_sink)(void *ctx, const struct pygraph_sample_tag *tag, double us);
unsigned pygraph_measure_poll(struct pygraph_measure *m, const struct pygraph_backend *backend,
                              pygraph_sample_sink sink, void *ctx);

/* Timing may be available: events exist, or were never tried (or were
 * released) and the backend has the calls.  Creates nothing. */
int pygraph_measure_possible(const struct pygraph_measure *m, const struct pygraph_backend *backend);

/* Once every recorded event was read (all done): destroys the events, and
 * the next use creates them again.  Returns 1 when released. */
int pygraph_measure_release(struct pygraph_measure *m, const struct pygraph_backend *backend);

/* Destroys the events (CUDA releases pending ones once they complete). */
void pygraph_measure_free(struct pygraph_measure *m, const struct pygraph_backend *backend);

#endif /* PYGRAPH_MEASURE_H */
