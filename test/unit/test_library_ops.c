/* test_library_ops.c - cuBLAS calls inside a region (issue 18): the
 * adapter (cuda/cublas_entry_points.c, cuda/cublas_handles.c) as it is,
 * against fake cuBLAS (fake_cublas.h) and the fake backend.  A recorded
 * call returns success at once and runs later, in order with the kernels
 * around it, with the scalars of its call; a graph holds it as one node
 * captured from it (on the capture stream, with a workspace of pygraph's
 * own, the handle left as the program had it), never updated: another
 * alpha is another graph; a result to host memory is a real
 * synchronization (a flush); a capture that fails runs the iteration
 * eagerly, every call once; a recorded call that fails when it runs is
 * counted and said. */
#include <stdlib.h>

#include "abi/library_calls.h"
#include "check.h"
#include "fake_cublas.h"
#include "harness.h"
#include "recording/signature.h"

cublasStatus_t __pygraph_cublasSscal_v2(const pygraph_site *site, cublasHandle_t handle, int n,
                                        const float *alpha, float *x, int incx);
cublasStatus_t __pygraph_cublasSnrm2_v2(const pygraph_site *site, cublasHandle_t handle, int n,
                                        const float *x, int incx, float *result);
cublasStatus_t __pygraph_cublasSetWorkspace_v2(const pygraph_site *site, cublasHandle_t handle,
                                               void *workspace, size_t bytes);
cublasStatus_t __pygraph_cublasSetStream_v2(const pygraph_site *site, cublasHandle_t handle,
                                            cudaStream_t stream);

static const pygraph_site kSite = {NULL, "lib.cu", 7, 0, NULL};

static pygraph_region *graph_region(const char *name)
{
  harness_settings(PYGRAPH_MODE_GRAPH, 1, 8);
  pygraph_region *r = harness_region(name, 1);
  fake_reset();
  fake_cublas_reset();
  return r;
}

/* One iteration: kernel 1, x *= alpha (4 floats, host pointer mode unless
 * the handle says otherwise), the host's alpha overwritten right after the
 * call, kernel 2. */
static void iteration(pygraph_region *r, cublasHandle_t h, float *x, float alpha)
{
  begin(r, 0);
  kernel(1, 5);
  float a = alpha;
  CHECK(__pygraph_cublasSscal_v2(&kSite, h, 4, &a, x, 1) == CUBLAS_STATUS_SUCCESS);
  a = -1.0f;
  kernel(2, 3);
  end(r);
}

/* Warm-up as it comes, capture (the call captured on the capture stream,
 * one library node between the kernels), replay; another alpha misses the
 * graph and runs eagerly at the region's end, in order; every run
 * multiplies x once, with its own call's alpha. */
static void test_recorded_in_order(void)
{
  pygraph_region *r = graph_region("lib_order");
  static struct cublasContext ctx;
  ctx = (struct cublasContext){.stream = S1, .mode = CUBLAS_POINTER_MODE_HOST};
  float x[4] = {1, 1, 1, 1};
  iteration(r, &ctx, x, 2.0f);
  CHECK_STR(fake_log(), "k1(5) lib(cublasSscal_v2) sscal(2) k2(3)");
  fake_log_clear();
  iteration(r, &ctx, x, 2.0f);
  CHECK_STR(fake_log(), "cap:sscal(2) build(0 1L<0 2<1) inst launch sscal(2)");
  fake_log_clear();
  iteration(r, &ctx, x, 2.0f);
  CHECK_STR(fake_log(), "launch sscal(2)");
  fake_log_clear();
  begin(r, 0);
  kernel(1, 5);
  float a = 3.0f;
  CHECK(__pygraph_cublasSscal_v2(&kSite, &ctx, 4, &a, x, 1) == CUBLAS_STATUS_SUCCESS);
  CHECK_STR(fake_log(), "");                  /* deferred: nothing ran yet */
  a = -1.0f;
  kernel(2, 3);
  end(r);
  CHECK_STR(fake_log(), "k1(5) lib(cublasSscal_v2) sscal(3) k2(3)");
  CHECK(x[0] == 24.0f && x[3] == 24.0f);      /* 1 * 2 * 2 * 2 * 3 */
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.captures == 1 && seg->stats.mismatches == 1 && seg->stats.updates == 0);
  CHECK(seg->stats.library_calls == 4 && seg->stats.flushes == 0);
  CHECK(seg->stats.launches_in_graphs == 6);  /* 2 graph runs of 2 kernels and the call */
  CHECK(fake_cublas.runs == 4 && fake_cublas.captures == 1);
}

