/* test_indirect.c - parameter indirection: which kernel nodes go indirect,
 * the graph shape, O(1) replays, the argument loaders, and faults. */
#include <stdlib.h>

#include "check.h"
#include "harness.h"
#include "graphs/indirect.h"
#include "abi/report.h"
#include "graphs/arg_loader.h"
#include "recording/param_cache.h"
#include "pygraph_layout_tag.h"

#define TWIN_BAD 15                      /* only ever used as the rejected twin */

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

/* Is the plan's edge from op `from` into op `to` programmatic? */
static int programmatic(const struct pygraph_graph_plan *plan, size_t from, size_t to)
{
  const struct pygraph_plan_node *pn = &plan->nodes[to];
  for (unsigned d = 0; d < pn->n_deps; d++)
    if (pn->deps[d] == from)
      return pn->programmatic[d];
  return 0;
}

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
  struct pygraph_graph_plan plan;
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
  pygraph_site tagged = {.kernel = "k", .indirect_twin = FAKE_TWIN(FAKE_TAGGED_TWIN)};
  pygraph_site mistagged = {.kernel = "k", .indirect_twin = FAKE_TWIN(FAKE_MISTAGGED_TWIN)};
  add_kernel(&ops, l20, &tagged, 32, 0, 20);      /* 10: tag matches: indirect @64 */
  add_kernel(&ops, l20, &mistagged, 32, 0, 21);   /* 11: another layout: direct */
  pygraph_op_list_materialize(&ops);
  CHECK(pygraph_graph_plan_for_capture(&ops, &fake_backend, &plan) == 0);
  unsigned char changed[] = {1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

  struct pygraph_indirect ind = {0};
  struct noted n = {{0}};
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, &plan, changed, sizeof changed, 0, note,
                                &n) == 0);
  CHECK_STR(n.text, "0:indirect; 1:args unchanged; 2:no indirect twin; 3:no indirect twin; "
                    "4:twin unusable=cudaErrorInvalidDeviceFunction; "
                    "6:empty parameter layout; "
                    "7:block larger than the twin's max threads per block; "
                    "8:dynamic shared memory above the twin's limit; 9:indirect; 10:indirect; "
                    "11:twin's parameter layout differs from the driver's");
  CHECK(ind.n_nodes == 3 && ind.nodes[2].op == 10 && ind.nodes[2].offset == 64);
  CHECK(ind.nodes[0].op == 0 && ind.nodes[0].offset == 0 && ind.nodes[0].size == 20);
  CHECK(ind.nodes[1].op == 9 && ind.nodes[1].offset == 32 && ind.nodes[1].size == 20);
  CHECK(ind.nodes[1].twin == FAKE_TWIN(1));
  CHECK(ind.block_size == 84);
  CHECK(ind.n_ops == 12 && ind.node_of_op[0] == 0 && ind.node_of_op[9] == 1);
  CHECK(ind.node_of_op[1] == -1 && ind.node_of_op[5] == -1 && ind.node_of_op[8] == -1);

  unsigned char block[84];
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
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, &plan, changed, 1, 0, note, &n) == 0);
  CHECK(ind.n_nodes == 1 && ind.block_size == 20);
  CHECK(!ind.nodes[0].waits);

  /* One backend query per twin for the whole process. */
  int queries = fake_twin_queries;
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, &plan, changed, sizeof changed, 0, NULL,
                                NULL) == 0);
  CHECK(fake_twin_queries == queries);

  /* PYGRAPH_INDIRECT=auto: only twins that start early (sm_90+) qualify. */
  memset(n.text, 0, sizeof n.text);
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, &plan, changed, 1, 1, note, &n) == 0);
  CHECK(ind.n_nodes == 0 && ind.block_size == 0);
  CHECK(strncmp(n.text, "0:twin cannot start early (built for a GPU older than sm_90); 1:",
                64) == 0);

  pygraph_indirect_free(&ind);
  pygraph_graph_plan_free(&plan);
  pygraph_op_list_free(&ops);
  free(l20);
  free(none);
}

/* The tag the runtime computes from the driver's layout must be the one the
 * plugin gives the twin: test/lit/twins-device.cu checks that
 * ptrs(float*, const float*, int) gets byval([341 x i8]) and a kernel
 * without parameters byval([345 x i8]). */
