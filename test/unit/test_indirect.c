/* test_indirect.c - parameter indirection: which kernel nodes go indirect,
 * the graph shape, O(1) replays, the pinned staging ring, and faults. */
#include <stdlib.h>

#include "check.h"
#include "harness.h"
#include "indirect.h"
#include "report.h"
#include "staging.h"

#define TWIN_BAD 15                      /* only ever used as the rejected twin */

static unsigned ev(const struct pygraph_segment *seg, unsigned slot)
{
  return (unsigned)((unsigned long)seg->active->staging.events[slot] - 0x400);
}

static int count_of(const char *hay, const char *needle)
{
  int n = 0;
  size_t len = strlen(needle);
  for (const char *p = strstr(hay, needle); p; p = strstr(p + len, needle))
    n++;
  return n;
}

static int ends_with(const char *s, const char *suffix)
{
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* ---- selection, straight on op lists ----------------------------------- */

struct noted {
  char text[1024];
};

static void note(void *ctx, size_t index, const struct pygraph_op *op, const char *reason,
                 const char *detail)
{
  struct noted *n = ctx;
  (void)op;
  size_t len = strlen(n->text);
  snprintf(n->text + len, sizeof n->text - len, "%s%zu:%s%s%s", len ? "; " : "", index,
           reason ? reason : "indirect", detail ? "=" : "", detail ? detail : "");
}

static void add_kernel(struct pygraph_op_list *l, const struct pygraph_param_layout *layout,
                       const pygraph_site *site, unsigned block_x, size_t shmem, int arg0)
{
  long long arg1 = 5;
  int a0 = arg0;
  void *args[] = {&a0, &arg1};
  struct pygraph_op op = {.kind = PYGRAPH_OP_KERNEL, .stream = S1, .func = FAKE_FUNC(1),
                          .site = site, .layout = layout, .grid = {1, 1, 1},
                          .block = {block_x, 1, 1}, .shmem = shmem, .wait_link = -1};
  CHECK(pygraph_op_list_copy_args(l, &op, args) == 0);
  CHECK(pygraph_op_list_append(l, &op) != NULL);
}

static void test_select_reasons_and_packing(void)
{
  fake_reset();
  /* (int, long long) padded to 20 bytes: slices must stay 16-byte aligned. */
  struct pygraph_param_layout *l20 = pygraph_param_layout_alloc(2);
  l20->params[0].offset = 0;
  l20->params[0].size = 4;
  l20->params[1].offset = 8;
  l20->params[1].size = 8;
  l20->total_size = 20;
  struct pygraph_param_layout *none = pygraph_param_layout_alloc(0);
  pygraph_site twin = {.kernel = "k", .indirect_twin = FAKE_TWIN(1)};
  pygraph_site bad = {.kernel = "k", .indirect_twin = FAKE_TWIN(TWIN_BAD)};
  pygraph_site no_twin = {.kernel = "k", .indirect_twin = NULL};
  fake.bad_twin = TWIN_BAD;
  fake.twin_max_threads = 256;
  fake.twin_max_smem = 1024;

  struct pygraph_op_list ops = {0};
  add_kernel(&ops, l20, &twin, 32, 0, 10);        /* 0: indirect @0 */
  add_kernel(&ops, l20, &twin, 32, 0, 11);        /* 1: unchanged */
  add_kernel(&ops, l20, &no_twin, 32, 0, 12);     /* 2: no twin */
  add_kernel(&ops, l20, NULL, 32, 0, 13);         /* 3: no site at all */
  add_kernel(&ops, l20, &bad, 32, 0, 14);         /* 4: twin rejected */
  struct pygraph_op ms = {.kind = PYGRAPH_OP_MEMSET, .stream = S1, .count = 4, .wait_link = -1};
  CHECK(pygraph_op_list_append(&ops, &ms) != NULL);   /* 5: not a kernel: silent */
  add_kernel(&ops, none, &twin, 32, 0, 0);        /* 6: no parameters */
  add_kernel(&ops, l20, &twin, 512, 0, 17);       /* 7: block above the twin's limit */
  add_kernel(&ops, l20, &twin, 32, 4096, 18);     /* 8: shmem above the twin's limit */
  add_kernel(&ops, l20, &twin, 32, 512, 19);      /* 9: indirect @32 */
  pygraph_op_list_materialize(&ops);
  unsigned char changed[] = {1, 0, 1, 1, 1, 1, 1, 1, 1, 1};

  struct pygraph_indirect ind = {0};
  struct noted n = {{0}};
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, changed, sizeof changed, note, &n) ==
        0);
  CHECK_STR(n.text, "0:indirect; 1:args unchanged; 2:no indirect twin; 3:no indirect twin; "
                    "4:twin unusable=cudaErrorInvalidDeviceFunction; "
                    "6:empty parameter layout; "
                    "7:block larger than the twin's max threads per block; "
                    "8:dynamic shared memory above the twin's limit; 9:indirect");
  CHECK(ind.n_nodes == 2);
  CHECK(ind.nodes[0].op == 0 && ind.nodes[0].offset == 0 && ind.nodes[0].size == 20);
  CHECK(ind.nodes[1].op == 9 && ind.nodes[1].offset == 32 && ind.nodes[1].size == 20);
  CHECK(ind.nodes[1].twin == FAKE_TWIN(1));
  CHECK(ind.block_size == 52);
  CHECK(ind.n_ops == 10 && ind.node_of_op[0] == 0 && ind.node_of_op[9] == 1);
  CHECK(ind.node_of_op[1] == -1 && ind.node_of_op[5] == -1 && ind.node_of_op[8] == -1);

  unsigned char block[52];
  memset(block, 0xee, sizeof block);
  pygraph_indirect_pack(&ind, &ops, block);
  int a0;
  long long a1;
  memcpy(&a0, block + 0, 4);
  memcpy(&a1, block + 8, 8);
  CHECK(a0 == 10 && a1 == 5);
  memcpy(&a0, block + 32, 4);
  CHECK(a0 == 19);
  CHECK(block[20] == 0xee);              /* padding between slices untouched */

  /* Positions past the change record count as unchanged. */
  memset(n.text, 0, sizeof n.text);
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, changed, 1, note, &n) == 0);
  CHECK(ind.n_nodes == 1 && ind.block_size == 20);

  /* One backend query per twin for the whole process. */
  int queries = fake_twin_queries;
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, changed, sizeof changed, NULL, NULL) ==
        0);
  CHECK(fake_twin_queries == queries);

  pygraph_indirect_free(&ind);
  pygraph_op_list_free(&ops);
  free(l20);
  free(none);
}

