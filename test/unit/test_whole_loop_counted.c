/* test_whole_loop_counted.c - a counted loop (no status copy, issue 17's
 * "also for counted loops") run through the whole-loop protocol on the
 * fake backend, as the pass instruments a batchable loop: region_loop_enter
 * and whole_loop_enter in the preheader, try at the top of every
 * iteration, the iteration's region begun and ended around its launches
 * (a batch region: its unit goes on across iterations), region_exit then
 * whole_loop_exit at the exit.
 *
 * The loop: for (t = 0; t < steps; ++t) { op 0 adds t + 1 to x; op 1 adds
 * 10 to y; swap(x, y); }, x and y a rotation of the buffers a and b; its
 * one test at the end, (1 + i) >= steps.  Every run is compared with the
 * same loop run as written (whole loops off): the counter, the pointer the
 * loop leaves in x, the buffers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "harness.h"
#include "whole_loop_harness.h"
#include "abi/record.h"
#include "abi/whole_loop.h"
#include "recording/whole_loop.h"

#define NODE(op, type, arg, imm, step) {PYGRAPH_EXIT_##op, PYGRAPH_TYPE_##type, arg, imm, step}
#define NONE PYGRAPH_WL_NONE

/* invariants: 0 steps, 1 a, 2 b */
static const unsigned kTypes[] = {PYGRAPH_TYPE_I32, PYGRAPH_TYPE_PTR, PYGRAPH_TYPE_PTR};
static const unsigned kMembers[] = {1, 2};
static const pygraph_exit_node kTests[] = {
    NODE(COUNTER, I32, NONE, 1, 1), NODE(INVARIANT, I32, 0, 0, 0),
    NODE(CMP, I1, PYGRAPH_CMP_I_SGE, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};
static const pygraph_loop_value kValues[] = {
    {0, 0, PYGRAPH_EVOLVE_AFFINE, PYGRAPH_TYPE_I32, NONE, NONE, 0, 1, 1},
    {0, 1, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 2, 0, 0},
    {1, 0, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_I32, NONE, NONE, 0, 0, 0},
    {1, 1, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 2, 1, 0}};

struct prog {
  pygraph_whole_loop wl;
  pygraph_region *region;
  pygraph_site site0, site1;
  int *a, *b;                    /* device */
};

struct result {
  int t, a, b, x_is_a;
};

/* Host time each iteration as written costs (the auto-mode tests' clock). */
static double g_written_us;

static struct prog *prog_new(void)
{
  struct prog *p = calloc(1, sizeof *p);
  p->wl.line_begin = 50;
  p->wl.line_end = 55;
  p->wl.n_ops = 2;
  p->wl.status_op = NONE;
  p->wl.status_copy = PYGRAPH_STATUS_NONE;
  p->wl.status_dest = NONE;
  p->wl.n_invariants = 3;
  p->wl.invariant_types = kTypes;
  p->wl.n_nodes = 4;
  p->wl.nodes = kTests;
  p->wl.n_values = 4;
  p->wl.values = kValues;
  p->wl.n_rotation_members = 2;
  p->wl.rotation_members = kMembers;
  p->region = harness_batch_region("pingpong", 32);
  p->region->whole_loop = &p->wl;
  p->site0 = (pygraph_site){"step", "test.cu", 51, 2, FAKE_TWIN(1)};
  p->site1 = (pygraph_site){"copyback", "test.cu", 52, 2, FAKE_TWIN(2)};
  p->a = fake_buffer(sizeof(int));
  p->b = fake_buffer(sizeof(int));
  return p;
}

/* A routed launch: observed, then recorded or run ("CUDA"). */

/* The loop as the pass leaves it (steps >= 1: the guard before it). */
static struct result run(struct prog *p, int steps)
{
  *p->a = *p->b = 0;
  unsigned long long inv[3] = {(unsigned)steps, (uintptr_t)p->a, (uintptr_t)p->b};
  int *x = p->a, *y = p->b;
  int t = 0;
  loop_enter(p->region, steps);
  pygraph_whole_loop_enter_with(&fake_backend, p->region, &p->wl, inv);
  for (;;) {
    unsigned long long left;
    int k = pygraph_whole_loop_try_with(&fake_backend, p->region, &p->wl, &left);
    if (k >= 0) {      /* the exit's phis: the counter and x in iteration `left` */
      t = (int)left + 1;
      x = (int *)(uintptr_t)inv[kMembers[(left + 1) % 2]];
      break;
    }
    begin(p->region, 0);
    harness_loop_kernel(&p->site0, 1, t + 1, x);
    harness_loop_kernel(&p->site1, 2, 10, y);
    end(p->region);
    fake_host_us += g_written_us;
    int *s = x;
    x = y;
    y = s;
    if (++t >= steps)
      break;
  }
  loop_exit(p->region);
  pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull);
  return (struct result){t, *p->a, *p->b, x == p->a};
}