static void test_layout_tag(void)
{
  struct pygraph_param_layout *l = pygraph_param_layout_alloc(3);
  size_t offsets[] = {0, 8, 16}, sizes[] = {8, 8, 4};
  for (int i = 0; i < 3; i++) {
    l->params[i].offset = offsets[i];
    l->params[i].size = sizes[i];
  }
  l->total_size = 20;
  CHECK(pygraph_param_layout_tag(l) == 341);
  l->params[2].size = 8;                 /* any difference changes the tag */
  CHECK(pygraph_param_layout_tag(l) != 341);
  l->n_params = 0;
  CHECK(pygraph_param_layout_tag(l) == 345);
  free(l);
  /* Past 64 parameters the runtime hashes from the heap: same function. */
  struct pygraph_param_layout *big = pygraph_param_layout_alloc(70);
  unsigned long long pairs[140];
  for (int i = 0; i < 70; i++) {
    big->params[i].offset = pairs[2 * i] = 4 * (unsigned long long)i;
    big->params[i].size = pairs[2 * i + 1] = 4;
  }
  CHECK(pygraph_param_layout_tag(big) == pygraph_layout_tag_bytes(pairs, 70));
  CHECK(pygraph_param_layout_tag(big) >= 1 && pygraph_param_layout_tag(big) <= PYGRAPH_LAYOUT_TAG_MAX);
  free(big);
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
  struct pygraph_graph_plan plan;
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
  CHECK(pygraph_graph_plan_for_capture(&ops, &fake_backend, &plan) == 0);
  struct pygraph_indirect ind = {0};
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, &plan, changed, 3, 0, NULL, NULL) == 0);
  CHECK(ind.n_nodes == 3);
  CHECK(ind.nodes[0].offset == 0 && ind.nodes[1].offset == 64 && ind.nodes[2].offset == 128);
  CHECK(ind.block_size == 148);
  pygraph_indirect_free(&ind);
  pygraph_graph_plan_free(&plan);
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
  int allocs = fake_live_allocs;
  mixed_iteration(r, 0);                           /* eager */
  CHECK_STR(fake_log(), "k1(0) k2(7) k3(0) k4(0)");
  fake_log_clear();
  mixed_iteration(r, 1);                           /* capture */
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK_STR(fake_log(), "build(0 1<0 2<1 3<2; ind 0@0 16B/1L) inst launch");
  CHECK(seg->stats.indirect_nodes == 1 && seg->stats.indirect_bytes == 16);
  CHECK(fake_block_arg0(0) == 1);                  /* first launch: this iteration's args */
  CHECK(fake_live_allocs == allocs + 1);           /* the device block */

  fake_log_clear();
  mixed_iteration(r, 2);                           /* direct ones: per-node updates */
  CHECK_STR(fake_log(), "upd2 upd3 args launch");
  CHECK(fake_block_arg0(0) == 2);
  CHECK(seg->stats.updates == 2 && seg->stats.refreshes == 1);

  fake_log_clear();
  mixed_iteration(r, 2);                           /* nothing moved: no refresh */
  CHECK_STR(fake_log(), "launch");
  CHECK(fake_block_arg0(0) == 2);

  char line[512];
  pygraph_report_format_segment(line, sizeof line, seg);
  CHECK(strstr(line, " mismatches=0 indirect=1 block=16B fallback=\"-\"") != NULL);
}

/* PYGRAPH_INDIRECT=auto (the default): a twin built for sm_90+ goes
 * indirect (and waits for its predecessors), an older one stays direct. */
