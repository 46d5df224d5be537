/* port_trace.c - duration lines for pygraph's own slow CUDA calls
 * (port_trace.h). */
#include "cuda/port_trace.h"

#include "common/debug_log.h"
#include "common/settings.h"
#include "cuda/cuda_ops.h"

double pygraph_port_trace_start(void)
{
  return pygraph_settings()->debug ? pygraph_cuda_now_us() : 0.0;
}

/* Calls shorter than this are not logged: the steady state's event queries
 * and block copies would flood the log, and its writes skew the timings. */
#define SLOW_US 5.0

void pygraph_port_trace_end(const char *name, double start_us)
{
  if (start_us == 0.0)
    return;
  double us = pygraph_cuda_now_us() - start_us;
  if (us >= SLOW_US)
    pygraph_debug_log(pygraph_settings(), "port %s: %.1f us", name, us);
}