static struct result as_written(int steps)
{
  int on = pygraph_settings()->whole_loops;
  enum pygraph_mode mode = pygraph_settings()->mode;
  harness_loop_settings(PYGRAPH_MODE_GRAPH, 0);
  struct result r = run(prog_new(), steps);
  harness_loop_settings(mode, on);
  return r;
}

static int same(struct result x, struct result y)
{
  return x.t == y.t && x.a == y.a && x.b == y.b && x.x_is_a == y.x_is_a;
}


/* Checked in its first execution; from the second on, iteration 0 as
 * written (its batch unit ends before the launch) and the rest in one
 * WHILE launch with no status copy: the counter and the rotated pointer
 * restored, every kernel run once. */
static void test_runs_whole(void)
{
  fake_reset();
  harness_loop_settings(PYGRAPH_MODE_GRAPH, 1);
  struct prog *p = prog_new();
  struct result r = run(p, 6);
  CHECK(same(r, as_written(6)) && r.t == 6);
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK_STR(s.state, "ready");
  CHECK(s.executions == 1 && s.observed == 6 && s.graph_runs == 0);
  fake_log_clear();
  r = run(p, 64);      /* 64 trips: batch units of 8 iterations */
  /* iteration 0, held back by its batch unit, ran (a graph of one
   * iteration, or eagerly) before the WHILE graph was even built */
  const char *log = fake_log(), *built = strstr(log, "wbuild");
  const char *it0 = strstr(log, "launch"), *eager = strstr(log, "k2(10)");
  CHECK(built && ((it0 && it0 < built) || (eager && eager < built)));
  CHECK(harness_count(log, "wbuild") == 1 && harness_count(log, "no status") == 1 &&
        harness_count(log, "wloop(63)") == 1);
  CHECK(same(r, as_written(64)));
  s = harness_whole_loop_summary(&p->wl);
  CHECK(s.graph_runs == 1 && s.graph_iterations == 63 && s.graph_kernels == 126);
  CHECK(s.builds == 1 && s.fallbacks == 0);
  /* other trip counts, odd and even: the pointer the loop leaves with */
  for (int steps = 2; steps <= 9; steps++)
    CHECK(same(run(p, steps), as_written(steps)));
  CHECK(harness_whole_loop_summary(&p->wl).graph_runs == 9 && harness_whole_loop_summary(&p->wl).builds == 1);
  /* one iteration: it leaves at iteration 0's end, nothing launched */
  CHECK(same(run(p, 1), as_written(1)) && harness_whole_loop_summary(&p->wl).graph_runs == 9);
}

/* A fault at the WHILE graph's build or launch: that execution goes on as
 * written from iteration 1 (nothing ran twice: results as written), the
 * loop is off, and later executions run as written (batched). */
static void test_faults(void)
{
  const char *why[] = {"while node", "graph launch"};
  for (int k = 0; k < 2; k++) {
    fake_reset();
    harness_loop_settings(PYGRAPH_MODE_GRAPH, 1);
    struct prog *p = prog_new();
    run(p, 7);
    fake.fail_while_step = k == 0 ? "while node" : NULL;
    fake.fail_launch = k == 1;
    struct result r = run(p, 7);
    fake.fail_while_step = NULL;
    fake.fail_launch = 0;
    CHECK(same(r, as_written(7)));
    struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
    CHECK_STR(s.state, "off");
    CHECK_STR(s.why, why[k]);
    CHECK(s.graph_runs == 0 && s.fallbacks == 1);
    CHECK(same(run(p, 7), as_written(7)));
  }
}

/* Whole loops off: batched as before, no loop state kept. */
static void test_off(void)
{
  fake_reset();
  harness_loop_settings(PYGRAPH_MODE_GRAPH, 0);
  struct prog *p = prog_new();
  fake_log_clear();
  for (int k = 0; k < 3; k++)
    CHECK(same(run(p, 40), as_written(40)));
  CHECK_STR(harness_whole_loop_summary(&p->wl).state, "none");
  CHECK(harness_count(fake_log(), "wbuild") == 0);
}

/* Auto: whole and as written (batched) take turns, whole first; the timed
 * executions as written wait for their stream at the exit; the faster
 * side is kept. */