static void test_auto_takes_waiting_twins(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_indirect(PYGRAPH_INDIRECT_AUTO);
  pygraph_region *r = harness_region("auto_twins", 1);
  fake_reset();
  for (int a = 0; a < 2; a++) {                    /* eager, capture */
    begin(r, 0);
    kernel_twin(1, a, FAKE_WAITING_TWINS);
    kernel_twin(2, a, 1);
    kernel_twin(3, a, FAKE_WAITING_TWINS + 1);
    end(r);
  }
  /* op 0 is a root: its twin could not start early (direct, see
   * test_auto_node_rule); op 2 follows a one-wave kernel. */
  CHECK(strstr(fake_log(), "build(0 1<0 2<1; ind 2@0w 16B/1L) inst launch") != NULL);
  fake_log_clear();
  begin(r, 0);
  kernel_twin(1, 5, FAKE_WAITING_TWINS);
  kernel_twin(2, 5, 1);
  kernel_twin(3, 5, FAKE_WAITING_TWINS + 1);
  end(r);
  CHECK_STR(fake_log(), "upd0 upd1 args launch");
  CHECK(fake_block_arg0(2) == 5 && fake_block_arg0(0) == -999 && fake_block_arg0(1) == -999);
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
  CHECK(harness_segment(r, 0)->cache.active->indirect.n_nodes == 1);
  CHECK(harness_segment(r, 0)->cache.active->indirect.node_of_op[0] == 0);
  /* A mismatch starts the record over: nothing has changed yet then.  The
   * one slot is taken until the old graph goes stale. */
  fake_log_clear();
  for (unsigned i = 0; i < PYGRAPH_BEHAVIOUR_BLOCK + 3; i++) {
    begin(r, 0);
    kernel_twin(1, 1, 1);
    end(r);                                        /* ... then capture: args never moved */
  }
  CHECK(harness_segment(r, 0)->stats.captures == 2);
  /* Direct graph now; the old block goes after its last reader finished. */
  CHECK(strstr(fake_log(), "build(0) gsync inst destroy") != NULL);
  CHECK(ends_with(fake_log(), " launch"));
  CHECK(harness_segment(r, 0)->cache.active->indirect.n_nodes == 0);
}

static void wide_iteration(pygraph_region *r, int n, int a)
{
  begin(r, 0);
  for (int k = 0; k < n; k++)
    kernel_twin(1 + k % 60, a + k, 1 + k % 14);
  end(r);
}

/* Whatever the node count: one argument update and one launch per replay,
 * no per-node updates; past 32752 bytes the block takes a second loader. */
static void test_replay_is_o1(void)
{
  static const int widths[] = {1, 7, 200, 2100};
  for (unsigned w = 0; w < sizeof widths / sizeof widths[0]; w++) {
    int n = widths[w];
    harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
    pygraph_region *r = harness_region("wide", 1);
    fake_reset();
    wide_iteration(r, n, 0);
    wide_iteration(r, n, 100);                     /* capture */
    struct pygraph_segment *seg = harness_segment(r, 0);
    CHECK(seg->cache.active->indirect.n_nodes == (size_t)n);
    CHECK(seg->stats.indirect_bytes == 16u * (unsigned)n);
    CHECK(strstr(fake_log(), n > 2047 ? "B/2L)" : "B/1L)") != NULL);
    for (int it = 1; it <= 5; it++) {
      fake_reset();
      fake_log_clear();
      wide_iteration(r, n, 100 * (it + 1));
      CHECK(fake_args_calls == 1 && fake_launch_calls == 1);
      CHECK(count_of(fake_log(), "upd") == 0);
      CHECK(fake_block_arg0(0) == 100 * (it + 1));
      CHECK(fake_block_arg0((size_t)n - 1) == 100 * (it + 1) + n - 1);
    }
    CHECK(seg->stats.updates == 0 && seg->stats.replays == 5 && seg->stats.refreshes == 5);
  }
}

/* Many replays queued back to back: each launch carries its own arguments
 * (the update copies them), so rewriting the host image at once is safe and
 * nothing ever waits. */
static void test_back_to_back_replays(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("queued", 1);
  fake_reset();
  wide_iteration(r, 3, 0);
  wide_iteration(r, 3, 1);                         /* capture */
  for (int k = 2; k < 100; k++) {
    fake_log_clear();
    wide_iteration(r, 3, k);
    CHECK_STR(fake_log(), "args launch");
    CHECK(fake_block_arg0(0) == k && fake_block_arg0(2) == k + 2);
  }
  /* Unchanged arguments: no update at all. */
  fake_log_clear();
  wide_iteration(r, 3, 99);
  CHECK_STR(fake_log(), "launch");
}

