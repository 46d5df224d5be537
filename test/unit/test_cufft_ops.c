/* test_cufft_ops.c - cuFFT executions inside a region (issue 18): the
 * adapter (cuda/cufft_entry_points.c) as it is, against a fake cuFFT
 * (fake_cufft.h) and the fake backend.  An execution on a plan whose
 * stream the adapter saw set is recorded, answers CUFFT_SUCCESS and runs
 * later, in order with the kernels around it; a graph holds it as one node
 * captured from cuFFT with the plan moved to the capturing stream and back;
 * a plan the adapter never saw runs at once, after what was recorded; no
 * graph captured before a cufftDestroy is replayed after it. */
#include <string.h>

#include "check.h"
#include "fake_cufft.h"
#include "harness.h"

cufftResult __pygraph_cufftPlan1d(const pygraph_site *site, cufftHandle *plan, int nx,
                                  cufftType type, int batch);
cufftResult __pygraph_cufftSetStream(const pygraph_site *site, cufftHandle plan,
                                     cudaStream_t stream);
cufftResult __pygraph_cufftDestroy(const pygraph_site *site, cufftHandle plan);
cufftResult __pygraph_cufftExecC2C(const pygraph_site *site, cufftHandle plan,
                                   cufftComplex *idata, cufftComplex *odata, int direction);

static const pygraph_site kSite = {NULL, "fft.cu", 9, 0, NULL};

static pygraph_region *region_in(enum pygraph_mode mode, const char *name)
{
  harness_settings(mode, 2, 8);
  pygraph_region *r = harness_region(name, 1);
  fake_reset();
  fake_cufft_reset();
  return r;
}

/* A plan of n complexes made and moved to S1 through the adapter. */
static cufftHandle plan_on_s1(int n)
{
  cufftHandle p = 0;
  CHECK(__pygraph_cufftPlan1d(&kSite, &p, n, CUFFT_C2C, 1) == CUFFT_SUCCESS);
  CHECK(__pygraph_cufftSetStream(&kSite, p, S1) == CUFFT_SUCCESS);
  return p;
}

/* One step: a kernel, the transform, a kernel. */
static void step(pygraph_region *r, cufftHandle p, cufftComplex *in, cufftComplex *out)
{
  begin(r, 0);
  kernel(1, 5);
  CHECK(__pygraph_cufftExecC2C(&kSite, p, in, out, CUFFT_FORWARD) == CUFFT_SUCCESS);
  kernel(2, 3);
  end(r);
}

static void test_execution_recorded_and_captured(void)
{
  pygraph_region *r = region_in(PYGRAPH_MODE_GRAPH, "fft_step");
  cufftHandle p = plan_on_s1(2);
  cufftComplex in[2] = {{1, 2}, {3, 4}}, out[2] = {{0, 0}, {0, 0}};
  fake_log_clear();
  step(r, p, in, out);
  CHECK_STR(fake_log(), "k1(5) lib(cufft) fft(1) k2(3)");
  CHECK(out[1].y == 8.0f);
  fake_log_clear();
  step(r, p, in, out);
  CHECK_STR(fake_log(), "ss(1,30) cap:fft(1) ss(1,1) build(0 1L<0 2<1) inst launch fft(1)");
  fake_log_clear();
  in[0].x = 10;
  step(r, p, in, out);
  CHECK_STR(fake_log(), "launch fft(1)");
  CHECK(out[0].x == 20.0f);
  CHECK(fake_cufft.captures == 1);
  CHECK(harness_segment(r, 0)->stats.library_calls == 3);
  CHECK(harness_segment(r, 0)->stats.flushes == 0);
  /* outside a region: made at once */
  fake_log_clear();
  CHECK(__pygraph_cufftExecC2C(&kSite, p, in, out, CUFFT_FORWARD) == CUFFT_SUCCESS);
  CHECK_STR(fake_log(), "fft(1)");
  CHECK(__pygraph_cufftDestroy(&kSite, p) == CUFFT_SUCCESS);
}

/* A plan made behind the adapter's back: its stream is unknown, so the
 * execution is made at once, after the kernel recorded before it. */
static void test_unknown_plan_runs_at_once(void)
{
  pygraph_region *r = region_in(PYGRAPH_MODE_GRAPH, "fft_unknown");
  cufftHandle p = 0;
  CHECK(cufftPlan1d(&p, 2, CUFFT_C2C, 1) == CUFFT_SUCCESS);
  cufftComplex in[2] = {{1, 1}, {1, 1}}, out[2];
  step(r, p, in, out);
  CHECK_STR(fake_log(), "k1(5) fft(1) p:k2(3)");
  CHECK(harness_segment(r, 0)->stats.flushes == 1);
  CHECK(out[1].x == 2.0f);
}

/* A graph captured from a plan is not replayed once any plan was
 * destroyed: a new plan with the old handle is captured again. */
static void test_destroy_forgets_captured_graphs(void)
{
  pygraph_region *r = region_in(PYGRAPH_MODE_GRAPH, "fft_destroy");
  cufftHandle p = plan_on_s1(2);
  cufftComplex in[2] = {{1, 2}, {3, 4}}, out[2];
  for (int i = 0; i < 3; i++)
    step(r, p, in, out);
  CHECK(fake_cufft.captures == 1);
  CHECK(__pygraph_cufftDestroy(&kSite, p) == CUFFT_SUCCESS);
  cufftHandle q = plan_on_s1(2);
  CHECK(q == p);                                   /* the handle is given again */
  fake_log_clear();
  for (int i = 0; i < 3; i++)
    step(r, q, in, out);
  CHECK(fake_cufft.captures == 2);
  CHECK(harness_count(fake_log(), "cap:fft(1)") == 1);
  /* a destroyed plan is unknown: made at once */
  CHECK(__pygraph_cufftDestroy(&kSite, q) == CUFFT_SUCCESS);
  fake_log_clear();
  begin(r, 0);
  kernel(1, 5);
  CHECK(__pygraph_cufftExecC2C(&kSite, q, in, out, CUFFT_FORWARD) == CUFFT_INVALID_PLAN);
  end(r);
  CHECK(harness_count(fake_log(), "k1(5)") == 1);
}

int main(void)
{
  test_execution_recorded_and_captured();
  test_unknown_plan_runs_at_once();
  test_destroy_forgets_captured_graphs();
  return check_finish();
}
