/* debug_log.c - one line per message, prefixed so it greps well. */
#include "debug_log.h"

#include <stdarg.h>
#include <stdio.h>

void pygraph_debug_log(const struct pygraph_settings *settings, const char *fmt, ...)
{
  if (!settings->debug)
    return;
  char line[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  /* One fputs per line keeps lines from different threads whole. */
  fprintf(stderr, "pygraph: debug: %s\n", line);
}
