/* debug_log.c - one line per message, prefixed so it greps well, stamped
 * with the milliseconds since the process's first debug line (so the cost
 * of a step shows as the gap between two lines). */
#include "common/debug_log.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void pygraph_debug_log(const struct pygraph_settings *settings, const char *fmt, ...)
{
  if (!settings->debug)
    return;
  static _Atomic double first_ms;   /* 0 until the first line */
  double t = now_ms();
  double zero = 0.0;
  atomic_compare_exchange_strong(&first_ms, &zero, t);
  va_list ap;
  va_start(ap, fmt);
  /* The stream's lock keeps lines from different threads whole, whatever
   * their length. */
  flockfile(stderr);
  fprintf(stderr, "pygraph: debug: [%9.3f ms] ", t - atomic_load(&first_ms));
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  funlockfile(stderr);
  va_end(ap);
}
