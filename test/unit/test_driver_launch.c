/* test_driver_launch.c - driver-API launches (cuLaunchKernel,
 * cuLaunchKernelEx) recorded like runtime-API kernels (record.h,
 * pygraph_record_driver_kernel): deferred and replayed in a graph as driver
 * kernel nodes (marked D in the fake's plans, d<func>(<arg0>) when run
 * eagerly), a parameter change a node update (never a twin: the program
 * loaded the function itself), the parameter bytes copied at the call;
 * the `extra` form, a layout the driver cannot describe, an attribute no
 * node holds and a launch outside the current context flush, the launch
 * made as it is, once; a failing build runs each call exactly once. */
#include "abi/record.h"
#include "check.h"
#include "harness.h"

/* A cuLaunchKernel of CUfunction `func` on S1 with kernelParams `params`
 * (and `extra`, attributes), as __pygraph_cuLaunchKernel records it, or
 * passed through: p:d<func>(<*params[0]>). */
static void driver_launch(int func, void **params, void **extra,
                          const cudaLaunchAttribute *attrs, unsigned n_attrs)
{
  /* A site that names a usable twin (the pass gives none to a driver
   * launch): the runtime must not take it for a CUfunction either. */
  static pygraph_site site = {.kernel = "driver_kernel", .file = "test.cu", .line = 7,
                              .indirect_twin = FAKE_TWIN(FAKE_TAGGED_TWIN)};
  dim3 grid = {2, 1, 1}, block = {64, 1, 1};
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg && pygraph_record_driver_kernel(seg, &site, FAKE_FUNC(func), grid, block, 0, S1, params,
                                          extra, attrs, n_attrs) == PYGRAPH_DEFERRED)
    return;
  fake_log_append("p:d%d(%d) ", func, params ? *(const int *)params[0] : -1);
}

/* kernelParams pointing at the caller's locals, which change right after
 * the call (the caller may reuse them): the recording must hold arg0. */
static void driver_kernel(int func, int arg0)
{
  int a0 = arg0;
  long long a1 = 2000 + arg0;
  void *params[] = {&a0, &a1};
  driver_launch(func, params, NULL, NULL, 0);
  a0 = -7;
  a1 = -7;
}

static void iteration(pygraph_region *r, int arg)
{
  begin(r, 0);
  driver_kernel(1, arg);
  kernel(2, 6);
  end(r);
}

static void test_deferred_and_replayed(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("driver_replay", 1);
  fake_reset();
  for (int i = 0; i < 4; i++)
    iteration(r, 5);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 0 && seg->stats.replays >= 2 && seg->cache.n_variants == 1);
  CHECK(seg->current->ops[0].driver == 1 && seg->current->ops[1].driver == 0);
  CHECK(harness_count(fake_log(), "build(0D 1<0)") == 1);
  CHECK(harness_count(fake_log(), "p:d1") == 0);       /* never made as it came */
  CHECK(fake_driver_layout_queries == 1);              /* once per function */
  CHECK(seg->stats.launches_in_graphs >= 4);
}

/* Another argument is a node update of the same graph, never a twin. */
static void test_parameter_change_is_node_update(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  harness_indirect(1);
  pygraph_region *r = harness_region("driver_update", 1);
  fake_reset();
  for (int i = 0; i < 6; i++)
    iteration(r, 10 + i);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->cache.n_variants == 1 && seg->stats.captures == 1);
  CHECK(seg->stats.updates >= 3 && seg->stats.indirect_nodes == 0);
  CHECK(harness_count(fake_log(), "build(") == 1);
  CHECK(harness_count(fake_log(), "upd0 launch") >= 3);
  harness_indirect(0);
}

/* The bytes the recording holds are those at the call: an iteration of
 * another launch sequence (a miss) runs its recorded ops eagerly, and the
 * driver op runs with the value it was given, not the -7 written after. */
