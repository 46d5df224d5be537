/* state_arena.c - a resident block for the first segment states
 * (state_arena.h). */
#include "common/state_arena.h"

#include <stdint.h>
#include <stdlib.h>

#define ARENA_BYTES (512u * 1024u)   /* about 24 segment states */
#define ALIGN 64u
#define PAGE 4096u

static _Alignas(PAGE) unsigned char arena[ARENA_BYTES];
static size_t arena_next;            /* atomic: bytes handed out */

/* Writes each page once, so the kernel backs it before main runs (a read
 * would map the shared zero page and fault again at the first write). */
__attribute__((constructor)) static void make_arena_resident(void)
{
  volatile unsigned char *p = arena;
  for (size_t off = 0; off < ARENA_BYTES; off += PAGE)
    p[off] = 0;
}

void *pygraph_state_alloc(size_t size)
{
  size_t need = size ? (size + ALIGN - 1) / ALIGN * ALIGN : ALIGN;   /* distinct blocks */
  size_t at = __atomic_load_n(&arena_next, __ATOMIC_RELAXED);
  while (need <= ARENA_BYTES - at) {
    if (__atomic_compare_exchange_n(&arena_next, &at, at + need, 1, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
      return arena + at;
  }
  return malloc(size);
}

void pygraph_state_free(void *p)
{
  uintptr_t at = (uintptr_t)p, base = (uintptr_t)arena;
  if (at >= base && at - base < ARENA_BYTES)
    return;                          /* arena blocks are not reused */
  free(p);
}

size_t pygraph_state_arena_used(void)
{
  return __atomic_load_n(&arena_next, __ATOMIC_RELAXED);
}