/* The loader classes and chunks, on their own. */
static void test_loader_chunks(void)
{
  CHECK(pygraph_loader_class_of(1) == 0 && pygraph_loader_class_of(256) == 0);
  CHECK(pygraph_loader_class_of(257) == 1 && pygraph_loader_class_of(4096) == 2);
  CHECK(pygraph_loader_class_of(4097) == 3 && pygraph_loader_class_of(32752) == 4);
  CHECK(pygraph_loader_class_bytes(4) == PYGRAPH_LOADER_MAX_BYTES);
  CHECK_STR(pygraph_loader_class_name(2), "pygraph_load_4096");
  for (unsigned c = 0; c < PYGRAPH_LOADER_CLASSES; c++) {
    char entry[64];
    snprintf(entry, sizeof entry, ".entry %s(", pygraph_loader_class_name(c));
    CHECK(strstr(pygraph_loader_ptx, entry) != NULL);
  }
  struct pygraph_loader_chunk ch[3];
  CHECK(pygraph_loader_chunks(20, ch, 3) == 1);
  CHECK(ch[0].offset == 0 && ch[0].bytes == 32 && ch[0].cls == 0);
  CHECK(pygraph_loader_chunks(32752, ch, 3) == 1 && ch[0].cls == 4);
  CHECK(pygraph_loader_chunks(32753, ch, 3) == 2);
  CHECK(ch[1].offset == 32752 && ch[1].bytes == 16 && ch[1].cls == 0);
  CHECK(pygraph_loader_chunks(3 * 32752 + 1, ch, 2) == 4);   /* counts beyond cap */

  fake_reset();
  int allocs = fake_live_allocs;
  struct pygraph_arg_block ab;
  const char *step = NULL;
  CHECK(pygraph_arg_block_create(&ab, &fake_backend, 40000, &step) == cudaSuccess);
  CHECK(ab.n_chunks == 2 && ab.host_size == 32752 + 16384 && ab.size == 40000);
  CHECK(ab.host[ab.host_size - 1] == 0 && fake_live_allocs == allocs + 1);
  fake_log_clear();
  pygraph_arg_block_free(&ab, &fake_backend, NULL);
  CHECK_STR(fake_log(), "");                       /* nothing queued: no wait */
  CHECK(fake_live_allocs == allocs && ab.host == NULL && ab.device_block == NULL);
  CHECK(pygraph_arg_block_create(&ab, &fake_backend, 0, &step) == cudaErrorInvalidValue);
  fake.fail_device_alloc = 1;
  CHECK(pygraph_arg_block_create(&ab, &fake_backend, 64, &step) == cudaErrorMemoryAllocation);
  CHECK_STR(step, "argument block device alloc");
  CHECK(fake_live_allocs == allocs && ab.host == NULL);
}

/* A block that would pass ~1 MiB keeps the rest of the nodes direct. */
static void test_block_full(void)
{
  fake_reset();
  size_t big = PYGRAPH_ARG_BLOCK_MAX / 2 + 64;
  struct pygraph_param_layout *l = pygraph_param_layout_alloc(1);
  l->params[0].size = big;
  l->total_size = big;
  unsigned char *bytes = calloc(1, big);
  void *args[] = {bytes};
  pygraph_site twin = {.kernel = "k", .indirect_twin = FAKE_TWIN(1)};
  struct pygraph_op_list ops = {0};
  struct pygraph_graph_plan plan;
  for (int i = 0; i < 3; i++) {
    struct pygraph_op op = {.kind = PYGRAPH_OP_KERNEL, .stream = S1, .func = FAKE_FUNC(1),
                            .site = &twin, .layout = l, .grid = {1, 1, 1},
                            .block = {32, 1, 1}, .wait_link = -1};
    CHECK(pygraph_op_list_copy_args(&ops, &op, args) == 0);
    CHECK(pygraph_op_list_append(&ops, &op) != NULL);
  }
  unsigned char changed[] = {1, 1, 1};
  CHECK(pygraph_graph_plan_for_capture(&ops, &fake_backend, &plan) == 0);
  struct pygraph_indirect ind = {0};
  struct noted n = {{0}};
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, &plan, changed, 3, 0, note, &n) == 0);
  CHECK_STR(n.text, "0:indirect; 1:argument block full; 2:argument block full");
  CHECK(ind.n_nodes == 1 && ind.block_size == big);
  pygraph_indirect_free(&ind);
  pygraph_graph_plan_free(&plan);
  pygraph_op_list_free(&ops);
  free(bytes);
  free(l);
}

