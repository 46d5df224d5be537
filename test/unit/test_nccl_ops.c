/* test_nccl_ops.c - NCCL calls inside a region (issue 20): the adapter
 * (cuda/nccl_entry_points.c, cuda/nccl_calls.c) as it is, against fake
 * NCCL (fake_nccl.h) and the fake backend.  A recorded call answers
 * ncclSuccess and runs later, in order with the kernels around it; a graph
 * holds it as one node captured from NCCL; a group is kept and recorded as
 * one op, made between ncclGroupStart and ncclGroupEnd; a collective makes
 * its auto-mode segment choose as graph mode does (the same choices on
 * every rank), or eager for good when it comes after the first iteration;
 * what cannot be recorded runs at once, after what was recorded. */
#include <string.h>

#include "abi/library_calls.h"
#include "check.h"
#include "fake_nccl.h"
#include "harness.h"

ncclResult_t __pygraph_ncclAllReduce(const pygraph_site *site, const void *sendbuff,
                                     void *recvbuff, size_t count, ncclDataType_t datatype,
                                     ncclRedOp_t op, ncclComm_t comm, cudaStream_t stream);
ncclResult_t __pygraph_ncclBroadcast(const pygraph_site *site, const void *sendbuff,
                                     void *recvbuff, size_t count, ncclDataType_t datatype,
                                     int root, ncclComm_t comm, cudaStream_t stream);
ncclResult_t __pygraph_ncclGroupStart(const pygraph_site *site);
ncclResult_t __pygraph_ncclGroupEnd(const pygraph_site *site);

static const pygraph_site kSite = {NULL, "nccl.cu", 7, 0, NULL};
static struct ncclComm comm0 = {0}, comm1 = {1};

static pygraph_region *region_in(enum pygraph_mode mode, const char *name)
{
  harness_settings(mode, 2, 8);
  pygraph_region *r = harness_region(name, 1);
  fake_reset();
  fake_nccl_reset();
  return r;
}

static void allreduce(float *send, float *recv, size_t n, cudaStream_t s)
{
  CHECK(__pygraph_ncclAllReduce(&kSite, send, recv, n, 0, 0, &comm0, s) == ncclSuccess);
}

/* One training step: a kernel, the all-reduce of 4 gradients, a kernel. */
static void step(pygraph_region *r, float *grad, float *sum)
{
  begin(r, 0);
  kernel(1, 5);
  allreduce(grad, sum, 4, S1);
  kernel(2, 3);
  end(r);
}

/* auto mode: the first iteration holds a collective, so the segment
 * chooses as graph mode (a warm-up, untimed, then capture and replay):
 * every rank whose steps launch alike makes the same choices. */
static void test_collective_segment_is_deterministic(void)
{
  pygraph_region *r = region_in(PYGRAPH_MODE_AUTO, "nccl_step");
  float grad[4] = {1, 2, 3, 4}, sum[4] = {0};
  step(r, grad, sum);
  CHECK_STR(fake_log(), "k1(5) lib(nccl) ar(4) k2(3)");
  CHECK(sum[3] == 8.0f);
  fake_log_clear();
  step(r, grad, sum);
  step(r, grad, sum);
  CHECK(harness_count(fake_log(), "cap:ar(4)") == 1);
  fake_log_clear();
  step(r, grad, sum);
  CHECK_STR(fake_log(), "launch ar(4)");       /* the fake graph runs its library nodes */
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK(seg->collective && seg->settings.mode == PYGRAPH_MODE_GRAPH);
  CHECK(seg->stats.captures == 1 && seg->stats.flushes == 0 && seg->stats.library_calls == 4);
  CHECK(fake_nccl.captures == 1);
}

/* A group: its calls kept, recorded as one op at its end, made as one
 * group eagerly and captured as one. */
static void group_step(pygraph_region *r, float *a, float *b)
{
  begin(r, 0);
  kernel(1, 5);
  int made = harness_count(fake_log(), "ar(");
  CHECK(__pygraph_ncclGroupStart(&kSite) == ncclSuccess);
  allreduce(a, a, 2, S1);
  CHECK(__pygraph_ncclBroadcast(&kSite, b, b, 2, 0, 0, &comm0, S1) == ncclSuccess);
  CHECK(harness_count(fake_log(), "ar(") == made);   /* nothing made before the group's end */
  CHECK(__pygraph_ncclGroupEnd(&kSite) == ncclSuccess);
  kernel(2, 3);
  end(r);
}

static void test_group_is_one_op(void)
{
  pygraph_region *r = region_in(PYGRAPH_MODE_GRAPH, "nccl_group");
  float a[2] = {1, 1}, b[2] = {5, 5};
  group_step(r, a, b);
  CHECK_STR(fake_log(), "k1(5) lib(nccl) gs ar(2) bc(2) ge k2(3)");
  fake_log_clear();
  group_step(r, a, b);
  CHECK_STR(fake_log(), "gs cap:ar(2) cap:bc(2) ge build(0 1L<0 2<1) inst launch gs ar(2) bc(2) ge");
  fake_log_clear();
  group_step(r, a, b);
  CHECK_STR(fake_log(), "launch gs ar(2) bc(2) ge");
  CHECK(harness_segment(r, 0)->stats.library_calls == 3);
}

