/* alloc_pool.h - device allocations made inside a region, served again at
 * the same addresses from one iteration to the next.
 *
 * A loop that does cudaMalloc / kernels / cudaFree each iteration gets a
 * new address (maybe) and a synchronization (cudaFree may wait for the
 * device) every time, which splits it and changes its kernels' arguments.
 * Inside a recording segment the pool answers cudaMalloc with one of its
 * blocks and takes cudaFree back without a CUDA call: the freed block
 * waits, idle, for the next allocation of the same size.  With the same
 * calls in the same order every iteration, every iteration gets the same
 * addresses, so its launches match the graph's.
 *
 * Safety rests on stream order: a block is handed out again only while
 * every op the segment ever recorded went to one stream, so whatever used
 * the block before is ordered before whatever uses it next (eager runs in
 * stream order, graph launches one after the other on that stream).  The
 * first op on a second stream turns the pool off for good: the home
 * stream is drained (what follows on the new stream may touch a block
 * reused in this iteration), idle blocks are freed, blocks in use become
 * the program's (their cudaFree is then the real call).  Blocks still in
 * use when an iteration ends become the program's too: it keeps them
 * beyond the iteration, or freed them with the real call after a flush
 * stopped the recording (nothing was deferred any more).  Allocation never blocks: past the byte cap
 * (PYGRAPH_POOL_MB) or on an allocation error the caller makes the real
 * call.
 *
 * One writer: this file.  A process-wide lock guards every pool, so that
 * pygraph_alloc_pools_release_idle may run from any thread. */
#ifndef PYGRAPH_ALLOC_POOL_H
#define PYGRAPH_ALLOC_POOL_H

#include <stddef.h>

#include "port/backend.h"

struct pygraph_pool_block {
  void *ptr;
  size_t size;
  int in_use;                       /* handed to the program this iteration */
};

struct pygraph_alloc_pool {
  const struct pygraph_backend *backend;
  size_t max_bytes;                 /* 0: the pool serves nothing */
  struct pygraph_pool_block *blocks;
  size_t n_blocks, cap_blocks;
  size_t bytes;                     /* held: idle and in use */
  cudaStream_t home;                /* the one stream of every recorded op */
  int has_home;
  const char *off;                  /* why it serves nothing more; NULL while on */
  unsigned long long served;        /* allocations answered by an idle block */
  unsigned long long allocated;     /* blocks allocated for the pool */
  unsigned long long disowned;      /* blocks handed over to the program */
  struct pygraph_alloc_pool *next_registered;
};

void pygraph_alloc_pool_init(struct pygraph_alloc_pool *pool,
                             const struct pygraph_backend *backend, size_t max_bytes);

/* Makes the pool one that pygraph_alloc_pools_release_idle reaches (pools
 * that live for the process: a registered pool is never unregistered). */
void pygraph_alloc_pool_register(struct pygraph_alloc_pool *pool);

/* cudaMalloc(ptr, size) in a recording iteration: 1 with *ptr set (an
 * idle block of that size, else a new one), 0 when the pool does not
 * serve it (off, size 0, over the cap, allocation failed): the caller
 * makes the real call. */
int pygraph_alloc_pool_take(struct pygraph_alloc_pool *pool, size_t size, void **ptr);

/* cudaFree(ptr) in a recording iteration: 1 when ptr is a block in use,
 * now idle (the caller returns success); 0 when it is not the pool's. */
int pygraph_alloc_pool_give_back(struct pygraph_alloc_pool *pool, const void *ptr);

/* An op on `stream` is about to be recorded (before it runs, shadowed or
 * not).  A second stream turns the pool off, as above. */
void pygraph_alloc_pool_note_stream(struct pygraph_alloc_pool *pool, cudaStream_t stream);

/* The iteration ended: blocks in use become the program's (kept past it,
 * or freed by the real call after a flush stopped its recording). */
void pygraph_alloc_pool_disown_in_use(struct pygraph_alloc_pool *pool);

/* Frees every idle block of every registered pool (after draining its
 * home stream); the bytes freed.  For an allocation that failed. */
size_t pygraph_alloc_pools_release_idle(void);

#endif /* PYGRAPH_ALLOC_POOL_H */