static void test_bytes_copied_at_call(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("driver_bytes", 1);
  fake_reset();
  for (int i = 0; i < 3; i++)
    iteration(r, 5);
  fake_log_clear();
  begin(r, 0);
  driver_kernel(1, 42);
  fake_log_append("| ");                  /* the caller's locals are -7 from here */
  kernel(3, 1);                           /* another sequence: a miss, run eagerly */
  end(r);
  CHECK_STR(fake_log(), "| d1(42) k3(1)");
}

/* Each flushing form: the iteration's recorded ops run, then the launch
 * as it is, once; the reason is the report's last flush. */
static void flushes_once(const char *name, int func, void **extra,
                         const cudaLaunchAttribute *attrs, unsigned n_attrs, int other_context,
                         const char *reason)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region(name, 1);
  fake_reset();
  fake.driver_other_context = other_context;
  for (int i = 0; i < 3; i++) {
    int a0 = 7;
    long long a1 = 0;
    void *params[] = {&a0, &a1};
    begin(r, 0);
    kernel(2, 6);
    driver_launch(func, params, extra, attrs, n_attrs);
    end(r);
  }
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 3);
  CHECK_STR(seg->last_flush_reason, reason);
  char token[32];
  snprintf(token, sizeof token, "p:d%d(7)", func);
  CHECK(harness_count(fake_log(), token) == 3);            /* made as it is, once each */
  snprintf(token, sizeof token, " d%d(", func);
  CHECK(harness_count(fake_log(), token) == 0);            /* never run by pygraph too */
  CHECK(harness_count(fake_log(), "k2(6)") == 3);          /* what was recorded ran once */
}

static void test_flushing_forms(void)
{
  void *extra[] = {NULL};
  flushes_once("driver_extra", 1, extra, NULL, 0, 0,
               "driver launch with its parameters in `extra`");
  flushes_once("driver_no_layout", FAKE_NO_LAYOUT, NULL, NULL, 0, 0,
               "kernel parameter layout unavailable");
  cudaLaunchAttribute pdl = {.id = cudaLaunchAttributeProgrammaticStreamSerialization};
  pdl.val.programmaticStreamSerializationAllowed = 1;
  flushes_once("driver_attr", 1, NULL, &pdl, 1, 0, "a launch attribute with no graph-node form");
  flushes_once("driver_context", 1, NULL, NULL, 0, 1,
               "driver launch outside the current context");
  flushes_once("driver_attrs_missing", 1, NULL, NULL, 2, 0, "launch configuration missing");
}

/* cuLaunchKernelEx's node attributes go with the op, copied. */
static void test_node_attributes_deferred(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("driver_attrs", 1);
  fake_reset();
  for (int i = 0; i < 3; i++) {
    cudaLaunchAttribute a = {.id = cudaLaunchAttributeClusterDimension};
    a.val.clusterDim.x = 2;
    a.val.clusterDim.y = a.val.clusterDim.z = 1;
    int a0 = 3;
    long long a1 = 0;
    void *params[] = {&a0, &a1};
    begin(r, 0);
    driver_launch(4, params, NULL, &a, 1);
    a.val.clusterDim.x = 99;
    kernel(2, 6);
    end(r);
  }
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 0 && seg->cache.n_variants == 1 && seg->stats.replays >= 1);
  const struct pygraph_op *op = &seg->current->ops[0];
  CHECK(op->driver && op->n_attrs == 1 && op->attrs[0].val.clusterDim.x == 2);
}

/* A failing build: eager for good, the iteration's calls run once. */
static void test_build_fault_runs_each_once(void)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region("driver_build_fails", 1);
  fake_reset();
  iteration(r, 0);
  fake_log_clear();
  fake.fail_build = 1;
  iteration(r, 1);
  CHECK_STR(fake_log(), "build! clear d1(1) k2(6)");
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK_STR(harness_mode_name(seg), "eager");
  fake_log_clear();
  iteration(r, 2);
  CHECK_STR(fake_log(), "p:d1(2) p:k2(6)");
}

int main(void)
{
  test_deferred_and_replayed();
  test_parameter_change_is_node_update();
  test_bytes_copied_at_call();
  test_flushing_forms();
  test_node_attributes_deferred();
  test_build_fault_runs_each_once();
  return check_finish();
}