/* A group begun inside the iteration and ended after it: the kept calls
 * are handed to NCCL inside a group of its own when the iteration ends,
 * and the program's ncclGroupEnd ends that group. */
static void test_group_outliving_the_iteration(void)
{
  pygraph_region *r = region_in(PYGRAPH_MODE_GRAPH, "nccl_group_split");
  float a[2] = {1, 1};
  begin(r, 0);
  kernel(1, 5);
  CHECK(__pygraph_ncclGroupStart(&kSite) == ncclSuccess);
  allreduce(a, a, 2, S1);
  end(r);
  CHECK_STR(fake_log(), "k1(5) gs ar(2)");
  CHECK(__pygraph_ncclGroupEnd(&kSite) == ncclSuccess);
  CHECK_STR(fake_log(), "k1(5) gs ar(2) ge");
  CHECK(harness_segment(r, 0)->stats.library_calls == 0);
}

/* A collective first met after the first iteration (auto mode may have
 * timed and decided by then): eager for good, the same on every rank;
 * what was recorded runs, then the call. */
static void test_late_collective_goes_eager(void)
{
  pygraph_region *r = region_in(PYGRAPH_MODE_AUTO, "nccl_late");
  float g[2] = {1, 1}, s[2];
  begin(r, 0);
  kernel(1, 5);
  kernel(2, 3);
  end(r);
  fake_log_clear();
  begin(r, 0);
  kernel(1, 5);
  allreduce(g, s, 2, S1);
  kernel(2, 3);
  end(r);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK_STR(seg->fallback, "NCCL collective after the segment's first iteration");
  CHECK(seg->final && seg->stats.library_calls == 0 && s[0] == 2.0f);
  CHECK(harness_count(fake_log(), "ar(2)") == 1 && harness_count(fake_log(), "k1(5)") == 1);
}

/* One communicator on two streams in one iteration, or a communicator of
 * another device: not recorded (a flush), each call made once. */
static void test_refusals_flush(void)
{
  pygraph_region *r = region_in(PYGRAPH_MODE_GRAPH, "nccl_two_streams");
  float g[2] = {1, 1}, s[2];
  begin(r, 0);
  allreduce(g, s, 2, S1);
  allreduce(g, s, 2, S2);
  end(r);
  struct pygraph_segment *seg = harness_segment(r, 0);
  CHECK_STR(seg->last_flush_reason, "NCCL communicator used on two streams in one iteration");
  CHECK(fake_nccl.runs == 2);
  pygraph_region *r2 = region_in(PYGRAPH_MODE_GRAPH, "nccl_other_device");
  begin(r2, 0);
  kernel(1, 5);
  CHECK(__pygraph_ncclAllReduce(&kSite, g, s, 2, 0, 0, &comm1, S1) == ncclSuccess);
  end(r2);
  CHECK_STR(harness_segment(r2, 0)->last_flush_reason,
            "NCCL communicator of another device than the current one");
  CHECK_STR(fake_log(), "k1(5) ar(2)");
}

/* A capture NCCL refuses: the build fails, the iteration runs eagerly,
 * every call once, and the segment is eager for good. */
static void test_capture_failure_runs_eagerly(void)
{
  pygraph_region *r = region_in(PYGRAPH_MODE_GRAPH, "nccl_capture_fails");
  fake_nccl.fail_captures = 1;
  float g[4] = {1, 1, 1, 1}, s[4];
  step(r, g, s);
  fake_log_clear();
  step(r, g, s);
  CHECK_STR(fake_log(), "cap:ar(4) lib!(nccl) build! clear k1(5) lib(nccl) ar(4) k2(3)");
  CHECK_STR(harness_segment(r, 0)->fallback, "graph build failed: cudaErrorUnknown");
  fake_log_clear();
  step(r, g, s);                              /* eager for good: straight to NCCL */
  CHECK_STR(fake_log(), "p:k1(5) ar(4) p:k2(3)");
  CHECK(fake_nccl.runs == 3);
}

/* A non-blocking communicator answers ncclInProgress: the recorded call
 * is waited for (its async error polled) before what follows runs. */
static void test_in_progress_waited_for(void)
{
  pygraph_region *r = region_in(PYGRAPH_MODE_GRAPH, "nccl_nonblocking");
  float g[3] = {1, 1, 1}, s[3];
  unsigned long long before = pygraph_library_failures();
  begin(r, 0);
  allreduce(g, s, 3, S1);
  kernel(2, 3);
  end(r);
  CHECK_STR(fake_log(), "lib(nccl) ar(3) poll poll poll k2(3)");
  CHECK(pygraph_library_failures() == before);
}

int main(void)
{
  test_collective_segment_is_deterministic();
  test_group_is_one_op();
  test_group_outliving_the_iteration();
  test_late_collective_goes_eager();
  test_refusals_flush();
  test_capture_failure_runs_eagerly();
  test_in_progress_waited_for();
  return check_finish();
}