static void test_recapture_replaces_block(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_variants(1);                             /* the new graph replaces the old */
  pygraph_region *r = harness_region("recapture", 1);
  fake_reset();
  fake.exec_update_ok = 1;
  int allocs = fake_live_allocs;
  wide_iteration(r, 2, 0);
  wide_iteration(r, 2, 1);                         /* capture, block A */
  /* The other signature runs eagerly while the old graph is in use, and
   * replaces it once stale. */
  int a = 2;
  struct pygraph_segment *seg = harness_segment(r, 0);
  for (unsigned i = 0; i < 2 * PYGRAPH_BEHAVIOUR_BLOCK && !seg->cand.capture_next; i++)
    wide_iteration(r, 3, a++);
  CHECK(seg->cand.capture_next && seg->stats.captures == 1);
  CHECK(a >= 2 + (int)PYGRAPH_BEHAVIOUR_BLOCK);
  CHECK(fake_live_allocs == allocs + 1);           /* block A kept with the old graph */
  fake_log_clear();
  wide_iteration(r, 3, a);                         /* capture, block B; A freed */
  /* A's last reader is waited for before its exec is taken over. */
  CHECK(strstr(fake_log(), "; ind 0@0 1@16 2@32 48B/1L) gsync xupd destroy launch") != NULL);
  CHECK(fake_live_allocs == allocs + 1);
  CHECK(seg->stats.captures == 2 && seg->stats.indirect_nodes == 3);
  CHECK(fake_block_arg0(2) == a + 2);
}

/* ---- faults: eager for good, reason kept, ops exactly once, no leaks -- */

struct baseline {
  int allocs, graphs;
};

static struct baseline snapshot(void)
{
  return (struct baseline){fake_live_allocs, fake_live_graphs};
}

static int back_to(struct baseline b)
{
  return fake_live_allocs == b.allocs && fake_live_graphs == b.graphs;
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
  CHECK_STR(harness_mode_name(seg), "eager");
  CHECK(back_to(b));
  CHECK(seg->cache.active == NULL);                      /* no graph, no block */
  fake_log_clear();
  two(r, 9);
  CHECK_STR(fake_log(), "p:k1(9) p:k2(9)");
}

static void test_capture_alloc_fault(void)
{
  struct baseline b;
  pygraph_region *r = before_capture("dalloc_fails", &b);
  fake.fail_device_alloc = 1;
  two(r, 1);
  CHECK_STR(fake_log(), "dalloc! clear k1(1) k2(1)");
  expect_eager(r, "argument block device alloc failed: cudaErrorMemoryAllocation", b);
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
  CHECK_STR(fake_log(), "build(0 1<0; ind 0@0 1@16 32B/1L) inst! clear destroy k1(1) k2(1)");
  expect_eager(r, "graph instantiate failed: cudaErrorInvalidValue", b);

  r = before_capture("ind_launch_fails", &b);
  fake.fail_launch = 1;
  two(r, 1);
  CHECK_STR(fake_log(),
            "build(0 1<0; ind 0@0 1@16 32B/1L) inst launch! clear gsync destroy k1(1) k2(1)");
  expect_eager(r, "graph launch failed: cudaErrorLaunchFailure", b);

  /* The launch failed after the graph was enqueued: its work must not run
   * again, and its block waits for it. */
  r = before_capture("ind_launch_ran", &b);
  fake.fail_launch = 1;
  fake.launch_ran_before_failing = 1;
  two(r, 1);
  CHECK(count_of(fake_log(), "k1(") == 0);
  CHECK(ends_with(fake_log(), "launch! clear gsync destroy"));
  expect_eager(r, "graph launch failed: cudaErrorLaunchFailure", b);
}

/* Replays after capture, then a fault. */
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
  pygraph_region *r = replaying("args_fail", &b, 0);
  fake.fail_args_at = 1;
  two(r, 2);
  CHECK_STR(fake_log(), "args! clear gsync destroy k1(2) k2(2)");
  expect_eager(r, "argument update failed: cudaErrorInvalidValue", b);

  r = replaying("args_fail_later", &b, 20);
  fake.fail_args_at = fake_args_calls + 1;
  two(r, 50);
  CHECK_STR(fake_log(), "args! clear gsync destroy k1(50) k2(50)");
  expect_eager(r, "argument update failed: cudaErrorInvalidValue", b);

  r = replaying("replay_launch_fails", &b, 2);
  fake.fail_launch = 1;
  two(r, 60);
  CHECK_STR(fake_log(), "args launch! clear gsync destroy k1(60) k2(60)");
  expect_eager(r, "graph launch failed: cudaErrorLaunchFailure", b);

  /* A direct node's update failing frees the block too. */
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
  CHECK_STR(fake_log(), "upd1! clear gsync destroy k1(9) k3(9)");
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
                 "decision=eager eager_us=0.0 graph_us=0.0 variants=0 why=\"-\" "
                 "eager_iters=0 timed=0\n");
}

