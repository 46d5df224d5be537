/* capture_cost.h - what a capture costs in this process, learned from the
 * captures made so far.
 *
 * The prior (pygraph_capture_estimate_us, decide.h) is an H200 figure; the
 * host that runs the program may be slower or faster, and the first capture
 * of each region pays it before any of its own could be timed (merge: 8
 * template regions of 30 iterations, each capturing a 2-kernel graph in
 * ~85-120 us against a 26 us estimate, ran 20% slower than plain).  Every
 * timed capture scales the prior for the regions that come after it.
 * Process-wide, thread-safe; segment.c is its only writer. */
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
