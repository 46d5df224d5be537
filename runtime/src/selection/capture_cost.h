/* capture_cost.h - what a capture costs in this process, learned from the
 * captures made so far.
 *
 * The prior (pygraph_capture_estimate_us, decide.h) is one machine's
 * figure; the host that runs the program may be slower or faster, and the
 * first capture of each region pays it before any of its own could be
 * timed, so a program of many short regions would pay a wrong prior many
 * times.  Every timed capture but the process's first scales the prior for
 * the regions that come after it.  The first pays what later captures do
 * not pay again, such as CUDA's graph set-up and the kernels loaded lazily
 * at their first instantiation (indirect twins never run eagerly): on an
 * H100 md_step's took 13.1 ms, the next one of the same 164 ops (its
 * direct rival) 0.73 ms (bench/results.md).  Counted, it scaled the prior
 * to the bound (16x) for every later capture of the process, and the
 * captures that would have taught otherwise were put off as unable to pay
 * back.  Process-wide, thread-safe; selection.c's outcome is its only
 * writer. */
#ifndef PYGRAPH_CAPTURE_COST_H
#define PYGRAPH_CAPTURE_COST_H

/* A capture + instantiate of n_ops ops took us microseconds of host time
 * (the process's first is left out: above). */
void pygraph_capture_cost_note(unsigned long n_ops, double us);

/* The expected host time of capturing n_ops ops: the prior, scaled by what
 * the captures so far took against it (by at most 1/4 .. 16 times). */
double pygraph_capture_cost_us(unsigned long n_ops);

/* Forget what was learned, the first capture too (unit tests: each starts
 * from the prior, its first capture cold). */
void pygraph_capture_cost_reset(void);

#endif /* PYGRAPH_CAPTURE_COST_H */