static void test_slice_alignment(void)
{
  struct pygraph_param_layout *l = pygraph_param_layout_alloc(2);
  l->params[0].size = 4;
  l->params[1].offset = 8;
  l->params[1].size = 8;
  l->total_size = 16;
  CHECK(pygraph_indirect_slice_align(l) == 16);
  l->params[1].size = 32;                /* maybe an __align__(32) struct */
  CHECK(pygraph_indirect_slice_align(l) == 32);
  l->params[1].size = 96;                /* alignment divides 96: at most 32 */
  CHECK(pygraph_indirect_slice_align(l) == 32);
  l->params[1].size = 4096;
  CHECK(pygraph_indirect_slice_align(l) == PYGRAPH_INDIRECT_SLICE_ALIGN_MAX);
  l->params[1].size = 12;
  CHECK(pygraph_indirect_slice_align(l) == 16);

  /* In a packed block: a 20-byte slice, then one needing 64. */
  struct pygraph_param_layout *l20 = pygraph_param_layout_alloc(1);
  l20->params[0].size = 20;
  l20->total_size = 20;
  struct pygraph_param_layout *l64 = pygraph_param_layout_alloc(1);
  l64->params[0].size = 64;
  l64->total_size = 64;
  pygraph_site twin = {.kernel = "k", .indirect_twin = FAKE_TWIN(1)};
  struct pygraph_op_list ops = {0};
  int v[16] = {0};
  void *args[] = {v};
  const struct pygraph_param_layout *layouts[] = {l20, l64, l20};
  for (int i = 0; i < 3; i++) {
    struct pygraph_op op = {.kind = PYGRAPH_OP_KERNEL, .stream = S1, .func = FAKE_FUNC(1),
                            .site = &twin, .layout = layouts[i], .grid = {1, 1, 1},
                            .block = {32, 1, 1}, .wait_link = -1};
    CHECK(pygraph_op_list_copy_args(&ops, &op, args) == 0);
    CHECK(pygraph_op_list_append(&ops, &op) != NULL);
  }
  unsigned char changed[] = {1, 1, 1};
  struct pygraph_indirect ind = {0};
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, changed, 3, NULL, NULL) == 0);
  CHECK(ind.n_nodes == 3);
  CHECK(ind.nodes[0].offset == 0 && ind.nodes[1].offset == 64 && ind.nodes[2].offset == 128);
  CHECK(ind.block_size == 148);
  pygraph_indirect_free(&ind);
  pygraph_op_list_free(&ops);
  free(l);
  free(l20);
  free(l64);
}