static void test_auto_choice(void)
{
  for (int whole_wins = 0; whole_wins < 2; whole_wins++) {
    fake_reset();
    struct result want = as_written(20);
    harness_loop_settings(PYGRAPH_MODE_AUTO, 1);
    g_written_us = 10.0;
    fake.while_iteration_host_us = whole_wins ? 2.0 : 15.0;
    struct prog *p = prog_new();
    for (int e = 0; e < 7; e++) {
      fake_log_clear();
      CHECK(same(run(p, 20), want));
      if (e == 1)              /* the first execution timed as written waits at its exit */
        CHECK(harness_count(fake_log(), "sync") == 1 && harness_count(fake_log(), "wloop") == 0);
      const char *w = strstr(fake_log(), "wloop(");
      if (e == 2)              /* a whole execution timed for the choice waits for the GPU */
        CHECK(w && strstr(w, "sync"));
      if (e == 6 && whole_wins)   /* chosen: no longer waited for */
        CHECK(w && !strstr(w, "sync"));
    }
    struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
    CHECK_STR(s.choice, whole_wins ? "whole" : "as written");
    CHECK_STR(s.state, whole_wins ? "ready" : "off");
    CHECK(s.written_us == 10.0 && s.whole_us == (whole_wins ? 2.0 : 15.0));
    CHECK(s.graph_runs == (whole_wins ? 4u : 2u));
  }
  g_written_us = 0.0;
  fake.while_iteration_host_us = 0.0;
}

/* A descriptor without a status must name none: no status operation, no
 * destination, no bytes (else it is malformed and the loop runs as
 * written). */
static void test_descriptor_check(void)
{
  struct prog *p = prog_new();
  CHECK(pygraph_whole_loop_check(&p->wl));
  p->wl.status_bytes = 4;
  CHECK(!pygraph_whole_loop_check(&p->wl));
  p->wl.status_bytes = 0;
  p->wl.status_op = 1;
  CHECK(!pygraph_whole_loop_check(&p->wl));
  p->wl.status_op = NONE;
  p->wl.status_dest = 0;
  CHECK(!pygraph_whole_loop_check(&p->wl));
  p->wl.status_dest = NONE;
  p->wl.status_copy = PYGRAPH_STATUS_NONE + 1;
  CHECK(!pygraph_whole_loop_check(&p->wl));
}

/* Once run whole (graph mode), an integer counted loop's launch is not
 * waited for: no state read back, no synchronization after the launch;
 * the host's answer leaves the counter and the rotated pointer as
 * written.  The next launch waits for it (gsync) before rewriting the
 * condition block's image.  A float test keeps the waiting path. */
static void test_no_wait(void)
{
  fake_reset();
  harness_loop_settings(PYGRAPH_MODE_GRAPH, 1);
  struct prog *p = prog_new();
  CHECK(same(run(p, 6), as_written(6)));
  fake_log_clear();
  CHECK(same(run(p, 64), as_written(64)));
  const char *log = fake_log(), *w = strstr(log, "wloop(63)");
  CHECK(w && !strstr(w, "sync") && harness_count(log, "gsync") == 0);
  for (int steps = 2; steps <= 9; steps++) {
    fake_log_clear();
    CHECK(same(run(p, steps), as_written(steps)));
    w = strstr(fake_log(), "wloop(");
    CHECK(w && !strstr(w, "sync") && harness_count(fake_log(), "gsync") == 1);
  }
  CHECK(harness_whole_loop_summary(&p->wl).graph_runs == 9 && harness_whole_loop_summary(&p->wl).graph_iterations == 63 + 36);
  /* the same test over floats: (float)(1 + i) >= (float)steps waits */
  static const pygraph_exit_node kFloat[] = {
      NODE(COUNTER, I32, NONE, 1, 1), NODE(CAST, F32, PYGRAPH_CAST_SITOFP, 0, 0),
      NODE(INVARIANT, I32, 0, 0, 0), NODE(CAST, F32, PYGRAPH_CAST_SITOFP, 0, 0),
      NODE(CMP, I1, PYGRAPH_CMP_F_OGE, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};
  struct prog *q = prog_new();
  q->wl.nodes = kFloat;
  q->wl.n_nodes = sizeof kFloat / sizeof *kFloat;
  CHECK(same(run(q, 6), as_written(6)));
  fake_log_clear();
  CHECK(same(run(q, 64), as_written(64)));
  w = strstr(fake_log(), "wloop(63)");
  CHECK(w && strstr(w, "sync") && harness_whole_loop_summary(&q->wl).graph_runs == 1);
}

int main(void)
{
  test_descriptor_check();
  test_no_wait();
  test_runs_whole();
  test_faults();
  test_off();
  test_auto_choice();
  return check_finish();
}
