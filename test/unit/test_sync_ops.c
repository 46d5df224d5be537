/* test_sync_ops.c - the synchronous cudaMemset / cudaMemcpy (record.h):
 * deferred on device memory as the asynchronous form on the legacy default
 * stream, in order with the kernels around them; a barrier when a pointer
 * turns out not to be device memory: what was recorded runs first, then the
 * real call, once. */
#include "check.h"
#include "harness.h"

#include <stdio.h>

/* One iteration: k1 adds 5 to *buf, the memset zeroes *target, k2 adds 3
 * to *buf. */
static void iteration(pygraph_region *r, int *buf, int *target)
{
  begin(r, 0);
  kernel_buf(1, 5, buf);
  sync_memset_to(target, 0, sizeof *target);
  kernel_buf(2, 3, buf);
  end(r);
}

static void test_deferred_memset_replays_in_order(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("sync_memset", 1);
  fake_reset();
  int *buf = fake_buffer(sizeof(int));
  for (int i = 0; i < 4; i++) {
    iteration(r, buf, buf);
    CHECK(*buf == 3);                   /* k1, then the memset, then k2 */
  }
  /* warm-up (run as recorded), capture, replays: the memset is a node,
   * chained in call order with the kernels (legacy stream beside S1) */
  CHECK_STR(fake_log(), "k1(5) ms(0) k2(3) build(0 1<0 2<1) inst launch launch launch");
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 0);
  CHECK(seg->stats.replays == 2);      /* (the capture launches the third) */
  CHECK(seg->current->n_ops == 3 && seg->current->ops[1].kind == PYGRAPH_OP_MEMSET &&
        seg->current->ops[1].stream == cudaStreamLegacy);
  CHECK(fake_pointer_queries == 4);     /* asked at every call */
}

static void test_host_memset_flushes_then_runs_once(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("sync_memset_host", 1);
  fake_reset();
  int *buf = fake_buffer(sizeof(int)), *pinned = fake_host_buffer(sizeof(int));
  for (int i = 0; i < 2; i++)
    iteration(r, buf, buf);             /* a graph of the device-memory iteration */
  CHECK(*buf == 3);
  fake_log_clear();
  *pinned = 42;
  iteration(r, buf, pinned);            /* recorded to replay, until the memset */
  /* k1 (deferred) ran first, then the real memset, then k2 passed through */
  CHECK_STR(fake_log(), "k1(5) p:ms(0) p:k2(3)");
  CHECK(*buf == 11 && *pinned == 0);    /* each kernel once, the memset once */
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 1);
  CHECK_STR(seg->last_flush_reason, "synchronous memset of non-device memory");
  fake_log_clear();
  iteration(r, buf, buf);               /* device memory again: the graph replays */
  CHECK_STR(fake_log(), "launch");
  CHECK(*buf == 3);
}

/* A synchronous copy is checked whatever its kind says (a copy of managed
 * memory makes the host wait); an asynchronous one of device-to-device kind
 * is taken at its word, as before. */
static void test_sync_copy_kinds(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("sync_memcpy", 1);
  fake_reset();
  int *a = fake_buffer(sizeof(int)), *b = fake_buffer(sizeof(int));
  int *pinned = fake_host_buffer(sizeof(int));
  *a = 7;
  begin(r, 0);
  sync_memcpy_to(b, a, sizeof *a, cudaMemcpyDeviceToDevice);
  sync_memcpy_to(a, b, sizeof *a, cudaMemcpyDefault);
  memcpy_op(0x7000, 4, cudaMemcpyDeviceToDevice);
  CHECK(fake_pointer_queries == 2);     /* not for the asynchronous copy */
  CHECK(*b == 7);                       /* warm-up: run as recorded */
  *pinned = 9;
  sync_memcpy_to(b, pinned, sizeof *b, cudaMemcpyDeviceToDevice);   /* flushes */
  end(r);
  CHECK(fake_pointer_queries == 3);
  CHECK(*b == 9);
  char want[64];
  snprintf(want, sizeof want, "p:mc(%lu)", (unsigned long)b);
  CHECK(strstr(fake_log(), want) != NULL);
  CHECK_STR(harness_segment(r, 0)->last_flush_reason, "synchronous memcpy of non-device memory");

  fake_log_clear();
  begin(r, 0);
  /* a host-to-device copy from device memory: no snapshot (test_h2d_snapshot.c) */
  sync_memcpy_to(b, a, sizeof *a, cudaMemcpyHostToDevice);
  end(r);
  CHECK(fake_pointer_queries == 3 && fake_host_bytes_queries == 1);
  CHECK(harness_segment(r, 0)->stats.flushes == 2);
}

int main(void)
{
  test_deferred_memset_replays_in_order();
  test_host_memset_flushes_then_runs_once();
  test_sync_copy_kinds();
  return check_finish();
}
