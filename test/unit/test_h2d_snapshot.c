/* test_h2d_snapshot.c - synchronous host-to-device copies (cudaMemcpy of
 * kind cudaMemcpyHostToDevice, cudaMemcpyToSymbol) inside a region
 * (abi/record.h): the bytes are read at the call, so the host may
 * overwrite its buffer at once; they reach device memory in stream order
 * with the kernels around the copy, eagerly and in the graph; bytes that
 * change every iteration replay with a node update, never a new capture;
 * a copy over PYGRAPH_HOST_BYTES_MAX bytes, from memory that is not
 * pageable, to memory that is not device memory, to a symbol without
 * device memory or past its end flushes and runs once, as the real call. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "harness.h"
#include "pygraph_abi.h"
#include "recording/host_bytes.h"
#include "recording/signature.h"

/* The host's own buffer: memory the fake does not know, i.e. pageable. */
static int host_value[1];

/* One iteration: kernel 1 adds 5 to *param (the copy then overwrites
 * it), the copy writes `value`, the host overwrites its buffer right
 * after the call, kernel 2 adds 3: *param == value + 3 exactly when the
 * three ran in call order with the bytes of the call. */
static void iteration(pygraph_region *r, int *param, int value)
{
  begin(r, 0);
  kernel_buf(1, 5, param);
  host_value[0] = value;
  h2d_copy(param, host_value, sizeof host_value);
  host_value[0] = -1;
  kernel_buf(2, 3, param);
  end(r);
}

static pygraph_region *graph_region(const char *name)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region(name, 1);
  fake_reset();
  return r;
}

/* Warm-up (eager), capture, replays: every iteration delivers its own
 * bytes between the kernels; a change of bytes is one node update. */
static void test_snapshot_delivered_in_order(void)
{
  pygraph_region *r = graph_region("h2d_order");
  int *param = fake_buffer(sizeof(int));
  for (int i = 0; i < 5; i++) {
    iteration(r, param, 10 + i);
    CHECK(*param == 10 + i + 3);
  }
  CHECK_STR(fake_log(), "k1(5) hb(10) k2(3) build(0 1<0 2<1) inst launch upd1 launch upd1 launch "
                        "upd1 launch");
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.captures == 1);
  CHECK(seg->stats.flushes == 0);
  CHECK(seg->stats.replays == 3);
  CHECK(seg->current->ops[1].kind == PYGRAPH_OP_HOST_BYTES &&
        seg->current->ops[1].stream == cudaStreamLegacy);
  CHECK(fake_host_bytes_queries == 5);          /* asked at every call */
}

/* The same bytes every iteration: the graph replays with no update; the
 * host's buffer was overwritten each time (the list holds its own copy). */
static void test_same_bytes_replay_without_update(void)
{
  pygraph_region *r = graph_region("h2d_same");
  int *param = fake_buffer(sizeof(int));
  for (int i = 0; i < 3; i++)
    iteration(r, param, 7);
  fake_log_clear();
  iteration(r, param, 7);
  CHECK_STR(fake_log(), "launch");
  CHECK(*param == 10);
}

/* Bytes of different values at a different address, one op compared with
 * another of the same signature. */
