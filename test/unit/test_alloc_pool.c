/* test_alloc_pool.c - cudaMalloc / cudaFree inside recorded iterations
 * (segment/alloc_pool.h): the same block every iteration and no CUDA call,
 * so the iteration replays as a graph; memory the pool does not own, a
 * second stream, a flush, the byte cap and a failed allocation elsewhere
 * each give the program's real calls back, with nothing freed while a
 * deferred op may still use it. */
#include "check.h"
#include "harness.h"

#include "segment/alloc_pool.h"

/* One iteration: allocate, k1 adds 5 and k2 adds 3 to the new block,
 * free it.  Returns the block's address. */
static void *alloc_iteration(pygraph_region *r)
{
  begin(r, 0);
  int *t = device_malloc(64);
  kernel_buf(1, 5, t);
  kernel_buf(2, 3, t);
  device_free(t);
  end(r);
  return t;
}

static void test_same_block_every_iteration_replays(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("pool_replays", 1);
  fake_reset();
  void *first = alloc_iteration(r);
  for (int i = 0; i < 5; i++)
    CHECK(alloc_iteration(r) == first);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(harness_count(fake_log(), "p:malloc") == 0 && harness_count(fake_log(), "p:free") == 0);
  CHECK(seg->pool.allocated == 1 && seg->pool.served == 5);
  CHECK(seg->stats.flushes == 0 && seg->stats.replays >= 3);
  CHECK(*(int *)first == 6 * 8);                 /* every iteration's kernels, once each */
  CHECK(fake_live_allocs == 1);                  /* the pool's block, idle */
  CHECK(pygraph_alloc_pools_release_idle() == 64 && fake_live_allocs == 0);
}

/* A block the iteration keeps is the program's: never handed out again,
 * and its later cudaFree is the real call. */
static void test_kept_block_becomes_the_programs(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("pool_kept", 1);
  fake_reset();
  void *kept[3];
  for (int i = 0; i < 3; i++) {
    begin(r, 0);
    kept[i] = device_malloc(32);
    kernel_buf(1, 1, kept[i]);
    end(r);
  }
  CHECK(kept[0] != kept[1] && kept[1] != kept[2] && kept[0] != kept[2]);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->pool.n_blocks == 0 && seg->pool.disowned == 3 && seg->pool.served == 0);
  fake_log_clear();
  for (int i = 0; i < 3; i++)
    device_free(kept[i]);                        /* outside the region: real */
  CHECK(harness_count(fake_log(), "p:free") == 3 && fake_live_allocs == 0);
}

/* cudaFree of memory from before the loop: what was deferred runs first
 * (it may use that memory), then the real free, once. */
static void test_foreign_free_flushes_first(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("pool_foreign", 1);
  fake_reset();
  int *before = device_malloc(16);
  for (int i = 0; i < 2; i++)
    alloc_iteration(r);                          /* a graph to replay */
  fake_log_clear();
  begin(r, 0);
  int *t = device_malloc(64);
  kernel_buf(1, 5, t);
  kernel_buf(2, 3, before);
  device_free(before);
  end(r);
  CHECK_STR(fake_log(), "k1(5) k2(3) p:free");
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 1);
  CHECK_STR(seg->last_flush_reason, "cudaFree of memory not allocated in the iteration");
  /* t was in use at the flush: the program's now (a leak of the program's,
   * as without pygraph) */
  CHECK(seg->pool.disowned == 1);
  fake_backend.device_free(t);
}

/* The first op on a second stream: the home stream drained before it
 * (a block reused this iteration may have been used there), idle blocks
 * freed, the pool off; the in-use block's free is then real, after a
 * flush. */
static void test_second_stream_turns_the_pool_off(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("pool_streams", 1);
  fake_reset();
  void *first = alloc_iteration(r);
  void *spare = NULL;
  begin(r, 0);                                   /* two blocks, one idle at the end */
  spare = device_malloc(128);
  CHECK(device_malloc(64) == first);
  device_free(spare);
  device_free(first);
  end(r);
  fake_log_clear();
  begin(r, 0);
  int *t = device_malloc(64);
  CHECK(t == first);
  kernel_buf(1, 5, t);
  kernel_on(7, 1, FAKE_STREAM(2));
  device_free(t);
  end(r);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK_STR(seg->pool.off, "ops on more than one stream");
  const char *log = fake_log();
  CHECK(harness_count(log, "sync") == 1 && harness_count(log, "p:free") == 1);
  CHECK(strstr(log, "sync") < strstr(log, "k7(1)"));      /* drained before the new stream */
  CHECK(strstr(log, "k1(5)") < strstr(log, "p:free"));     /* the free after its user */
  CHECK(fake_live_allocs == 0);                  /* idle one freed, in-use one freed by the program */
  fake_log_clear();
  begin(r, 0);
  void *later = device_malloc(64);               /* off: the real call */
  end(r);
  CHECK(harness_count(fake_log(), "p:malloc(64)") == 1);
  fake_backend.device_free(later);
}