/* The capture: the handle on the capture stream with pygraph's workspace
 * (32 MiB on compute capability 9.0, allocated once per handle and stream,
 * counted for the report), then back on its stream with its own workspace;
 * eager runs touch neither stream nor workspace. */
static void test_capture_leaves_the_handle(void)
{
  pygraph_region *r = graph_region("lib_handle");
  static struct cublasContext ctx;
  ctx = (struct cublasContext){.stream = S1, .mode = CUBLAS_POINTER_MODE_HOST};
  float x[4] = {1, 1, 1, 1}, program_ws[16];
  unsigned long long before = pygraph_library_workspace_bytes();
  CHECK(__pygraph_cublasSetWorkspace_v2(&kSite, &ctx, program_ws, sizeof program_ws) == 0);
  iteration(r, &ctx, x, 2.0f);
  CHECK(fake_cublas.set_stream_calls == 0 && fake_cublas.mallocs == 0);
  iteration(r, &ctx, x, 2.0f);                /* captured */
  CHECK(fake_cublas.captured_workspace != NULL &&
        fake_cublas.captured_workspace != (void *)program_ws);
  CHECK(fake_cublas.captured_workspace_bytes == 32u << 20 && fake_cublas.mallocs == 1);
  CHECK(pygraph_library_workspace_bytes() - before == 32u << 20);
  CHECK(ctx.stream == S1 && ctx.workspace == (void *)program_ws &&
        ctx.workspace_bytes == sizeof program_ws);
  CHECK(fake_cublas.set_stream_calls == 2);   /* to the capture stream and back */
  iteration(r, &ctx, x, 2.0f);                /* replayed: the handle untouched */
  CHECK(fake_cublas.set_stream_calls == 2);
  /* cublasSetStream resets the workspace: not re-applied after that. */
  CHECK(__pygraph_cublasSetStream_v2(&kSite, &ctx, S2) == 0);
  pygraph_region *r2 = graph_region("lib_handle_s2");
  iteration(r2, &ctx, x, 2.0f);
  iteration(r2, &ctx, x, 2.0f);               /* captured: another stream, another workspace */
  CHECK(fake_cublas.mallocs == 1 && ctx.stream == S2 && ctx.workspace == NULL);
  CHECK(x[0] == 32.0f);                       /* 5 runs of x *= 2, two graphs' (none twice) */
}

/* A stream set where pygraph does not see it (a file without regions):
 * cuBLAS reset the workspace there, and the program may have freed it, so
 * it is not given back after a capture. */
static void test_unobserved_stream_drops_the_workspace(void)
{
  pygraph_region *r = graph_region("lib_unobserved");
  static struct cublasContext ctx;
  ctx = (struct cublasContext){.stream = S1, .mode = CUBLAS_POINTER_MODE_HOST};
  float x[4] = {1, 1, 1, 1}, program_ws[16];
  CHECK(__pygraph_cublasSetWorkspace_v2(&kSite, &ctx, program_ws, sizeof program_ws) == 0);
  CHECK(cublasSetStream_v2(&ctx, S2) == 0);   /* the real call, not routed */
  iteration(r, &ctx, x, 2.0f);
  iteration(r, &ctx, x, 2.0f);                /* captured */
  CHECK(fake_cublas.captures == 1 && ctx.stream == S2 && ctx.workspace == NULL);
}