/* ---- through the state machine ---------------------------------------- */

/* Ops: k1 (args follow a, twin 1), k2 (fixed args, twin 2), k3 (args follow
 * a, no twin), k4 (args follow a, rejected twin). */
static void mixed_iteration(pygraph_region *r, int a)
{
  begin(r, 0);
  kernel_twin(1, a, 1);
  kernel_twin(2, 7, 2);
  kernel(3, a);
  kernel_twin(4, a, TWIN_BAD);
  end(r);
}

static void test_node_selection_in_capture(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("select", 1);
  fake_reset();
  fake.bad_twin = TWIN_BAD;
  int allocs = fake_live_allocs, events = fake_live_events;
  mixed_iteration(r, 0);                           /* eager */
  CHECK_STR(fake_log(), "k1(0) k2(7) k3(0) k4(0)");
  fake_log_clear();
  mixed_iteration(r, 1);                           /* capture */
  struct pygraph_segment *seg = harness_segment(r, 0);
  char expect[256];
  snprintf(expect, sizeof expect, "build(0 1<0 2<1 3<2; ind 0@0 16B) inst launch rec%u",
           ev(seg, 0));
  CHECK_STR(fake_log(), expect);
  CHECK(seg->stats.indirect_nodes == 1 && seg->stats.indirect_bytes == 16);
  CHECK(fake_block_arg0(0) == 1);                  /* first launch: this iteration's args */
  CHECK(fake_live_allocs == allocs + 2);           /* device block + pinned ring */
  CHECK(fake_live_events == events + (int)PYGRAPH_STAGING_SLOTS);

  fake_log_clear();
  mixed_iteration(r, 2);                           /* direct ones: per-node updates */
  snprintf(expect, sizeof expect, "upd2 upd3 stage launch rec%u", ev(seg, 1));
  CHECK_STR(fake_log(), expect);
  CHECK(fake_block_arg0(0) == 2);
  CHECK(seg->stats.updates == 2 && seg->stats.refreshes == 1);

  fake_log_clear();
  mixed_iteration(r, 2);                           /* nothing moved: no refresh */
  snprintf(expect, sizeof expect, "launch rec%u", ev(seg, 1));
  CHECK_STR(fake_log(), expect);
  CHECK(seg->active->staging.current == 1);
  CHECK(fake_block_arg0(0) == 2);

  char line[512];
  pygraph_report_format_segment(line, sizeof line, seg);
  CHECK(strstr(line, " mismatches=0 indirect=1 block=16B fallback=\"-\"") != NULL);
}