/* ---- programmatic edges only out of one-wave grids ---------------------- */

static void add_kernel_grid(struct pygraph_op_list *l, const struct pygraph_param_layout *layout,
                            const pygraph_site *site, unsigned grid_x, unsigned block_x, int arg0)
{
  long long arg1 = 5;
  int a0 = arg0;
  void *args[] = {&a0, &arg1};
  struct pygraph_op op = {.kind = PYGRAPH_OP_KERNEL, .stream = S1, .func = FAKE_FUNC(1),
                          .site = site, .layout = layout, .grid = {grid_x, 1, 1},
                          .block = {block_x, 1, 1}, .wait_link = -1};
  CHECK(pygraph_op_list_copy_args(l, &op, args) == 0);
  CHECK(pygraph_op_list_append(l, &op) != NULL);
}

struct wave_noted {
  char text[512];
};

static void wave_note(void *ctx, size_t index, const struct pygraph_op *op,
                      unsigned long long blocks, long long resident)
{
  struct wave_noted *n = ctx;
  (void)op;
  size_t len = strlen(n->text);
  snprintf(n->text + len, sizeof n->text - len, "%s%zu:%llu/%lld", len ? " " : "", index,
           blocks, resident);
}

/* Four waiting twins in a chain, grids 1000, 1056, 1057 and 50000 blocks,
 * 1056 resident (8 per SM x 132): edges leave only the first two. */
static void test_one_wave_rule(void)
{
  fake_reset();
  struct pygraph_param_layout *layout = fake_backend.param_layout(FAKE_FUNC(1), 0);
  pygraph_site twin = {.kernel = "k", .indirect_twin = FAKE_TWIN(FAKE_WAITING_TWINS + 2)};
  struct pygraph_op_list ops = {0};
  struct pygraph_graph_plan plan;
  const unsigned grids[] = {1000, 1056, 1057, 50000, 1};
  for (int i = 0; i < 5; i++)
    add_kernel_grid(&ops, layout, &twin, grids[i], 96, i);   /* block 96: this test's cache key */
  pygraph_op_list_materialize(&ops);
  CHECK(pygraph_graph_plan_for_capture(&ops, &fake_backend, &plan) == 0);
  unsigned char changed[] = {1, 1, 1, 1, 1};
  struct pygraph_indirect ind = {0};
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, &plan, changed, 5, 0, NULL, NULL) == 0);
  CHECK(ind.n_nodes == 5 && ind.nodes[1].waits);
  fake.resident_blocks = 1056;
  int q0 = fake_occupancy_queries;
  struct wave_noted n = {{0}};
  CHECK(pygraph_indirect_mark_waves(&ind, &fake_backend, &ops, &plan, wave_note, &n) == 0);
  CHECK_STR(n.text, "0:1000/1056 1:1056/1056 2:1057/1056 3:50000/1056 4:1/1056");
  CHECK(programmatic(&plan, 0, 1));    /* one-wave predecessor */
  CHECK(programmatic(&plan, 1, 2));    /* exactly one wave */
  CHECK(!programmatic(&plan, 2, 3));   /* big grid: full edge */
  CHECK(!programmatic(&plan, 3, 4));
  /* The successor's size does not matter: 1 -> 2 above leads into 1057 blocks. */
  /* One query per (func, threads, smem) for the process. */
  CHECK(fake_occupancy_queries == q0 + 1);
  fake.resident_blocks = 1;          /* a cached answer is not asked again */
  CHECK(pygraph_indirect_mark_waves(&ind, &fake_backend, &ops, &plan, NULL, NULL) == 0);
  CHECK(fake_occupancy_queries == q0 + 1 && programmatic(&plan, 0, 1));

  /* A query failure is the safe side: full edges, and not cached. */
  pygraph_graph_plan_free(&plan);
  pygraph_op_list_free(&ops);
  memset(&ops, 0, sizeof ops);
  add_kernel_grid(&ops, layout, &twin, 1, 97, 0);
  add_kernel_grid(&ops, layout, &twin, 1, 97, 1);
  pygraph_op_list_materialize(&ops);
  CHECK(pygraph_graph_plan_for_capture(&ops, &fake_backend, &plan) == 0);
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, &plan, changed, 2, 0, NULL, NULL) == 0);
  fake.fail_occupancy = 1;
  memset(n.text, 0, sizeof n.text);
  CHECK(pygraph_indirect_mark_waves(&ind, &fake_backend, &ops, &plan, wave_note, &n) == 0);
  CHECK_STR(n.text, "0:1/-1 1:1/-1");
  CHECK(!programmatic(&plan, 0, 1));
  fake.fail_occupancy = 0;
  fake.resident_blocks = 0;
  CHECK(pygraph_indirect_mark_waves(&ind, &fake_backend, &ops, &plan, NULL, NULL) == 0);
  CHECK(programmatic(&plan, 0, 1));

  /* No waiting twin: nothing can be programmatic, nothing is asked. */
  int queries = fake_occupancy_queries;
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, &plan, changed, 2, 0, NULL, NULL) == 0);
  pygraph_site old = {.kernel = "k", .indirect_twin = FAKE_TWIN(3)};
  for (size_t i = 0; i < ops.n_ops; i++)
    ops.ops[i].site = &old;
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, &plan, changed, 2, 0, NULL, NULL) == 0);
  CHECK(ind.n_nodes == 2 && !ind.nodes[0].waits);
  CHECK(pygraph_indirect_mark_waves(&ind, &fake_backend, &ops, &plan, NULL, NULL) == 0);
  CHECK(fake_occupancy_queries == queries && !programmatic(&plan, 0, 1));

  pygraph_indirect_free(&ind);
  pygraph_graph_plan_free(&plan);
  pygraph_op_list_free(&ops);
  free(layout);
}

