/* capture_cost.h - what a capture costs in this process, learned from the
 * captures made so far.
 *
 * The prior (pygraph_capture_estimate_us, decide.h) is one machine's
 * figure; the host that runs the program may be slower or faster, and the
 * first capture of each region pays it before any of its own could be
 * timed, so a program of many short regions would pay a wrong prior many
 * times.  Every timed capture scales the prior for the regions that come
 * after it.  Process-wide, thread-safe; selection.c's outcome is its only
 * writer. */
#ifndef PYGRAPH_CAPTURE_COST_H
#define PYGRAPH_CAPTURE_COST_H

/* A capture + instantiate of n_ops ops took us microseconds of host time. */
void pygraph_capture_cost_note(unsigned long n_ops, double us);

/* The expected host time of capturing n_ops ops: the prior, scaled by what
 * the captures so far took against it (by at most 1/4 .. 16 times). */
double pygraph_capture_cost_us(unsigned long n_ops);

/* Forget what was learned (unit tests: each starts from the prior). */
void pygraph_capture_cost_reset(void);

#endif /* PYGRAPH_CAPTURE_COST_H */
