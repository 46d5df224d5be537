/* test_whole_loop_library.c - a whole loop holding a library call: the
 * cuFFT adapter (cuda/cufft_entry_points.c) as it is, against a fake
 * cuFFT (fake_cufft.c) and the fake backend.  The call is observed as the
 * operation its adapter records, checked argument for argument against
 * iteration 0, and the WHILE body holds it as a node the library's graph
 * is captured into (the fake backend replays the call: y = 2x); a call
 * whose arguments change from iteration to iteration, or one the region
 * does not record (made at once), turns the loop off, which then runs as
 * written.
 *
 * The loop, counted: for (t = 0; t < steps; ++t) { op 0 adds t + 1 to
 * the bits of x[0] (a kernel); op 1 transforms x in place (cuFFT on S1) }
 * with one test at the end, (1 + i) >= steps.  Every run is compared with
 * the same loop run as written (whole loops off).  A second loop scales
 * with cuBLAS (its adapter against fake_cublas.c), alpha in host pointer
 * mode: read once when the call is captured, so it must be host memory no
 * kernel writes, else the call is made at once and the loop stays as
 * written. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fake_cublas.h"
#include "fake_cufft.h"
#include "harness.h"
#include "whole_loop_harness.h"
#include "abi/whole_loop.h"

#define NODE(op, type, arg, imm, step) {PYGRAPH_EXIT_##op, PYGRAPH_TYPE_##type, arg, imm, step}
#define NONE PYGRAPH_WL_NONE

cufftResult __pygraph_cufftPlan1d(const pygraph_site *site, cufftHandle *plan, int nx,
                                  cufftType type, int batch);
cufftResult __pygraph_cufftSetStream(const pygraph_site *site, cufftHandle plan,
                                     cudaStream_t stream);
cufftResult __pygraph_cufftDestroy(const pygraph_site *site, cufftHandle plan);
cufftResult __pygraph_cufftExecC2C(const pygraph_site *site, cufftHandle plan,
                                   cufftComplex *idata, cufftComplex *odata, int direction);

cublasStatus_t __pygraph_cublasSscal_v2(const pygraph_site *site, cublasHandle_t handle, int n,
                                        const float *alpha, float *x, int incx);

/* invariants: 0 steps, 1 x */
static const unsigned kTypes[] = {PYGRAPH_TYPE_I32, PYGRAPH_TYPE_PTR};
static const pygraph_exit_node kTests[] = {
    NODE(COUNTER, I32, NONE, 1, 1), NODE(INVARIANT, I32, 0, 0, 0),
    NODE(CMP, I1, PYGRAPH_CMP_I_SGE, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};
static const pygraph_loop_value kValues[] = {
    {0, 0, PYGRAPH_EVOLVE_AFFINE, PYGRAPH_TYPE_I32, NONE, NONE, 0, 1, 1},
    {0, 1, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_PTR, NONE, NONE, 0, 0, 0}};

static const pygraph_site kFftSite = {NULL, "fft.cu", 62, 0, NULL};

struct prog {
  pygraph_whole_loop wl;
  pygraph_region *region;
  pygraph_site site0;
  cufftComplex *x;               /* device: two complexes */
  cufftHandle plan;
  int flip;                      /* the transform's direction alternates (its arguments
                                    change: the pass would not describe such a loop) */
  const float *alpha;            /* non-NULL: op 1 is cublasSscal(x, alpha) on S1 in host
                                    pointer mode instead of the transform */
};

struct result {
  int t;
  cufftComplex x[2];
};

/* A plan on S1 through the adapter (unseen: made by cuFFT alone, its
 * stream unknown to the adapter, which then makes each call at once). */
static cufftHandle plan_of(int seen)
{
  cufftHandle p = 0;
  if (!seen) {
    CHECK(cufftPlan1d(&p, 2, CUFFT_C2C, 1) == CUFFT_SUCCESS);
    return p;
  }
  CHECK(__pygraph_cufftPlan1d(&kFftSite, &p, 2, CUFFT_C2C, 1) == CUFFT_SUCCESS);
  CHECK(__pygraph_cufftSetStream(&kFftSite, p, S1) == CUFFT_SUCCESS);
  return p;
}

static struct prog *prog_new(int seen_plan)
{
  struct prog *p = calloc(1, sizeof *p);
  p->wl.line_begin = 60;
  p->wl.line_end = 64;
  p->wl.n_ops = 2;
  p->wl.status_op = NONE;
  p->wl.status_copy = PYGRAPH_STATUS_NONE;
  p->wl.status_dest = NONE;
  p->wl.n_invariants = 2;
  p->wl.invariant_types = kTypes;
  p->wl.n_nodes = 4;
  p->wl.nodes = kTests;
  p->wl.n_values = 2;
  p->wl.values = kValues;
  p->region = harness_batch_region("fft_loop", 32);
  p->region->whole_loop = &p->wl;
  p->site0 = (pygraph_site){"excite", "fft.cu", 61, 2, FAKE_TWIN(1)};
  p->x = fake_buffer(2 * sizeof *p->x);
  p->plan = plan_of(seen_plan);
  return p;
}

/* The plan destroyed through the adapter (which then forgets its stream:
 * plan numbers are reused). */
static void prog_done(struct prog *p)
{
  CHECK(__pygraph_cufftDestroy(&kFftSite, p->plan) == CUFFT_SUCCESS);
}

/* The loop as the pass leaves it (steps >= 1: the guard before it). */
static struct result run(struct prog *p, int steps)
{
  memset(p->x, 0, 2 * sizeof *p->x);
  p->x[1].y = 1.0f;
  unsigned long long inv[2] = {(unsigned)steps, (uintptr_t)p->x};
  int t = 0;
  loop_enter(p->region, steps);
  pygraph_whole_loop_enter_with(&fake_backend, p->region, &p->wl, inv);
  for (;;) {
    unsigned long long left;
    int k = pygraph_whole_loop_try_with(&fake_backend, p->region, &p->wl, &left);
    if (k >= 0) {
      t = (int)left + 1;
      break;
    }
    begin(p->region, 0);
    harness_loop_kernel(&p->site0, 1, t + 1, (int *)(void *)p->x);
    int dir = p->flip && t % 2 ? CUFFT_INVERSE : CUFFT_FORWARD;
    static struct cublasContext handle = {S1, CUBLAS_POINTER_MODE_HOST, NULL, 0};
    if (p->alpha)
      CHECK(__pygraph_cublasSscal_v2(&kFftSite, &handle, 4, p->alpha, (float *)(void *)p->x,
                                     1) == CUBLAS_STATUS_SUCCESS);
    else
      CHECK(__pygraph_cufftExecC2C(&kFftSite, p->plan, p->x, p->x, dir) == CUFFT_SUCCESS);
    end(p->region);
    if (++t >= steps)
      break;
  }
  loop_exit(p->region);
  pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull);
  struct result r = {t, {p->x[0], p->x[1]}};
  return r;
}

