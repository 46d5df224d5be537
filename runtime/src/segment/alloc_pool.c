/* alloc_pool.c - device allocations served again at the same addresses
 * (alloc_pool.h). */
#include "segment/alloc_pool.h"

#include <pthread.h>
#include <string.h>

#include "common/grow.h"

static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pygraph_alloc_pool *registered;          /* guarded by pool_lock */

void pygraph_alloc_pool_init(struct pygraph_alloc_pool *pool,
                             const struct pygraph_backend *backend, size_t max_bytes)
{
  memset(pool, 0, sizeof *pool);
  pool->backend = backend;
  pool->max_bytes = max_bytes;
  if (!max_bytes)
    pool->off = "PYGRAPH_POOL_MB=0";
}

void pygraph_alloc_pool_register(struct pygraph_alloc_pool *pool)
{
  pthread_mutex_lock(&pool_lock);
  pool->next_registered = registered;
  registered = pool;
  pthread_mutex_unlock(&pool_lock);
}

static void remove_block(struct pygraph_alloc_pool *pool, size_t i)
{
  pool->bytes -= pool->blocks[i].size;
  memmove(&pool->blocks[i], &pool->blocks[i + 1],
          (pool->n_blocks - i - 1) * sizeof pool->blocks[0]);
  pool->n_blocks--;
}

/* Frees the idle blocks once whatever used them is done (their users are
 * all on the home stream: alloc_pool.h; `drained`: it already is).  Caller
 * holds pool_lock. */
static size_t free_idle(struct pygraph_alloc_pool *pool, int drained)
{
  size_t freed = 0;
  for (size_t i = pool->n_blocks; i-- > 0;) {
    if (pool->blocks[i].in_use)
      continue;
    if (!drained && pool->has_home && pool->backend->stream_synchronize)
      (void)pool->backend->stream_synchronize(pool->home);
    drained = 1;
    freed += pool->blocks[i].size;
    pool->backend->device_free(pool->blocks[i].ptr);
    remove_block(pool, i);
  }
  return freed;
}

/* Caller holds pool_lock. */
static void disown_in_use(struct pygraph_alloc_pool *pool)
{
  for (size_t i = pool->n_blocks; i-- > 0;)
    if (pool->blocks[i].in_use) {
      pool->disowned++;
      remove_block(pool, i);
    }
}

/* The lowest-numbered idle block of `size`: the same calls in the same
 * order get the same blocks every iteration. */
static long idle_block(const struct pygraph_alloc_pool *pool, size_t size)
{
  for (size_t i = 0; i < pool->n_blocks; i++)
    if (!pool->blocks[i].in_use && pool->blocks[i].size == size)
      return (long)i;
  return -1;
}

/* A new block of `size` in use; 0 when over the cap or out of memory. */
static int new_block(struct pygraph_alloc_pool *pool, size_t size, void **ptr)
{
  if (size > pool->max_bytes - pool->bytes ||
      pygraph_grow((void **)&pool->blocks, &pool->cap_blocks, pool->n_blocks + 1,
                   sizeof pool->blocks[0]) != 0)
    return 0;
  void *p = NULL;
  if (pool->backend->device_alloc(&p, size) != cudaSuccess || !p) {
    if (pool->backend->clear_error)
      pool->backend->clear_error();          /* the program's call is made next */
    return 0;
  }
  pool->blocks[pool->n_blocks++] = (struct pygraph_pool_block){p, size, 1};
  pool->bytes += size;
  pool->allocated++;
  *ptr = p;
  return 1;
}

int pygraph_alloc_pool_take(struct pygraph_alloc_pool *pool, size_t size, void **ptr)
{
  if (!ptr || size == 0)
    return 0;
  pthread_mutex_lock(&pool_lock);
  int served = 0;
  long i = pool->off ? -1 : idle_block(pool, size);
  if (i >= 0) {
    pool->blocks[i].in_use = 1;
    pool->served++;
    *ptr = pool->blocks[i].ptr;
    served = 1;
  } else if (!pool->off) {
    served = new_block(pool, size, ptr);
  }
  pthread_mutex_unlock(&pool_lock);
  return served;
}

int pygraph_alloc_pool_give_back(struct pygraph_alloc_pool *pool, const void *ptr)
{
  int taken = 0;
  pthread_mutex_lock(&pool_lock);
  for (size_t i = 0; ptr && i < pool->n_blocks && !taken; i++)
    if (pool->blocks[i].ptr == ptr && pool->blocks[i].in_use) {
      pool->blocks[i].in_use = 0;
      taken = 1;
    }
  pthread_mutex_unlock(&pool_lock);
  return taken;
}

void pygraph_alloc_pool_note_stream(struct pygraph_alloc_pool *pool, cudaStream_t stream)
{
  if (pool->off || (pool->has_home && pool->home == stream))
    return;
  pthread_mutex_lock(&pool_lock);
  if (!pool->has_home) {
    pool->home = stream;
    pool->has_home = 1;
  } else {
    /* What comes on the new stream may use a block reused this iteration. */
    if (pool->n_blocks && pool->backend->stream_synchronize)
      (void)pool->backend->stream_synchronize(pool->home);
    (void)free_idle(pool, 1);
    disown_in_use(pool);
    pool->off = "ops on more than one stream";
  }
  pthread_mutex_unlock(&pool_lock);
}

void pygraph_alloc_pool_disown_in_use(struct pygraph_alloc_pool *pool)
{
  if (!pool->n_blocks)
    return;
  pthread_mutex_lock(&pool_lock);
  disown_in_use(pool);
  pthread_mutex_unlock(&pool_lock);
}

size_t pygraph_alloc_pools_release_idle(void)
{
  size_t freed = 0;
  pthread_mutex_lock(&pool_lock);
  for (struct pygraph_alloc_pool *p = registered; p; p = p->next_registered)
    freed += free_idle(p, 0);
  pthread_mutex_unlock(&pool_lock);
  return freed;
}
