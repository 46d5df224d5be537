/* samples.h - the timings taken of one side (eager runs of a signature, or
 * one graph) and what they say: period, trusted cost, extremes.  Pure. */
#ifndef PYGRAPH_SAMPLES_H
#define PYGRAPH_SAMPLES_H

#include "common/settings.h"

/* Periods measured for one side (the first measure_iters of each). */
struct pygraph_samples {
  float us[PYGRAPH_MAX_MEASURE_ITERS];
  unsigned n;
  double host_sum;                           /* host time inside the runtime */
  unsigned iters;                            /* a graph's: iterations of its signature
                                                while undecided (PYGRAPH_VERDICT_ITERS) */
};

/* The cost of an iteration: its stream-order median, but never less than
 * the mean host time the runtime itself spent on it. */
double pygraph_samples_period_us(const struct pygraph_samples *s);

/* The same once the samples can be trusted: the first one (at start-up, or
 * the first replay after a capture: often cold) is never trusted alone,
 * and once later ones exist it no longer counts.  Returns 0 (and leaves
 * *us) with fewer than 2 samples. */
int pygraph_samples_trusted_us(const struct pygraph_samples *s, double *us);

/* Enough samples to conclude from: at least `floor` (pygraph_measure_first:
 * PYGRAPH_MEASURE_MIN), and then their median (never below the host time),
 * the first one included - with three or more, one sample alone, cold or
 * noisy, cannot move the median past its neighbours, and the figure is the
 * same whatever order the samples came in.  Returns 0 (and leaves *us)
 * with fewer. */
int pygraph_samples_settled_us(const struct pygraph_samples *s, unsigned floor, double *us);

/* Trusted if it can be, else the period (0 only with no sample). */
double pygraph_samples_cost_us(const struct pygraph_samples *s);

/* The fastest and the slowest sample from the `from`-th on (0: all), as
 * costs (never below the host time); 0 and 0 when there are none. */
void pygraph_samples_extremes(const struct pygraph_samples *s, unsigned from, double *lo,
                              double *hi);

#endif /* PYGRAPH_SAMPLES_H */
