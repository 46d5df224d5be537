/* state_arena.h - memory for the runtime's per-segment states, its pages
 * made resident when the program loads.
 *
 * A segment's state is ~21 KB, created at the region's first entry: from
 * fresh heap pages it costs that first iteration a page fault per page
 * (5-6, about 1.5 us each on the machines measured), paid while the GPU
 * waits at the start of a timed loop (bench/results.md, adam's one-time
 * cost).  The arena is a static block whose pages a load-time constructor
 * writes once, so the first states come from resident memory; when it is
 * used up, states come from malloc as before.  Thread-safe; an arena block
 * is never reused (states live for the process, and the few given back on
 * a lost creation race stay unused). */
#ifndef PYGRAPH_STATE_ARENA_H
#define PYGRAPH_STATE_ARENA_H

#include <stddef.h>

/* Room for `size` bytes, aligned for any type (64 bytes in the arena):
 * from the arena, else malloc's.  NULL when out of memory.  Not zeroed. */
void *pygraph_state_alloc(size_t size);

/* Gives back what pygraph_state_alloc gave (NULL: nothing). */
void pygraph_state_free(void *p);

/* Bytes of the arena handed out so far (for tests). */
size_t pygraph_state_arena_used(void);

#endif /* PYGRAPH_STATE_ARENA_H */