static void test_signature_keeps_bytes_out(void)
{
  struct pygraph_op_list a = {0}, b = {0};
  unsigned char one[24] = {1}, two[24] = {2};
  struct pygraph_op op = {.kind = PYGRAPH_OP_HOST_BYTES, .stream = S1, .dst = (void *)0x7000,
                          .src = one, .count = sizeof one, .wait_link = -1};
  CHECK(pygraph_op_list_copy_bytes(&a, &op) == 0 && pygraph_op_list_append(&a, &op));
  op.src = two;
  CHECK(pygraph_op_list_copy_bytes(&b, &op) == 0 && pygraph_op_list_append(&b, &op));
  one[0] = two[0] = 9;                          /* the lists hold their own copies */
  pygraph_op_list_materialize(&a);
  pygraph_op_list_materialize(&b);
  CHECK(pygraph_same_signature(&a, &b));
  CHECK(pygraph_signature_hash(&a) == pygraph_signature_hash(&b));
  CHECK(pygraph_op_params_differ(&a, &a.ops[0], &b, &b.ops[0]));
  CHECK(((const unsigned char *)a.ops[0].src)[0] == 1 && ((const unsigned char *)b.ops[0].src)[0] == 2);
  /* padded with zeroes to the kernel's class: what its parameter reads */
  const unsigned char *padded = a.ops[0].src;
  size_t class_bytes = pygraph_host_bytes_class_bytes(pygraph_host_bytes_class_of(24));
  CHECK(class_bytes == 256 && a.n_arg_bytes >= class_bytes);
  int zero = 1;
  for (size_t k = sizeof one; k < class_bytes; k++)
    zero = zero && padded[k] == 0;
  CHECK(zero);
  two[0] = 1;                                   /* same bytes, another host address */
  struct pygraph_op_list c = {0};
  op.src = two;
  CHECK(pygraph_op_list_copy_bytes(&c, &op) == 0 && pygraph_op_list_append(&c, &op));
  pygraph_op_list_materialize(&c);
  CHECK(!pygraph_op_params_differ(&a, &a.ops[0], &c, &c.ops[0]));
  c.ops[0].count = 16;                          /* another size: another graph */
  CHECK(!pygraph_same_signature(&a, &c));
  pygraph_op_list_free(&a);
  pygraph_op_list_free(&b);
  pygraph_op_list_free(&c);
}

/* A copy the runtime refuses: what was recorded runs first, then the real
 * call, once; then the rest of the iteration passes through. */
static void check_flushed(pygraph_region *r, const char *reason)
{
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 1);
  CHECK_STR(seg->last_flush_reason, reason);
}

static void sized_iteration(pygraph_region *r, int *dst, const unsigned char *src, size_t count)
{
  begin(r, 0);
  kernel_buf(1, 5, dst);
  h2d_copy(dst, src, count);
  kernel_buf(2, 3, dst);
  end(r);
}

/* PYGRAPH_HOST_BYTES_MAX bytes are delivered from the snapshot; one more
 * flushes at the copy. */
static void test_size_limit(void)
{
  pygraph_region *r = graph_region("h2d_limit");
  size_t max = PYGRAPH_HOST_BYTES_MAX;
  unsigned char *src = malloc(max + 1);
  int *dst = fake_buffer(max + 1);
  memset(src, 0, max + 1);
  src[0] = 40;
  for (int i = 0; i < 3; i++)
    sized_iteration(r, dst, src, max);
  CHECK(*dst == 43);
  CHECK(harness_segment(r, 0)->stats.flushes == 0);
  CHECK(harness_segment(r, 0)->stats.replays == 1);
  fake_log_clear();
  src[0] = 50;
  sized_iteration(r, dst, src, max + 1);
  CHECK_STR(fake_log(), "k1(5) p:hb(50) p:k2(3)");
  CHECK(*dst == 53);                            /* each once, in order */
  check_flushed(r, "host-to-device copy too large to snapshot");
  free(src);
}

/* A pinned source (kernels may write it: its bytes at the call are not
 * the copy's), a destination that is not device memory, the copy kernels
 * missing: a flush and the real call each. */
static void test_refused_memory(void)
{
  for (int c = 0; c < 3; c++) {
    pygraph_region *r = graph_region("h2d_memory");
    int *dst = fake_buffer(sizeof(int)), *pinned = fake_host_buffer(sizeof(int));
    static int pageable_dst[1];
    *pinned = 60;
    host_value[0] = 60;
    fake.no_host_bytes = c == 2;
    begin(r, 0);
    kernel_buf(1, 5, dst);
    if (c == 0)
      h2d_copy(dst, pinned, sizeof(int));
    else
      h2d_copy(c == 1 ? pageable_dst : dst, host_value, sizeof(int));
    end(r);
    CHECK_STR(fake_log(), "k1(5) p:hb(60)");
    check_flushed(r, "host-to-device copy not from pageable host memory to device memory");
  }
}

/* cudaMemcpyToSymbol: the same copy at the symbol's address + offset; a
 * symbol without device memory, or a copy past its end, flushes. */