static void test_indirect_off(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_indirect(0);
  pygraph_region *r = harness_region("off", 1);
  fake_reset();
  int allocs = fake_live_allocs;
  for (int a = 0; a < 2; a++) {
    begin(r, 0);
    kernel_twin(1, a, 1);
    kernel_twin(2, a, 2);
    end(r);
  }
  CHECK_STR(fake_log(), "k1(0) k2(0) build(0 1<0) inst launch");
  fake_log_clear();
  begin(r, 0);
  kernel_twin(1, 5, 1);
  kernel_twin(2, 5, 2);
  end(r);
  CHECK_STR(fake_log(), "upd0 upd1 launch");
  CHECK(fake_live_allocs == allocs);
  CHECK(harness_segment(r, 0)->stats.indirect_nodes == 0);
}

/* Warm-up (auto mode, 2 iterations) sees the change even when the capture
 * iteration repeats the last warm-up one. */
static void test_change_seen_during_warmup(void)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  harness_variants(1);                             /* the new graph replaces the old */
  pygraph_region *r = harness_region("warm_change", 1);
  fake_reset();
  int args[] = {0, 1, 1};                          /* warm-up, warm-up, capture */
  for (int i = 0; i < 3; i++) {
    begin(r, 0);
    kernel_twin(1, args[i], 1);
    kernel_twin(2, 3, 2);
    end(r);
  }
  CHECK(harness_segment(r, 0)->active->indirect.n_nodes == 1);
  CHECK(harness_segment(r, 0)->active->indirect.node_of_op[0] == 0);
  /* A mismatch starts the record over: nothing has changed yet then. */
  fake_log_clear();
  begin(r, 0);
  kernel_twin(1, 1, 1);
  end(r);                                          /* mismatch: warm-up */
  begin(r, 0);
  kernel_twin(1, 1, 1);
  end(r);
  begin(r, 0);
  kernel_twin(1, 1, 1);
  end(r);                                          /* capture: args never moved */
  /* Direct graph now; the old ring goes after its last reader finished. */
  CHECK(strstr(fake_log(), "build(0) inst destroy sync") != NULL);
  CHECK(ends_with(fake_log(), " launch"));
  CHECK(harness_segment(r, 0)->active->indirect.n_nodes == 0);
}

static void wide_iteration(pygraph_region *r, int n, int a)
{
  begin(r, 0);
  for (int k = 0; k < n; k++)
    kernel_twin(1 + k % 60, a + k, 1 + k % 14);
  end(r);
}

/* Whatever the node count: one memcpy-node update, one launch, one event
 * record per replay, and no per-node updates. */
static void test_replay_is_o1(void)
{
  static const int widths[] = {1, 7, 200};
  for (unsigned w = 0; w < sizeof widths / sizeof widths[0]; w++) {
    int n = widths[w];
    harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
    pygraph_region *r = harness_region("wide", 1);
    fake_reset();
    wide_iteration(r, n, 0);
    wide_iteration(r, n, 100);                     /* capture */
    struct pygraph_segment *seg = harness_segment(r, 0);
    CHECK(seg->active->indirect.n_nodes == (size_t)n);
    CHECK(seg->stats.indirect_bytes == 16u * (unsigned)n);
    for (int it = 1; it <= 5; it++) {
      fake_reset();
      fake_log_clear();
      wide_iteration(r, n, 100 * (it + 1));
      CHECK(fake_stage_calls == 1 && fake_launch_calls == 1 && fake_record_calls == 1);
      CHECK(count_of(fake_log(), "upd") == 0);
      CHECK(fake_block_arg0(0) == 100 * (it + 1));
      CHECK(fake_block_arg0((size_t)n - 1) == 100 * (it + 1) + n - 1);
    }
    CHECK(seg->stats.updates == 0 && seg->stats.replays == 5 && seg->stats.refreshes == 5);
  }
}

/* The ring: slot k % 8 for replay k, the wait on exactly that slot's event
 * once it was used before, and never a rewrite while a reader is pending. */