/* PYGRAPH_CUBLAS_WORKSPACE_MB=0: captures get no workspace of pygraph's;
 * before compute capability 9.0 the default is 4 MiB. */
static void test_workspace_setting(void)
{
  pygraph_region *r = graph_region("lib_ws_none");
  struct pygraph_settings s = *pygraph_settings();
  s.cublas_workspace_mb = 0;
  pygraph_settings_override(&s);
  static struct cublasContext ctx;
  ctx = (struct cublasContext){.stream = S1, .mode = CUBLAS_POINTER_MODE_HOST};
  float x[4] = {1, 1, 1, 1};
  iteration(r, &ctx, x, 2.0f);
  iteration(r, &ctx, x, 2.0f);
  CHECK(fake_cublas.captures == 1 && fake_cublas.captured_workspace == NULL &&
        fake_cublas.mallocs == 0);
  pygraph_region *old = graph_region("lib_ws_small");
  fake_cublas.compute_major = 8;
  static struct cublasContext ctx8;
  ctx8 = (struct cublasContext){.stream = S2, .mode = CUBLAS_POINTER_MODE_HOST};
  iteration(old, &ctx8, x, 2.0f);
  iteration(old, &ctx8, x, 2.0f);
  CHECK(fake_cublas.captured_workspace_bytes == 4u << 20 && fake_cublas.mallocs == 1);
}

/* The call's alpha is its signature: two lists whose calls differ in one
 * byte of their arguments differ, the same arguments match and need no
 * update. */
static void test_signature_holds_the_arguments(void)
{
  static const struct pygraph_library_fn fn = {"f", NULL, NULL, 0};
  float args_a[4] = {1, 2, 3, 4}, args_b[4] = {1, 2, 3, 5};
  struct pygraph_op op = {.kind = PYGRAPH_OP_LIBRARY, .stream = S1, .library = &fn,
                          .library_args = args_a, .library_size = sizeof args_a,
                          .wait_link = -1};
  struct pygraph_op_list a = {0}, b = {0}, c = {0};
  CHECK(pygraph_op_list_copy_library(&a, &op) == 0 && pygraph_op_list_append(&a, &op));
  op.library_args = args_b;
  CHECK(pygraph_op_list_copy_library(&b, &op) == 0 && pygraph_op_list_append(&b, &op));
  args_a[0] = 9;                              /* the lists hold their own copies */
  op.library_args = (float[4]){1, 2, 3, 4};
  CHECK(pygraph_op_list_copy_library(&c, &op) == 0 && pygraph_op_list_append(&c, &op));
  pygraph_op_list_materialize(&a);
  pygraph_op_list_materialize(&b);
  pygraph_op_list_materialize(&c);
  CHECK(!pygraph_same_signature(&a, &b));
  CHECK(pygraph_signature_hash(&a) != pygraph_signature_hash(&b));
  CHECK(pygraph_same_signature(&a, &c));
  CHECK(pygraph_signature_hash(&a) == pygraph_signature_hash(&c));
  CHECK(!pygraph_op_params_differ(&a, &a.ops[0], &c, &c.ops[0]));
  CHECK(((const float *)a.ops[0].library_args)[0] == 1.0f && a.n_library == 1);
  pygraph_op_list_free(&a);
  pygraph_op_list_free(&b);
  pygraph_op_list_free(&c);
}

/* A norm into host memory (host pointer mode) is a real synchronization:
 * what was recorded runs, then the call, whose result the host reads at
 * once; the rest of the iteration passes through.  In device pointer mode
 * it is recorded like any call (its result is written when it runs). */
