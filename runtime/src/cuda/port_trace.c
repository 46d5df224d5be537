/* port_trace.c - duration lines for pygraph's own slow CUDA calls
 * (port_trace.h). */
#include "cuda/port_trace.h"

#include <time.h>

#include "common/debug_log.h"
#include "common/settings.h"

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

double pygraph_port_trace_start(void)
{
  return pygraph_settings()->debug ? now_us() : 0.0;
}

/* Calls shorter than this are not logged: the steady state's event queries
 * and block copies would flood the log, and its writes skew the timings. */
#define SLOW_US 5.0

void pygraph_port_trace_end(const char *name, double start_us)
{
  if (start_us == 0.0)
    return;
  double us = now_us() - start_us;
  if (us >= SLOW_US)
    pygraph_debug_log(pygraph_settings(), "port %s: %.1f us", name, us);
}