static void test_staging_ring_wraps_and_waits(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("ring", 1);
  fake_reset();
  wide_iteration(r, 3, 0);
  wide_iteration(r, 3, 1);                         /* capture: slot 0 */
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->active->staging.current == 0 && seg->active->staging.in_flight[0]);
  const unsigned char *slot0 = pygraph_staging_slot(&seg->active->staging, 0);
  for (unsigned k = 1; k <= 3 * PYGRAPH_STAGING_SLOTS + 1; k++) {
    fake_log_clear();
    wide_iteration(r, 3, (int)k + 1);
    unsigned slot = k % PYGRAPH_STAGING_SLOTS;
    char expect[128];
    if (k < PYGRAPH_STAGING_SLOTS)                 /* first use: nothing to wait for */
      snprintf(expect, sizeof expect, "stage launch rec%u", ev(seg, slot));
    else
      snprintf(expect, sizeof expect, "sync%u stage launch rec%u", ev(seg, slot), ev(seg, slot));
    CHECK_STR(fake_log(), expect);
    CHECK(seg->active->staging.current == slot);
    CHECK(pygraph_staging_slot(&seg->active->staging, slot) == slot0 + slot * seg->active->staging.stride);
    CHECK(fake_block_arg0(2) == (int)k + 3);
  }
  CHECK(fake_reuse_violations == 0);

  /* Unchanged replays keep reading the same slot and re-record its event:
   * the next advance still waits for the latest reader. */
  fake_log_clear();
  unsigned cur = seg->active->staging.current;
  wide_iteration(r, 3, 3 * PYGRAPH_STAGING_SLOTS + 2);   /* same args as the last one */
  char expect[128];
  snprintf(expect, sizeof expect, "launch rec%u", ev(seg, cur));
  CHECK_STR(fake_log(), expect);
  CHECK(fake_reuse_violations == 0);
}

/* The staging module on its own, and proof that the fake's checker does
 * catch a slot rewritten before its reader completed. */
static void test_staging_module(void)
{
  fake_reset();
  int allocs = fake_live_allocs, events = fake_live_events;
  /* A fake graph with one indirect node, to launch and record against. */
  struct pygraph_op_list ops = {0};
  pygraph_site site = {.kernel = "k", .indirect_twin = FAKE_TWIN(1)};
  struct pygraph_param_layout *layout = pygraph_param_layout_alloc(2);
  layout->params[0].size = 4;
  layout->params[1].offset = 8;
  layout->params[1].size = 8;
  layout->total_size = 16;
  add_kernel(&ops, layout, &site, 32, 0, 1);
  pygraph_op_list_materialize(&ops);
  unsigned char changed[] = {1};
  struct pygraph_indirect ind = {0};
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, changed, 1, NULL, NULL) == 0);
  struct pygraph_staging st;
  const char *step = NULL;
  CHECK(pygraph_staging_create(&st, &fake_backend, ind.block_size, &step) == cudaSuccess);
  CHECK(st.stride == PYGRAPH_STAGING_SLOT_ALIGN && st.current == 0);
  struct pygraph_indirect_graph ig = {&ind, st.device_block, pygraph_staging_slot(&st, 0)};
  void *graph = NULL;
  CHECK(fake_backend.graph_build(&ops, &ig, &graph) == cudaSuccess);
  CHECK(fake_backend.graph_instantiate(graph, NULL) == cudaSuccess);
  int ran;
  fake_log_clear();
  CHECK(fake_backend.graph_launch(graph, &ran) == cudaSuccess);
  CHECK(pygraph_staging_launched(&st, &fake_backend, graph) == cudaSuccess);
  for (unsigned k = 1; k < PYGRAPH_STAGING_SLOTS; k++) {
    CHECK(pygraph_staging_advance(&st, &fake_backend) == cudaSuccess);
    CHECK(fake_backend.graph_set_staging(graph, pygraph_staging_slot(&st, st.current)) ==
          cudaSuccess);
    CHECK(fake_backend.graph_launch(graph, &ran) == cudaSuccess);
    CHECK(pygraph_staging_launched(&st, &fake_backend, graph) == cudaSuccess);
  }
  CHECK(count_of(fake_log(), "sync") == 0);       /* all 8 slots used once, none waited */
  for (unsigned i = 0; i < PYGRAPH_STAGING_SLOTS; i++)
    CHECK(st.in_flight[i]);
  fake_log_clear();
  CHECK(pygraph_staging_advance(&st, &fake_backend) == cudaSuccess);   /* wraps to 0 */
  char expect[32];
  snprintf(expect, sizeof expect, "sync%u", (unsigned)((unsigned long)st.events[0] - 0x400));
  CHECK_STR(fake_log(), expect);
  CHECK(st.current == 0 && !st.in_flight[0] && st.in_flight[1]);
  CHECK(fake_backend.graph_set_staging(graph, pygraph_staging_slot(&st, 0)) == cudaSuccess);
  CHECK(fake_reuse_violations == 0);
  CHECK(fake_backend.graph_launch(graph, &ran) == cudaSuccess);
  CHECK(pygraph_staging_launched(&st, &fake_backend, graph) == cudaSuccess);

  /* A ring that forgot to wait (slot 1 still has a pending reader). */
  st.in_flight[1] = 0;
  CHECK(pygraph_staging_advance(&st, &fake_backend) == cudaSuccess);
  CHECK(fake_backend.graph_set_staging(graph, pygraph_staging_slot(&st, 1)) == cudaSuccess);
  CHECK(fake_reuse_violations == 1);

  fake_log_clear();
  pygraph_staging_free(&st, &fake_backend, graph);
  CHECK(count_of(fake_log(), "sync") == (int)PYGRAPH_STAGING_SLOTS - 1);  /* all but slot 1 */
  CHECK(fake_live_allocs == allocs && fake_live_events == events);
  CHECK(st.device_block == NULL && st.host == NULL);
  fake_backend.graph_destroy(graph);
  pygraph_indirect_free(&ind);
  pygraph_op_list_free(&ops);
  free(layout);
}