static void test_to_symbol(void)
{
  pygraph_region *r = graph_region("h2d_symbol");
  int *symbol = fake_buffer(4 * sizeof(int)), *acc = fake_buffer(sizeof(int));
  for (int i = 0; i < 4; i++) {
    begin(r, 0);
    host_value[0] = 20 + i;
    to_symbol(symbol, host_value, sizeof(int), 2 * sizeof(int));
    host_value[0] = -1;
    kernel_buf(1, 1, acc);
    kernel_buf(2, 1, &symbol[2]);
    end(r);
    CHECK(symbol[2] == 20 + i + 1 && symbol[0] == 0 && symbol[3] == 0);
  }
  CHECK(harness_segment(r, 0)->stats.captures == 1);
  CHECK(harness_segment(r, 0)->stats.flushes == 0);
  CHECK(fake_symbol_queries == 4);
  fake_log_clear();
  begin(r, 0);
  kernel_buf(1, 1, acc);
  host_value[0] = 70;
  to_symbol(FAKE_NO_SYMBOL, host_value, sizeof(int), 0);
  end(r);
  CHECK_STR(fake_log(), "k1(1) p:hb(70)");
  check_flushed(r, "symbol not in device memory");
  /* past the symbol's end: the real call (which fails) */
  r = graph_region("h2d_symbol_end");
  begin(r, 0);
  kernel_buf(1, 1, acc);
  to_symbol(symbol, host_value, 2 * sizeof(int), 3 * sizeof(int));
  end(r);
  CHECK_STR(fake_log(), "k1(1) p:hb(70)");
  check_flushed(r, "copy past the end of the symbol");
  CHECK(symbol[3] == 0);
}

/* A batchable loop, 4 iterations per graph, each copying to its own slot:
 * every iteration of a replayed unit delivers its own bytes. */
static void test_batched_units(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_batch_region("h2d_batch", 4);
  fake_reset();
  int *slots = fake_buffer(4 * sizeof(int));
  loop_enter(r, 1000);
  for (int i = 0; i < 20; i++) {
    begin(r, 0);
    host_value[0] = 100 + i;
    h2d_copy(&slots[i % 4], host_value, sizeof(int));
    host_value[0] = -1;
    kernel_buf(1, 1, &slots[i % 4]);
    end(r);
  }
  loop_exit(r);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->batch.k == 4);
  CHECK(seg->stats.captures == 1 && seg->stats.replays == 3);
  for (int j = 0; j < 4; j++)
    CHECK(slots[j] == 100 + 16 + j + 1);        /* the last unit's own bytes */
}

/* ---- verify mode: the copy's destination is compared -------------------- */

static const char *verify_status(pygraph_region *r)
{
  struct pygraph_segment_summary sum;
  pygraph_segment_summarize(harness_segment(r, 0), &sum);
  return sum.verify;
}

/* Bytes that change every iteration into memory only the copy writes: a
 * graph whose update is lost (the fake's planted stale-update bug)
 * delivers old bytes, which verify mode names by the copy; a correct one
 * passes. */
static void test_verify(int stale)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_verify(2);
  pygraph_region *r = harness_region(stale ? "h2d_verify_stale" : "h2d_verify", 1);
  fake_reset();
  fake.stale_updates = stale;
  int *param = fake_buffer(sizeof(int)), *acc = fake_buffer(sizeof(int));
  fflush(stderr);
  int saved = dup(2);
  FILE *quiet = tmpfile();
  dup2(fileno(quiet), 2);                       /* the mismatch line is expected */
  for (int i = 0; i < 4; i++) {
    begin(r, 0);
    kernel_buf(1, 1, acc);
    host_value[0] = 30 + i;
    h2d_copy(param, host_value, sizeof(int));
    kernel_buf(2, 1, acc);
    end(r);
  }
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  fclose(quiet);
  const char *status = verify_status(r);
  if (stale)
    CHECK(status && strncmp(status, "mismatch cudaMemcpy (host-to-device) arg 0 buffer", 48) == 0);
  else
    CHECK(status && strncmp(status, "ok", 2) == 0);
  harness_verify(0);
}

int main(void)
{
  test_snapshot_delivered_in_order();
  test_same_bytes_replay_without_update();
  test_signature_keeps_bytes_out();
  test_size_limit();
  test_refused_memory();
  test_to_symbol();
  test_batched_units();
  test_verify(0);
  test_verify(1);
  return check_finish();
}