/* A flush (an op that cannot be deferred) runs what was recorded; a
 * block in use is the program's from there, its free real. */
static void test_flush_gives_blocks_in_use_away(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("pool_flush", 1);
  fake_reset();
  for (int i = 0; i < 2; i++)
    alloc_iteration(r);
  fake_log_clear();
  begin(r, 0);
  int *t = device_malloc(64);
  kernel_buf(1, 5, t);
  undeferrable("driver launch");
  device_free(t);
  end(r);
  CHECK(harness_count(fake_log(), "p:free") == 1);
  CHECK(strstr(fake_log(), "k1(5)") < strstr(fake_log(), "p:free"));
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->pool.n_blocks == 0 && fake_live_allocs == 0);
  /* The next iteration allocates anew and is recorded as before. */
  void *again = alloc_iteration(r);
  CHECK(again != NULL && seg->pool.allocated == 2);
}

/* A block serves only allocations of its own size, the lowest-numbered
 * idle one first: the same calls in a new order still find their blocks. */
static void test_blocks_by_size(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("pool_sizes", 1);
  fake_reset();
  begin(r, 0);
  void *big = device_malloc(128), *small = device_malloc(64);
  device_free(big);
  device_free(small);
  end(r);
  begin(r, 0);
  void *small2 = device_malloc(64), *big2 = device_malloc(128);
  device_free(small2);
  device_free(big2);
  end(r);
  CHECK(small2 == small && big2 == big);
  CHECK(harness_segment(r, 0)->pool.allocated == 2);
  CHECK(pygraph_alloc_pools_release_idle() >= 192);
}

/* PYGRAPH_POOL_MB: nothing past the cap (the real call), nothing at 0. */
static void test_byte_cap(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_pool_mb(1);
  pygraph_region *r = harness_region("pool_cap", 1);
  fake_reset();
  begin(r, 0);
  void *small = device_malloc(512 * 1024);
  void *big = device_malloc(768 * 1024);         /* over 1 MiB together */
  end(r);
  CHECK(harness_count(fake_log(), "p:malloc(786432)") == 1);
  CHECK(harness_count(fake_log(), "p:malloc(524288)") == 0);
  fake_backend.device_free(big);
  harness_pool_mb(0);
  pygraph_region *off = harness_region("pool_zero", 1);
  fake_log_clear();
  begin(off, 0);
  void *none = device_malloc(64);
  end(off);
  CHECK(harness_count(fake_log(), "p:malloc(64)") == 1);
  CHECK_STR(harness_segment(off, 0)->pool.off, "PYGRAPH_POOL_MB=0");
  fake_backend.device_free(none);
  (void)small;                                   /* the program's: kept past its iteration */
  fake_backend.device_free(small);
}

/* A batchable loop's unit of K iterations on one stream reuses one block
 * throughout: the graph of the unit holds its iterations in stream order. */
static void test_batched_unit_reuses_one_block(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_batch(4);
  pygraph_region *r = harness_batch_region("pool_batch", 4);
  fake_reset();
  void *seen = NULL;
  int same = 1;
  loop_enter(r, 16);
  for (int i = 0; i < 16; i++) {
    begin(r, 0);
    void *t = device_malloc(64);
    same &= !seen || t == seen;
    seen = t;
    kernel_buf(1, 1, t);
    device_free(t);
    end(r);
  }
  loop_exit(r);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(same && seg->pool.allocated == 1 && seg->stats.flushes == 0);
  CHECK(*(int *)seen == 16);
  CHECK(pygraph_alloc_pools_release_idle() >= 64);
}

int main(void)
{
  test_same_block_every_iteration_replays();
  test_kept_block_becomes_the_programs();
  test_foreign_free_flushes_first();
  test_second_stream_turns_the_pool_off();
  test_flush_gives_blocks_in_use_away();
  test_blocks_by_size();
  test_byte_cap();
  test_batched_unit_reuses_one_block();
  return check_finish();
}