static void test_recapture_replaces_ring(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_variants(1);                             /* the new graph replaces the old */
  pygraph_region *r = harness_region("recapture", 1);
  fake_reset();
  fake.exec_update_ok = 1;
  int allocs = fake_live_allocs, events = fake_live_events;
  wide_iteration(r, 2, 0);
  wide_iteration(r, 2, 1);                         /* capture, ring A */
  wide_iteration(r, 3, 2);                         /* mismatch: warm-up */
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(fake_live_allocs == allocs + 2);           /* ring A kept with the old graph */
  fake_log_clear();
  wide_iteration(r, 3, 3);                         /* capture, ring B; A freed */
  unsigned a0 = ev(seg, 0);
  CHECK(count_of(fake_log(), "sync") == 1);        /* A's last reader waited for */
  CHECK(strstr(fake_log(), "; ind 0@0 1@16 2@32 48B) xupd destroy sync") != NULL);
  CHECK(fake_live_allocs == allocs + 2);
  CHECK(fake_live_events == events + (int)PYGRAPH_STAGING_SLOTS);
  CHECK(seg->stats.captures == 2 && seg->stats.indirect_nodes == 3);
  CHECK(fake_block_arg0(2) == 5);
  (void)a0;
}

/* ---- faults: eager for good, reason kept, ops exactly once, no leaks -- */

struct baseline {
  int allocs, events, graphs;
};

static struct baseline snapshot(void)
{
  return (struct baseline){fake_live_allocs, fake_live_events, fake_live_graphs};
}

static int back_to(struct baseline b)
{
  return fake_live_allocs == b.allocs && fake_live_events == b.events &&
         fake_live_graphs == b.graphs;
}

static void two(pygraph_region *r, int a)
{
  begin(r, 0);
  kernel_twin(1, a, 1);
  kernel_twin(2, a, 2);
  end(r);
}

static pygraph_region *before_capture(const char *name, struct baseline *b)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region(name, 1);
  fake_reset();
  *b = snapshot();
  two(r, 0);
  fake_log_clear();
  return r;
}

