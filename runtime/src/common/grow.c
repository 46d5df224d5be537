/* grow.c - see grow.h. */
#include "common/grow.h"

#include <stdlib.h>

int pygraph_grow(void **buf, size_t *cap, size_t need, size_t elem)
{
  if (need <= *cap)
    return 0;
  size_t new_cap = *cap ? *cap : 16;
  while (new_cap < need)
    new_cap *= 2;
  void *p = realloc(*buf, new_cap * elem);
  if (!p)
    return -1;
  *buf = p;
  *cap = new_cap;
  return 0;
}
