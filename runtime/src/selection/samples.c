/* samples.c - what a side's timings say (samples.h). */
#include "selection/samples.h"

#include <string.h>

/* The median of us[from..n-1]. */
static double median_from(const struct pygraph_samples *s, unsigned from)
{
  float v[PYGRAPH_MAX_MEASURE_ITERS];
  unsigned n = s->n > from ? s->n - from : 0;
  memcpy(v, s->us + from, n * sizeof v[0]);
  for (unsigned i = 1; i < n; i++)       /* n <= PYGRAPH_MAX_MEASURE_ITERS: insertion sort */
    for (unsigned j = i; j > 0 && v[j - 1] > v[j]; j--) {
      float t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
  return n ? (n % 2 ? v[n / 2] : 0.5 * ((double)v[n / 2 - 1] + v[n / 2])) : 0.0;
}

static double host_mean(const struct pygraph_samples *s)
{
  return s->n ? s->host_sum / s->n : 0.0;
}

double pygraph_samples_period_us(const struct pygraph_samples *s)
{
  double p = median_from(s, 0), host = host_mean(s);
  return host > p ? host : p;
}

int pygraph_samples_trusted_us(const struct pygraph_samples *s, double *us)
{
  if (s->n < 2)
    return 0;
  double p = median_from(s, 1), host = host_mean(s);
  *us = host > p ? host : p;
  return 1;
}

int pygraph_samples_settled_us(const struct pygraph_samples *s, unsigned floor, double *us)
{
  if (s->n == 0 || s->n < floor)
    return 0;
  *us = pygraph_samples_period_us(s);
  return 1;
}

double pygraph_samples_cost_us(const struct pygraph_samples *s)
{
  double us;
  return pygraph_samples_trusted_us(s, &us) ? us : pygraph_samples_period_us(s);
}

void pygraph_samples_extremes(const struct pygraph_samples *s, unsigned from, double *lo,
                              double *hi)
{
  double host = host_mean(s);
  *lo = *hi = 0.0;
  for (unsigned i = from; i < s->n; i++) {
    double v = s->us[i] > host ? s->us[i] : host;
    if (i == from || v < *lo)
      *lo = v;
    if (i == from || v > *hi)
      *hi = v;
  }
}