static void expect_eager(pygraph_region *r, const char *reason, struct baseline b)
{
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK_STR(seg->fallback, reason);
  CHECK_STR(pygraph_segment_mode_name(seg), "eager");
  CHECK(back_to(b));
  CHECK(seg->active == NULL);                      /* no graph, no ring */
  fake_log_clear();
  two(r, 9);
  CHECK_STR(fake_log(), "p:k1(9) p:k2(9)");
}

static void test_capture_alloc_faults(void)
{
  struct baseline b;
  pygraph_region *r = before_capture("dalloc_fails", &b);
  fake.fail_device_alloc = 1;
  two(r, 1);
  CHECK_STR(fake_log(), "dalloc! clear k1(1) k2(1)");
  expect_eager(r, "staging device alloc failed: cudaErrorMemoryAllocation", b);

  r = before_capture("halloc_fails", &b);
  fake.fail_host_alloc = 1;
  two(r, 1);
  CHECK_STR(fake_log(), "halloc! clear k1(1) k2(1)");
  expect_eager(r, "staging host alloc failed: cudaErrorMemoryAllocation", b);

  r = before_capture("ecreate_fails", &b);
  fake.fail_event_create_at = 5;
  two(r, 1);
  CHECK_STR(fake_log(), "ecreate! clear k1(1) k2(1)");
  expect_eager(r, "staging event create failed: cudaErrorMemoryAllocation", b);
}

static void test_capture_graph_faults(void)
{
  struct baseline b;
  pygraph_region *r = before_capture("ind_build_fails", &b);
  fake.fail_build = 1;
  two(r, 1);
  CHECK_STR(fake_log(), "build! clear k1(1) k2(1)");
  expect_eager(r, "graph build failed: cudaErrorInvalidValue", b);

  r = before_capture("ind_inst_fails", &b);
  fake.fail_instantiate = 1;
  two(r, 1);
  CHECK_STR(fake_log(), "build(0 1<0; ind 0@0 1@16 32B) inst! clear destroy k1(1) k2(1)");
  expect_eager(r, "graph instantiate failed: cudaErrorInvalidValue", b);

  r = before_capture("ind_launch_fails", &b);
  fake.fail_launch = 1;
  two(r, 1);
  CHECK_STR(fake_log(), "build(0 1<0; ind 0@0 1@16 32B) inst launch! clear destroy k1(1) k2(1)");
  expect_eager(r, "graph launch failed: cudaErrorLaunchFailure", b);

  /* The graph ran, its event could not be recorded: wait for the graph
   * before freeing the ring, and do not run the ops again. */
  r = before_capture("ind_record_fails", &b);
  fake.fail_record_at = 1;
  two(r, 1);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(count_of(fake_log(), "k1(") == 0);
  CHECK(strstr(fake_log(), "inst launch rec") != NULL);
  CHECK(ends_with(fake_log(), "! clear gsync destroy"));
  CHECK(seg->stats.launches_in_graphs == 2);
  expect_eager(r, "staging event record failed: cudaErrorInvalidValue", b);
}

/* Replays after capture until the ring is full, then a fault. */
static pygraph_region *replaying(const char *name, struct baseline *b, int replays)
{
  pygraph_region *r = before_capture(name, b);
  two(r, 1);                                       /* capture */
  for (int i = 0; i < replays; i++)
    two(r, 2 + i);
  fake_log_clear();
  return r;
}