static void test_host_result_flushes(void)
{
  pygraph_region *r = graph_region("lib_nrm2");
  static struct cublasContext ctx;
  ctx = (struct cublasContext){.stream = S1, .mode = CUBLAS_POINTER_MODE_HOST};
  float x[2] = {3, 4}, result = 0;
  begin(r, 0);
  kernel(1, 5);
  CHECK(__pygraph_cublasSnrm2_v2(&kSite, &ctx, 2, x, 1, &result) == CUBLAS_STATUS_SUCCESS);
  CHECK(result == 25.0f);
  kernel(2, 3);
  end(r);
  CHECK_STR(fake_log(), "k1(5) snrm2(0) p:k2(3)");
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->stats.flushes == 1 && seg->stats.library_calls == 0);
  CHECK_STR(seg->last_flush_reason, "cuBLAS result to host memory");

  pygraph_region *d = graph_region("lib_nrm2_device");
  ctx.mode = CUBLAS_POINTER_MODE_DEVICE;
  float on_device = 0;
  for (int i = 0; i < 3; i++) {
    begin(d, 0);
    kernel(1, 5);
    on_device = -1;
    CHECK(__pygraph_cublasSnrm2_v2(&kSite, &ctx, 2, x, 1, &on_device) == 0);
    if (i == 1)
      CHECK(on_device == -1);                 /* recorded: written when it runs */
    end(d);
    CHECK(on_device == 25.0f);
  }
  CHECK(harness_segment(d, 0)->stats.flushes == 0 && harness_segment(d, 0)->stats.replays == 1);
}

/* A capture that fails (cuBLAS refuses it): the build fails, the
 * iteration runs eagerly, every call once, and the segment is eager for
 * good: later calls go straight to cuBLAS. */
static void test_capture_failure_runs_eagerly(void)
{
  pygraph_region *r = graph_region("lib_capture_fails");
  fake_cublas.fail_captures = 1;
  static struct cublasContext ctx;
  ctx = (struct cublasContext){.stream = S1, .mode = CUBLAS_POINTER_MODE_HOST};
  float x[4] = {1, 1, 1, 1};
  iteration(r, &ctx, x, 2.0f);
  fake_log_clear();
  iteration(r, &ctx, x, 2.0f);
  CHECK_STR(fake_log(), "cap:sscal(2) lib!(cublasSscal_v2) build! clear k1(5) "
                        "lib(cublasSscal_v2) sscal(2) k2(3)");
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK_STR(seg->fallback, "graph build failed: cudaErrorUnknown");
  CHECK(ctx.stream == S1);                    /* the handle put back all the same */
  fake_log_clear();
  iteration(r, &ctx, x, 2.0f);
  CHECK_STR(fake_log(), "p:k1(5) sscal(2) p:k2(3)");
  CHECK(x[0] == 8.0f && fake_cublas.runs == 3);
}

/* A recorded call returns success; when it fails as it runs, the failure
 * is counted for the report (and said once on stderr). */
static void test_deferred_failure_reported(void)
{
  pygraph_region *r = graph_region("lib_fails");
  static struct cublasContext ctx;
  ctx = (struct cublasContext){.stream = S1, .mode = CUBLAS_POINTER_MODE_HOST};
  float x[1] = {1}, alpha = 2;
  unsigned long long before = pygraph_library_failures();
  begin(r, 0);
  kernel(1, 5);
  CHECK(__pygraph_cublasSscal_v2(&kSite, &ctx, -1, &alpha, x, 1) == CUBLAS_STATUS_SUCCESS);
  end(r);
  CHECK(pygraph_library_failures() == before + 1);
  /* outside a region: cuBLAS's own answer, at once */
  CHECK(__pygraph_cublasSscal_v2(&kSite, &ctx, -1, &alpha, x, 1) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(pygraph_library_failures() == before + 1);
}

int main(void)
{
  test_recorded_in_order();
  test_capture_leaves_the_handle();
  test_unobserved_stream_drops_the_workspace();
  test_workspace_setting();
  test_signature_holds_the_arguments();
  test_host_result_flushes();
  test_capture_failure_runs_eagerly();
  test_deferred_failure_reported();
  return check_finish();
}
