/* grow.h - amortized growth of the runtime's reusable buffers. */
#ifndef PYGRAPH_GROW_H
#define PYGRAPH_GROW_H

#include <stddef.h>

/* Makes *buf hold at least `need` elements of `elem` bytes (doubling, so a
 * steady state allocates nothing).  Returns 0, or -1 with *buf untouched. */
int pygraph_grow(void **buf, size_t *cap, size_t need, size_t elem);

#endif