static struct result as_written(int steps, int flip)
{
  int on = pygraph_settings()->whole_loops;
  harness_loop_settings(PYGRAPH_MODE_GRAPH, 0);
  struct prog *q = prog_new(1);
  q->flip = flip;
  struct result r = run(q, steps);
  prog_done(q);
  harness_loop_settings(PYGRAPH_MODE_GRAPH, on);
  return r;
}

static int same(struct result a, struct result b)
{
  return a.t == b.t && memcmp(a.x, b.x, sizeof a.x) == 0;
}

/* Checked in its first execution (the transform's operation among the
 * loop's, its arguments iteration 0's); from the second on, iteration 0 as
 * written and the rest in one WHILE launch whose body replays the
 * transform every iteration.  (The loops run as written come first: a
 * plan destroyed between two executions changes the transform's arguments,
 * the adapter's count of destroys, and the graph is made again.) */
static void test_library_call_runs_whole(void)
{
  fake_reset();
  fake_cufft_reset();
  struct result want[6];
  for (int steps = 1; steps <= 5; steps++)
    want[steps] = as_written(steps, 0);
  struct result want6 = as_written(6, 0), want40 = as_written(40, 0);
  harness_loop_settings(PYGRAPH_MODE_GRAPH, 1);
  struct prog *p = prog_new(1);
  struct result r = run(p, 6);
  CHECK(same(r, want6) && r.t == 6);
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK_STR(s.state, "ready");
  CHECK(s.observed == 6 && s.graph_runs == 0);
  fake_log_clear();
  int runs_before = fake_cufft.runs;
  r = run(p, 40);
  CHECK(same(r, want40));
  const char *log = fake_log();
  CHECK(harness_count(log, "wbuild") == 1 && harness_count(log, "wloop(39)") == 1);
  CHECK(harness_count(log, "lib(cufft)") >= 1);          /* the body's library node */
  s = harness_whole_loop_summary(&p->wl);
  CHECK(s.graph_runs == 1 && s.graph_iterations == 39 && s.fallbacks == 0);
  CHECK_STR(s.why, "-");
  CHECK(fake_cufft.runs - runs_before == 40);             /* each transform made once */
  for (int steps = 2; steps <= 5; steps++)
    CHECK(same(run(p, steps), want[steps]));
  CHECK(harness_whole_loop_summary(&p->wl).builds == 1 &&
        harness_whole_loop_summary(&p->wl).graph_runs == 5);
  prog_done(p);
}