/* PYGRAPH_INDIRECT=auto: a twin only where a programmatic edge reaches it. */
static void test_auto_node_rule(void)
{
  fake_reset();
  struct pygraph_param_layout *layout = fake_backend.param_layout(FAKE_FUNC(1), 0);
  pygraph_site twin = {.kernel = "k", .indirect_twin = FAKE_TWIN(FAKE_WAITING_TWINS + 4)};
  struct pygraph_op_list ops = {0};
  struct pygraph_graph_plan plan;
  const unsigned grids[] = {1, 1, 5000, 1};
  for (int i = 0; i < 4; i++)
    add_kernel_grid(&ops, layout, &twin, grids[i], 100, i);
  pygraph_op_list_materialize(&ops);
  CHECK(pygraph_graph_plan_for_capture(&ops, &fake_backend, &plan) == 0);
  unsigned char changed[] = {1, 1, 1, 1};
  fake.resident_blocks = 1056;
  struct pygraph_indirect ind = {0};
  struct noted n = {{0}};
  CHECK(pygraph_indirect_select(&ind, &fake_backend, &ops, &plan, changed, 4, 1, note, &n) == 0);
  CHECK_STR(n.text, "0:twin cannot start early: no kernel before it in the graph; 1:indirect; "
                    "2:indirect; 3:twin cannot start early: the kernel before it needs more "
                    "than one wave (or its occupancy is unknown)");
  CHECK(ind.n_nodes == 2 && ind.nodes[0].op == 1 && ind.nodes[1].op == 2);
  CHECK(pygraph_indirect_mark_waves(&ind, &fake_backend, &ops, &plan, NULL, NULL) == 0);
  CHECK(programmatic(&plan, 0, 1));
  CHECK(programmatic(&plan, 1, 2));    /* into a big grid: fine */
  CHECK(!programmatic(&plan, 2, 3));   /* 3 is direct anyway */
  pygraph_indirect_free(&ind);
  pygraph_graph_plan_free(&plan);
  pygraph_op_list_free(&ops);
  free(layout);
}

/* Through a capture: the graph's edges follow the rule (the fake build
 * reports the programmatic edges of the plan it is given, which the real
 * one realises). */
static void test_programmatic_edges_in_capture(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_indirect(PYGRAPH_INDIRECT_AUTO);
  pygraph_region *r = harness_region("prog_edges", 1);
  fake_reset();
  dim3 block = {98, 1, 1};                          /* this test's cache key */
  for (int a = 0; a < 2; a++) {                    /* eager, capture: grids of 1 block fit */
    begin(r, 0);
    kernel_twin_cfg(1, a, FAKE_WAITING_TWINS + 3, block, 0);
    kernel_twin_cfg(2, a, FAKE_WAITING_TWINS + 3, block, 0);
    end(r);
  }
  CHECK(strstr(fake_log(), "build(0 1<0; ind 1@0w 16B/1L)") != NULL);
  CHECK_STR(fake_programmatic, " 0>1");

  /* Occupancy unknown: the same graph gets a full edge. */
  pygraph_region *r2 = harness_region("prog_edges_fail", 1);
  fake.fail_occupancy = 1;
  fake_log_clear();
  dim3 block2 = {99, 1, 1};
  for (int a = 0; a < 2; a++) {
    begin(r2, 0);
    kernel_twin_cfg(1, a, FAKE_WAITING_TWINS + 3, block2, 0);
    kernel_twin_cfg(2, a, FAKE_WAITING_TWINS + 3, block2, 0);
    end(r2);
  }
  CHECK(strstr(fake_log(), "build(0 1<0) inst launch") != NULL);   /* both direct */
  CHECK(strstr(fake_log(), "; ind") == NULL);
  fake.fail_occupancy = 0;
}