static void test_replay_faults(void)
{
  struct baseline b;
  pygraph_region *r = replaying("stage_fails", &b, 0);
  fake.fail_stage_at = 1;
  two(r, 2);
  struct pygraph_segment *seg = NULL;
  CHECK(strncmp(fake_log(), "stage! clear sync", 17) == 0);
  CHECK(ends_with(fake_log(), "destroy k1(2) k2(2)"));
  expect_eager(r, "staging update failed: cudaErrorInvalidValue", b);

  r = replaying("sync_fails", &b, (int)PYGRAPH_STAGING_SLOTS - 1);
  seg = harness_segment(r, 0);
  CHECK(seg->active->staging.current == PYGRAPH_STAGING_SLOTS - 1);
  fake.fail_sync = 1;                              /* the wrap-around wait fails */
  two(r, 50);
  CHECK(strncmp(fake_log(), "sync", 4) == 0 && strstr(fake_log(), "! clear ") != NULL);
  CHECK(count_of(fake_log(), "stage") == 0 && count_of(fake_log(), "launch") == 0);
  CHECK(count_of(fake_log(), "k1(50)") == 1 && count_of(fake_log(), "k2(50)") == 1);
  CHECK(ends_with(fake_log(), "destroy k1(50) k2(50)"));
  expect_eager(r, "staging wait failed: cudaErrorLaunchFailure", b);

  r = replaying("replay_launch_fails", &b, 2);
  fake.fail_launch = 1;
  two(r, 60);
  CHECK(strncmp(fake_log(), "stage launch! clear", 19) == 0);
  CHECK(ends_with(fake_log(), "destroy k1(60) k2(60)"));
  CHECK(count_of(fake_log(), "k1(") == 1);
  expect_eager(r, "graph launch failed: cudaErrorLaunchFailure", b);

  r = replaying("replay_record_fails", &b, 2);
  fake.fail_record_at = fake_record_calls + 1;
  two(r, 70);
  CHECK(strncmp(fake_log(), "stage launch rec", 16) == 0);
  CHECK(strstr(fake_log(), "! clear gsync") != NULL);
  CHECK(count_of(fake_log(), "k1(") == 0);       /* the graph ran them */
  CHECK(ends_with(fake_log(), "destroy"));
  expect_eager(r, "staging event record failed: cudaErrorInvalidValue", b);

  /* A direct node's update failing frees the ring too. */
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  r = harness_region("direct_update_fails", 1);
  fake_reset();
  b = snapshot();
  for (int a = 0; a < 3; a++) {                    /* eager, capture, replay */
    begin(r, 0);
    kernel_twin(1, a, 1);
    kernel(3, a);                                  /* no twin: direct, changing */
    end(r);
  }
  fake_log_clear();
  fake.fail_update_at = 2;
  begin(r, 0);
  kernel_twin(1, 9, 1);
  kernel(3, 9);
  end(r);
  CHECK(strncmp(fake_log(), "upd1! clear sync", 16) == 0);
  CHECK(ends_with(fake_log(), "destroy k1(9) k3(9)"));
  CHECK(back_to(b));
}

static void test_settings_and_report(void)
{
  CHECK(pygraph_settings()->indirect == 1 || pygraph_settings()->indirect == 0);
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  CHECK(pygraph_settings()->indirect == 1);
  pygraph_region reg = {.abi_version = PYGRAPH_ABI_VERSION, .n_segments = 1, .function = "f",
                        .file = "a.cu", .line_begin = 1, .line_end = 2};
  struct pygraph_segment seg;
  pygraph_segment_init(&seg, &fake_backend, pygraph_settings(), &reg, 0);
  seg.phase = PYGRAPH_PHASE_REPLAY;
  seg.stats.indirect_nodes = 12;
  seg.stats.indirect_bytes = 448;
  char buf[512];
  pygraph_report_format_segment(buf, sizeof buf, &seg);
  CHECK_STR(buf, "pygraph: region f a.cu:1-2 seg 0: mode=graph iters=0 replays=0 captures=0 "
                 "updates=0 flushes=0 mismatches=0 indirect=12 block=448B fallback=\"-\" "
                 "decision=eager eager_us=0.0 graph_us=0.0 variants=0 why=\"-\"\n");
}

int main(void)
{
  harness_indirect_default = 1;
  test_select_reasons_and_packing();
  test_slice_alignment();
  test_node_selection_in_capture();
  test_indirect_off();
  test_change_seen_during_warmup();
  test_replay_is_o1();
  test_staging_ring_wraps_and_waits();
  test_staging_module();
  test_recapture_replaces_ring();
  test_capture_alloc_faults();
  test_capture_graph_faults();
  test_replay_faults();
  test_settings_and_report();
  return check_finish();
}
