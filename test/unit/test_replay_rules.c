/* test_replay_rules.c - which recorded fields let a graph replay a later
 * iteration, each changed alone.
 *
 * A graph may replay an iteration only when every op has the same shape
 * (kind, stream, memset size, copy kind and size, kernel, grid, block,
 * dynamic shared memory); what may differ (memset value, copy or memset
 * destination, kernel arguments, event) is patched into the graph first.
 * Each case captures an iteration (graph mode, warm-up 1), replays it once
 * unchanged, then changes one field of one op: a parameter must be updated
 * in the graph before it is launched, a shape field must never launch the
 * old graph.  Only the harness and the fake backend's log are used. */
#include <string.h>

#include "check.h"
#include "harness.h"

/* The second op of an iteration (the first is kernel 1, always the same). */
struct op_spec {
  enum { OP_MEMSET, OP_MEMCPY, OP_KERNEL, OP_RECORD } kind;
  int value;                    /* memset value, kernel argument, event */
  size_t count;                 /* memset / copy bytes */
  unsigned long dst;            /* copy destination */
  enum cudaMemcpyKind copy_kind;
  dim3 grid, block;
  size_t shmem;
  cudaStream_t stream;
};

static const struct op_spec kMemset = {.kind = OP_MEMSET, .value = 5, .count = 64};
static const struct op_spec kMemcpy = {.kind = OP_MEMCPY, .count = 64, .dst = 0x7000,
                                       .copy_kind = cudaMemcpyDeviceToDevice};
static const struct op_spec kKernel = {.kind = OP_KERNEL, .value = 1, .grid = {4, 1, 1},
                                       .block = {128, 1, 1}, .shmem = 0};
static const struct op_spec kRecord = {.kind = OP_RECORD, .value = 1};

static void iteration(pygraph_region *r, const struct op_spec *op)
{
  begin(r, 0);
  kernel(1, 0);
  switch (op->kind) {
  case OP_MEMSET: memset_op(op->value, op->count); break;
  case OP_MEMCPY: memcpy_op(op->dst, op->count, op->copy_kind); break;
  case OP_KERNEL:
    kernel_cfg(2, op->value, op->grid, op->block, op->shmem, op->stream ? op->stream : S1);
    break;
  case OP_RECORD: event_record(op->value, S1); break;
  }
  end(r);
}

/* The fake log of the iteration that follows a capture and one unchanged
 * replay of `base`, with `changed` as its second op. */
static char log_after[4096];
static const char *after_change(const struct op_spec *base, const struct op_spec *changed)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("replay_rules", 1);
  fake_reset();
  fake.memcpy_default_is_device = 1;
  iteration(r, base);                       /* warm-up */
  iteration(r, base);                       /* captured */
  CHECK(strstr(fake_log(), "build(0 1<0) inst launch") != NULL);
  fake_log_clear();
  iteration(r, base);                       /* replayed as it is */
  CHECK_STR(fake_log(), "launch");
  fake_log_clear();
  iteration(r, changed);
  snprintf(log_after, sizeof log_after, "%s", fake_log());
  return log_after;
}

/* A parameter: node 1 updated, then the graph launched. */
static void check_updated(const struct op_spec *base, const struct op_spec *changed)
{
  CHECK_STR(after_change(base, changed), "upd1 launch");
}

/* Occurrences of `token` (a whole word) in log. */
static int count(const char *log, const char *token)
{
  int n = 0;
  size_t len = strlen(token);
  for (const char *p = log; (p = strstr(p, token)) != NULL; p += len)
    if ((p == log || p[-1] == ' ') && (p[len] == ' ' || p[len] == '\0'))
      n++;
  return n;
}

/* A shape field: the old graph is not launched.  The iteration ran its ops
 * eagerly, the changed one (token `ran`) exactly once, or as a graph built
 * for it. */
static void check_not_replayed(const struct op_spec *base, const struct op_spec *changed,
                               const char *ran)
{
  const char *log = after_change(base, changed);
  if (strstr(log, "build(") != NULL) {
    CHECK(count(log, "launch") == 1 && count(log, ran) == 0);
  } else {
    CHECK(count(log, "launch") == 0);
    CHECK(count(log, ran) == 1);
  }
}

static void test_memset_fields(void)
{
  struct op_spec v = kMemset;
  v.value = 7;                              /* the value alone: an update */
  check_updated(&kMemset, &v);
  v.value = 5 + 256;                        /* the same byte: nothing to update */
  CHECK_STR(after_change(&kMemset, &v), "launch");
  v = kMemset;
  v.count = 32;                             /* the size alone: another shape */
  check_not_replayed(&kMemset, &v, "ms(5)");
}

static void test_memcpy_fields(void)
{
  struct op_spec v = kMemcpy;
  v.dst = 0x7100;                           /* the destination alone: an update */
  check_updated(&kMemcpy, &v);
  v = kMemcpy;
  v.count = 32;                             /* the size alone */
  check_not_replayed(&kMemcpy, &v, "mc(28672)");
  v = kMemcpy;
  v.copy_kind = cudaMemcpyDefault;          /* the kind alone, still device to device */
  check_not_replayed(&kMemcpy, &v, "mc(28672)");
  v.copy_kind = cudaMemcpyDeviceToHost;     /* to the host: never deferred */
  CHECK_STR(after_change(&kMemcpy, &v), "k1(0) p:mc(28672)");
}

static void test_kernel_fields(void)
{
  struct op_spec v = kKernel;
  v.value = 2;                              /* an argument alone: an update */
  check_updated(&kKernel, &v);
  for (int d = 0; d < 6; d++) {             /* one dimension alone */
    v = kKernel;
    switch (d) {
    case 0: v.grid.x = 8; break;
    case 1: v.grid.y = 2; break;
    case 2: v.grid.z = 2; break;
    case 3: v.block.x = 64; break;
    case 4: v.block.y = 2; break;
    default: v.block.z = 2; break;
    }
    check_not_replayed(&kKernel, &v, "k2(1)");
  }
  v = kKernel;
  v.shmem = 256;                            /* dynamic shared memory alone */
  check_not_replayed(&kKernel, &v, "k2(1)");
  v = kKernel;
  v.stream = S2;                            /* the stream alone */
  check_not_replayed(&kKernel, &v, "k2(1)");
}

static void test_event_record_fields(void)
{
  struct op_spec v = kRecord;
  v.value = 2;                              /* another event alone: an update */
  check_updated(&kRecord, &v);
}

int main(void)
{
  test_memset_fields();
  test_memcpy_fields();
  test_kernel_fields();
  test_event_record_fields();
  return check_finish();
}
