/* timing.h - all of selection's timing: which iterations are timed and how
 * (a period between end events, or a span around the work), the host
 * clocks, reading finished samples into the tables, and the host period of
 * a batchable loop's eager units.  Events are read without ever blocking
 * (measure.h). */
#ifndef PYGRAPH_TIMING_H
#define PYGRAPH_TIMING_H

#include "selection/selection.h"

/* Did this thread end no other segment iteration since sel's last end? */
int pygraph_timing_solo(const struct pygraph_selection *sel);
/* The iteration ends: the thread's iteration clock advances. */
void pygraph_timing_iteration_ends(struct pygraph_selection *sel);

/* A shadowed iteration's first op, about to run on `stream`: its span
 * starts now, when timing is possible (not in a probe). */
void pygraph_timing_shadow_start(struct pygraph_selection *sel, cudaStream_t stream);

/* Before the work of a timed iteration (`planned`: what it is sampled as;
 * begin_us: the host clock at its begin, when `clocked`). */
void pygraph_timing_start(struct pygraph_selection *sel, cudaStream_t stream, int solo,
                          const struct pygraph_sample_tag *planned, int clocked, double begin_us);
/* After the work of a timed iteration, `tag` what it ran as. */
void pygraph_timing_end(struct pygraph_selection *sel, cudaStream_t stream,
                        struct pygraph_sample_tag *tag);
/* The next iteration is not back to back with a timed one. */
void pygraph_timing_break(struct pygraph_selection *sel);

/* Reads finished samples (an event not done yet is tried again
 * PYGRAPH_POLL_BACKOFF iterations later). */
void pygraph_timing_poll(struct pygraph_selection *sel);
/* Nothing timed for a while: the events go (timed: this iteration was). */
void pygraph_timing_release_idle(struct pygraph_selection *sel, int timed);
/* A probe ends: its samples are read and the events go. */
void pygraph_timing_end_probe(struct pygraph_selection *sel);
/* Eager for good: timing stops for good. */
void pygraph_timing_stop(struct pygraph_selection *sel);

/* Timing events can be recorded (not failed, not stopped). */
int pygraph_timing_possible(struct pygraph_selection *sel);
double pygraph_timing_now_us(const struct pygraph_selection *sel);

/* A recorded eager unit of a batchable loop ended (`eager_unit`: no graph
 * exists or is about to be captured, and auto mode is undecided): the host
 * time since the previous such unit, when it came right before, is a host
 * period; the loop's is the shortest seen (decide.h: a GPU-bound loop).
 * Anything else breaks the chain. */
void pygraph_timing_unit_end(struct pygraph_selection *sel, int eager_unit);

#endif /* PYGRAPH_TIMING_H */
