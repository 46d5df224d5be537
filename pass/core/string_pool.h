/* string_pool.h - texts of any length that live as long as their owner.
 * The classifier's barrier reasons are asked for again and again; each
 * distinct text is stored once. */
#ifndef PYGRAPH_STRING_POOL_H
#define PYGRAPH_STRING_POOL_H

#include <stddef.h>

typedef struct pg_string_pool {
  char **slots;             /* open addressing; NULL = empty */
  size_t nslots, used;
} pg_string_pool;

/* The pool's copy of text (takes ownership of the malloc'd `text`). */
const char *pg_pool_take(pg_string_pool *p, char *text);
void pg_pool_free(pg_string_pool *p);

#endif
