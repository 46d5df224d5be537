/* loop_memo.h - a per-function memo of one int per loop ("does it launch?"),
 * so that a loop with many barriers is scanned once, not once per barrier;
 * and PG_PUSH, the growable-array append the pass core uses. */
#ifndef PYGRAPH_LOOP_MEMO_H
#define PYGRAPH_LOOP_MEMO_H

#include "../shim/pygraph_shim.h"

#include <stdlib.h>

#define PG_PUSH(arr, n, cap, v)                                                \
  do {                                                                         \
    if ((n) == (cap)) {                                                        \
      (cap) = (cap) ? 2 * (cap) : 8;                                           \
      (arr) = realloc((arr), (cap) * sizeof *(arr));                           \
    }                                                                          \
    (arr)[(n)++] = (v);                                                        \
  } while (0)

typedef struct pg_loop_memo {
  pg_loop **loops;
  int *values;
  unsigned n, cap, capv;
} pg_loop_memo;

/* 1 and *value when l is memoized. */
static inline int pg_loop_memo_get(const pg_loop_memo *m, pg_loop *l, int *value) {
  for (unsigned i = 0; i < m->n; ++i)
    if (m->loops[i] == l) {
      *value = m->values[i];
      return 1;
    }
  return 0;
}

static inline int pg_loop_memo_put(pg_loop_memo *m, pg_loop *l, int value) {
  unsigned n = m->n;
  PG_PUSH(m->values, n, m->capv, value);
  PG_PUSH(m->loops, m->n, m->cap, l);
  return value;
}

static inline void pg_loop_memo_free(pg_loop_memo *m) {
  free(m->loops);
  free(m->values);
  m->loops = NULL;
  m->values = NULL;
  m->n = m->cap = m->capv = 0;
}

#endif