/* One plan per capture, made before indirection is chosen: a record of
 * an event that cannot time, joined by a wait, has no node, so the kernel
 * after the wait follows the kernel before the record directly; the twin
 * decision and the programmatic edge are made on those edges, and the
 * build is given the same plan.  With an event that times, the record
 * keeps its node and stands between the kernels: no kernel before the
 * twin, which stays direct under auto. */
static void fork_through_event(pygraph_region *r, int untimed, const char *expect_build,
                               const char *expect_programmatic)
{
  fake_reset();
  fake.untimed_event_ids = untimed ? 1u << 6 : 0;
  fake.resident_blocks = 1056;
  for (int a = 0; a < 2; a++) {                    /* eager, capture */
    begin(r, 0);
    kernel_on(1, 0, S2);                           /* 0: one block, one wave */
    event_record(6, S2);                           /* 1 */
    event_wait(S1, 6);                             /* 2 */
    kernel_twin(2, a, FAKE_WAITING_TWINS + 5);     /* 3: args change */
    end(r);
  }
  CHECK(strstr(fake_log(), expect_build) != NULL);
  CHECK_STR(fake_programmatic, expect_programmatic);
  CHECK(fake_event_times_queries == 1);            /* the joined record, once per capture */
}

static void test_twin_decided_on_the_built_plan(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_indirect(PYGRAPH_INDIRECT_AUTO);
  fork_through_event(harness_region("plan_untimed", 1), 1,
                     "build(0 1~ 2~ 3<0; after 1; ind 3@0w 16B/1L) inst launch", " 0>3");
  fork_through_event(harness_region("plan_timed", 1), 0, "build(0 1<0 2~ 3<1) inst launch",
                     "");
}

/* Auto mode measures an indirect graph against a direct rival, captured
 * once, unless the indirect graph has more than PYGRAPH_RIVAL_MAX_INDIRECT
 * nodes: the rival's replays would update each of them. */
static unsigned long long captures_in_auto(int nodes)
{
  harness_settings(PYGRAPH_MODE_AUTO, 2, 8);
  harness_measure(4, 3);
  pygraph_region *r = harness_region("rival", 1);
  fake_reset();
  harness_fake_timing(10, 5);
  for (int it = 0; it < 200; it++)
    wide_iteration(r, nodes, it);
  unsigned long long captures = harness_segment(r, 0)->stats.captures;
  CHECK(harness_segment(r, 0)->cache.active != NULL);
  fake.timing = 0;
  return captures;
}

static void test_direct_rival_only_for_few_nodes(void)
{
  CHECK(captures_in_auto(4) == 2);
  CHECK(captures_in_auto(PYGRAPH_RIVAL_MAX_INDIRECT) == 2);
  CHECK(captures_in_auto(PYGRAPH_RIVAL_MAX_INDIRECT + 1) == 1);
  CHECK(captures_in_auto(1024) == 1);
}

int main(void)
{
  harness_indirect_default = 1;
  test_select_reasons_and_packing();
  test_layout_tag();
  test_slice_alignment();
  test_node_selection_in_capture();
  test_auto_takes_waiting_twins();
  test_indirect_off();
  test_change_seen_during_warmup();
  test_replay_is_o1();
  test_back_to_back_replays();
  test_loader_chunks();
  test_block_full();
  test_recapture_replaces_block();
  test_capture_alloc_fault();
  test_capture_graph_faults();
  test_replay_faults();
  test_settings_and_report();
  test_one_wave_rule();
  test_auto_node_rule();
  test_programmatic_edges_in_capture();
  test_twin_decided_on_the_built_plan();
  test_direct_rival_only_for_few_nodes();
  return check_finish();
}