/* The transform's direction alternates: its arguments differ from
 * iteration 0's, the loop is off and runs as written. */
static void test_changing_arguments_turn_it_off(void)
{
  fake_reset();
  fake_cufft_reset();
  harness_loop_settings(PYGRAPH_MODE_GRAPH, 1);
  struct prog *p = prog_new(1);
  p->flip = 1;
  CHECK(same(run(p, 6), as_written(6, 1)));
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK_STR(s.state, "off");
  CHECK_STR(s.why, "an invariant operand changed");
  fake_log_clear();
  CHECK(same(run(p, 6), as_written(6, 1)) && harness_count(fake_log(), "wbuild") == 0);
  prog_done(p);
}

/* A plan the adapter never saw set: the call is made at once, never
 * recorded, so its operation is missing: off, as written. */
static void test_unrecorded_call_turns_it_off(void)
{
  fake_reset();
  fake_cufft_reset();
  harness_loop_settings(PYGRAPH_MODE_GRAPH, 1);
  struct prog *p = prog_new(0);
  struct prog *ref = prog_new(0);
  int on = pygraph_settings()->whole_loops;
  harness_loop_settings(PYGRAPH_MODE_GRAPH, 0);
  struct result want = run(ref, 5);
  harness_loop_settings(PYGRAPH_MODE_GRAPH, on);
  CHECK(same(run(p, 5), want));
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK_STR(s.state, "off");
  CHECK_STR(s.why, "a library call that was not recorded (made at once)");
  CHECK(same(run(p, 5), want) && harness_count(fake_log(), "wbuild") == 0);
}

/* cublasSscal with alpha on the host's stack: the loop runs whole, the
 * body's library node scaling by the alpha read when it was captured; with
 * alpha in memory a kernel may write (here device memory), the call is made
 * at once while the loop is checked, and the loop stays as written. */
static void test_host_scalar(void)
{
  fake_reset();
  fake_cufft_reset();
  fake_cublas_reset();
  static const float two = 2.0f;
  float *device_alpha = fake_buffer(sizeof(float));
  *device_alpha = 2.0f;
  const float *alphas[2] = {&two, device_alpha};
  for (int k = 0; k < 2; k++) {
    harness_loop_settings(PYGRAPH_MODE_GRAPH, 0);
    struct prog *ref = prog_new(1);
    ref->alpha = alphas[k];
    struct result want = run(ref, 12);
    prog_done(ref);
    harness_loop_settings(PYGRAPH_MODE_GRAPH, 1);
    struct prog *p = prog_new(1);
    p->alpha = alphas[k];
    CHECK(same(run(p, 12), want));
    fake_log_clear();
    CHECK(same(run(p, 12), want));
    struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
    if (k == 0) {
      CHECK(harness_count(fake_log(), "wloop(11)") == 1 && s.graph_runs == 1);
      CHECK_STR(s.state, "ready");
    } else {
      CHECK(harness_count(fake_log(), "wbuild") == 0 && s.graph_runs == 0);
      CHECK_STR(s.state, "off");
      CHECK_STR(s.why, "a library call that was not recorded (made at once)");
    }
    prog_done(p);
  }
}

int main(void)
{
  test_library_call_runs_whole();
  test_changing_arguments_turn_it_off();
  test_unrecorded_call_turns_it_off();
  test_host_scalar();
  return check_finish();
}
