/* text.c - texts made at run time, whole (text.h). */
#include "common/text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

char *pygraph_text_printf(const char *fmt, ...)
{
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *text = n < 0 ? NULL : malloc((size_t)n + 1);
  if (text)
    vsnprintf(text, (size_t)n + 1, fmt, again);
  va_end(again);
  return text;
}
