/* string_pool.c - a hash set of owned strings. */
#include "string_pool.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t hash(const char *s) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *s; ++s)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return (size_t)h;
}

static char **find_slot(char **slots, size_t nslots, const char *s) {
  size_t i = hash(s) & (nslots - 1);
  while (slots[i] && strcmp(slots[i], s) != 0)
    i = (i + 1) & (nslots - 1);
  return &slots[i];
}

static void grow(pg_string_pool *p) {
  size_t n = p->nslots ? 2 * p->nslots : 64;
  char **slots = calloc(n, sizeof *slots);
  for (size_t i = 0; i < p->nslots; ++i)
    if (p->slots[i])
      *find_slot(slots, n, p->slots[i]) = p->slots[i];
  free(p->slots);
  p->slots = slots;
  p->nslots = n;
}

const char *pg_pool_take(pg_string_pool *p, char *text) {
  if (2 * (p->used + 1) > p->nslots)
    grow(p);
  char **slot = find_slot(p->slots, p->nslots, text);
  if (*slot) {
    free(text);
    return *slot;
  }
  ++p->used;
  return *slot = text;
}

void pg_pool_free(pg_string_pool *p) {
  for (size_t i = 0; i < p->nslots; ++i)
    free(p->slots[i]);
  free(p->slots);
  memset(p, 0, sizeof *p);
}
