/* test_whole_loop_run.c - whole loops run end to end through the
 * whole-loop protocol (abi/whole_loop.h) on the fake backend, as the pass
 * instruments them: enter at the preheader, try at the top of every
 * iteration (an answer k >= 0 goes to test k's exit with the loop's
 * values recomputed from the iteration it left in), the operations routed
 * (and checked while the loop is observed), the iteration's region begun
 * and ended around its launches, the status copy after the region's end,
 * exit on every way out.
 *
 * The loop: op 0 adds 1 to the buffer x (x and y swap every iteration: a
 * rotation between invariants 2 and 3), op 1 subtracts 1 from the device
 * status, op 2 copies the status to the host; it leaves after the copy
 * when the status is `stop` (test 0), or at the end when ++it >= maxit
 * (test 1).  Every run is compared with the same loop run as written
 * (whole loops off): iterations, the host's status, counter and pointer,
 * the buffers. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/policy.h"
#include "harness.h"
#include "whole_loop_harness.h"
#include "abi/record.h"
#include "abi/report.h"
#include "abi/report_json.h"
#include "abi/whole_loop.h"

#define NODE(op, type, arg, imm, step) {PYGRAPH_EXIT_##op, PYGRAPH_TYPE_##type, arg, imm, step}
#define NONE PYGRAPH_WL_NONE

static const unsigned kTypes[] = {PYGRAPH_TYPE_PTR, PYGRAPH_TYPE_I32, PYGRAPH_TYPE_PTR,
                                  PYGRAPH_TYPE_PTR};
static const unsigned kMembers[] = {2, 3};
static const pygraph_exit_node kTests[] = {
    NODE(FIELD, I32, 0, 0, 0),          NODE(CONST, I32, 0, 0, 0),
    NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AFTER_COPY, 0, 0),
    NODE(COUNTER, I32, NONE, 1, 1),     NODE(INVARIANT, I32, 1, 0, 0),
    NODE(CMP, I1, PYGRAPH_CMP_I_SGE, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};
static const pygraph_loop_value kValues[] = {
    {0, 0, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_I32, NONE, NONE, 0, 0, 0},
    {0, 1, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 2, 0, 0},
    {1, 0, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_I32, NONE, NONE, 0, 0, 0},
    {1, 1, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_PTR, NONE, NONE, 0, 0, 0},
    {2, 1, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_PTR, NONE, NONE, 0, 0, 0}};

/* while (status > 0) { ... }: one test, at the top. */
static const pygraph_exit_node kTop[] = {
    NODE(FIELD, I32, 0, 0, 0), NODE(CONST, I32, 0, 0, 0), NODE(CMP, I1, PYGRAPH_CMP_I_SLE, 0, 0),
    NODE(LEAVE, I1, PYGRAPH_EXIT_AT_TOP, 0, 0)};
/* The same operands with x invariant (no rotation). */
static const pygraph_loop_value kFixed[] = {
    {0, 0, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_I32, NONE, NONE, 0, 0, 0},
    {0, 1, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_PTR, NONE, NONE, 0, 0, 0},
    {1, 0, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_I32, NONE, NONE, 0, 0, 0},
    {1, 1, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_PTR, NONE, NONE, 0, 0, 0},
    {2, 1, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_PTR, NONE, NONE, 0, 0, 0}};

/* One program loop: its descriptor (a fresh one per test: states are kept
 * per descriptor for the process), its region and sites. */
struct prog {
  pygraph_whole_loop wl;
  pygraph_region *region;
  pygraph_site site0, site1;
  int *status, *a, *b;           /* device */
  int host_status;
  int stop;                      /* the program leaves after the copy when status == stop */
  int add;                       /* what op 0 adds (an invariant operand of a kernel that
                                    also has a rotating one) */
  int sub;                       /* what op 1 adds to the status (op 1 evolves nothing: a
                                    direct node, its operands baked into the graph) */
  int rotate;                    /* the program swaps x and y (0: a planted violation) */
  int elsewhere;                 /* the copy goes to `other`, not the descriptor's destination */
  int other;
  int *dest;                     /* the status destination (&host_status, or another local) */
  int op_after_copy;             /* op 3 (adds 2 to y, in the region's segment 1) runs after
                                    the copy's exit test: CG's shape (split_prog) */
};

struct result {
  uint64_t iterations;           /* the loop's iterations (it, counted by the program) */
  int host_status, a, b, x_is_a, exit_test;
};

static struct prog *prog_new(void)
{
  struct prog *p = calloc(1, sizeof *p);
  p->wl.line_begin = 30;
  p->wl.line_end = 40;
  p->wl.n_ops = 3;
  p->wl.status_op = 2;
  p->wl.status_copy = PYGRAPH_STATUS_MEMCPY;
  p->wl.status_bytes = sizeof(int);
  p->wl.n_invariants = 4;
  p->wl.invariant_types = kTypes;
  p->wl.n_nodes = 8;
  p->wl.nodes = kTests;
  p->wl.n_values = 5;
  p->wl.values = kValues;
  p->wl.n_rotation_members = 2;
  p->wl.rotation_members = kMembers;
  p->region = harness_region("converge", 1);
  p->region->whole_loop = &p->wl;
  p->site0 = (pygraph_site){"relax", "test.cu", 31, 2, FAKE_TWIN(1)};
  p->site1 = (pygraph_site){"check", "test.cu", 32, 2, FAKE_TWIN(2)};
  p->status = fake_buffer(sizeof(int));
  p->a = fake_buffer(sizeof(int));
  p->b = fake_buffer(sizeof(int));
  p->rotate = 1;
  p->add = 1;
  p->sub = -1;
  p->dest = &p->host_status;
  return p;
}

/* A routed launch: observed, then recorded or run ("CUDA"). */

/* Host time each status copy waits (the auto-mode tests' clock). */
static double g_written_us;

/* The routed synchronous status copy (a barrier: no region open). */
static void status_copy(struct prog *p)
{
  int *dst = p->elsewhere ? &p->other : p->dest;
  if (pygraph_whole_loop_observing()) {
    struct pygraph_op op = {.kind = PYGRAPH_OP_MEMCPY, .stream = cudaStreamLegacy, .dst = dst,
                            .src = p->status, .count = sizeof(int),
                            .memcpy_kind = cudaMemcpyDeviceToHost, .wait_link = -1};
    pygraph_whole_loop_observe(&fake_backend, &op, NULL);
  }
  *dst = *p->status;
  fake_host_us += g_written_us;
  if (p->elsewhere)
    *p->dest = p->other;         /* the program's own code: the test still reads *dest */
}

/* The loop as the pass leaves it; `start`: the device status at entry. */
static struct result run(struct prog *p, int start, int maxit)
{
  *p->status = start;
  *p->a = *p->b = 0;
  *p->dest = -1;
  unsigned long long inv[4] = {(uintptr_t)p->dest, (unsigned)maxit, (uintptr_t)p->a,
                               (uintptr_t)p->b};
  int *x = p->a, *y = p->b;
  int it = 0, k;
  pygraph_whole_loop_enter_with(&fake_backend, p->region, &p->wl, inv);
  for (;;) {
    unsigned long long left;
    if ((k = pygraph_whole_loop_try_with(&fake_backend, p->region, &p->wl, &left)) >= 0) {
      /* the exit of test k, its values as they are there in iteration `left` */
      it = k == 0 ? (int)left : (int)left + 1;
      x = (int *)(uintptr_t)inv[kMembers[left % 2]];
      pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull << k);
      break;
    }
    begin(p->region, 0);
    harness_loop_kernel(&p->site0, 1, p->add, x);
    harness_loop_kernel(&p->site1, 2, p->sub, p->status);
    end(p->region);
    status_copy(p);
    if (*p->dest == p->stop) {
      k = 0;
      pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull << 0);
      break;
    }
    if (p->op_after_copy) {
      begin(p->region, 1);
      harness_loop_kernel(&p->site0, 3, 2, y);
      end(p->region);
    }
    if (++it >= maxit) {
      k = 1;
      pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull << 1);
      break;
    }
    if (p->rotate) {
      int *t = x;
      x = y;
      y = t;
    }
  }
  return (struct result){(uint64_t)it, *p->dest, *p->a, *p->b, x == p->a, k};
}

/* Regions in graph mode whose graphs update nodes one by one (so that the
 * only argument refreshes are the WHILE graph's), whole loops on or off. */
/* while (host status > 0) { the same iteration, it++ }: the test at the
 * top, before the iteration's first operation; entered with the status
 * `start` in the destination. */
static struct result run_top(struct prog *p, int start)
{
  *p->status = start;
  *p->a = *p->b = 0;
  p->host_status = start;
  unsigned long long inv[4] = {(uintptr_t)&p->host_status, 0, (uintptr_t)p->a,
                               (uintptr_t)p->b};
  int *x = p->a, *y = p->b;
  int it = 0, k;
  pygraph_whole_loop_enter_with(&fake_backend, p->region, &p->wl, inv);
  for (;; ++it) {
    unsigned long long left;
    if ((k = pygraph_whole_loop_try_with(&fake_backend, p->region, &p->wl, &left)) >= 0) {
      it = (int)left;            /* the header's counter in the iteration that did not start */
      x = (int *)(uintptr_t)inv[kMembers[left % 2]];
      pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull << k);
      break;
    }
    if (p->host_status <= 0) {
      k = 0;
      pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull << 0);
      break;
    }
    begin(p->region, 0);
    harness_loop_kernel(&p->site0, 1, 1, x);
    harness_loop_kernel(&p->site1, 2, -1, p->status);
    end(p->region);
    status_copy(p);
    int *t = x;
    x = y;
    y = t;
  }
  return (struct result){(uint64_t)it, p->host_status, *p->a, *p->b, x == p->a, k};
}


static void whole_loops(int on)
{
  harness_loop_settings(PYGRAPH_MODE_GRAPH, on);
}

/* The same loop run as written (whole loops off), on its own buffers. */
static struct result as_written(int start, int maxit, int stop)
{
  int on = pygraph_settings()->whole_loops;
  whole_loops(0);
  struct prog *q = prog_new();
  q->stop = stop;
  struct result r = run(q, start, maxit);
  whole_loops(on);
  return r;
}

static int same(struct result x, struct result y)
{
  return x.iterations == y.iterations && x.host_status == y.host_status && x.a == y.a &&
         x.b == y.b && x.x_is_a == y.x_is_a && x.exit_test == y.exit_test;
}



/* Warm-up, then the WHILE graph from iteration 1 on: everything as the
 * loop run as written leaves it. */
static void test_runs_whole(void)
{
  fake_reset();
  whole_loops(1);
  struct prog *p = prog_new();
  /* first execution: run as written and checked */
  struct result r = run(p, 5, 100);
  CHECK(same(r, as_written(5, 100, 0)) && r.iterations == 4 && r.exit_test == 0);
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK_STR(s.state, "ready");
  CHECK(s.executions == 1 && s.observed == 5 && s.graph_runs == 0 && s.builds == 0);
  CHECK_STR(s.condition, "-");          /* no graph yet */
  CHECK(harness_count(fake_log(), "wbuild") == 0);
  /* second: iteration 0 as written, iterations 1-4 in one launch */
  fake_log_clear();
  r = run(p, 5, 100);
  CHECK(same(r, as_written(5, 100, 0)));
  CHECK(harness_count(fake_log(), "wbuild") == 1 && harness_count(fake_log(), "wloop(4)") == 1);
  s = harness_whole_loop_summary(&p->wl);
  CHECK(s.graph_runs == 1 && s.graph_iterations == 4 && s.graph_kernels == 8 && s.launches == 1);
  CHECK(s.builds == 1 && s.fallbacks == 0 && s.observed == 6);
  CHECK_STR(s.condition, "compiled");   /* its tests fit the fast step kernel */
  CHECK(s.condition_why == NULL);
  /* again, another length and odd: the pointer the loop leaves with */
  for (int start = 2; start <= 9; start++) {
    r = run(p, start, 100);
    CHECK(same(r, as_written(start, 100, 0)));
  }
  s = harness_whole_loop_summary(&p->wl);
  CHECK(s.builds == 1 && s.graph_runs == 9 && s.executions == 10);
  /* one iteration only: the program leaves after iteration 0, nothing to launch */
  r = run(p, 1, 100);
  CHECK(same(r, as_written(1, 100, 0)) && harness_whole_loop_summary(&p->wl).graph_runs == 9);
}

/* A loop inside its region's loop: the region's segment begun before the
 * loop is open at the entry, and the one begun after the status copy
 * (op 3) is open at the top of the next iteration with op 3 deferred.  The
 * nested loop's descriptor has 4 operations: op 0, op 1, the copy, op 3
 * (adds 2 to y); both tests at the end (a test right after the copy splits
 * the body: test_test_after_copy_with_operations_after). */
static const pygraph_exit_node kEndTests[] = {
    NODE(FIELD, I32, 0, 0, 0),          NODE(CONST, I32, 0, 0, 0),
    NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0),
    NODE(COUNTER, I32, NONE, 1, 1),     NODE(INVARIANT, I32, 1, 0, 0),
    NODE(CMP, I1, PYGRAPH_CMP_I_SGE, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};
static const pygraph_loop_value kNestedValues[] = {
    {0, 0, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_I32, NONE, NONE, 0, 0, 0},
    {0, 1, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 2, 0, 0},
    {1, 0, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_I32, NONE, NONE, 0, 0, 0},
    {1, 1, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_PTR, NONE, NONE, 0, 0, 0},
    {2, 1, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_PTR, NONE, NONE, 0, 0, 0},
    {3, 0, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_I32, NONE, NONE, 0, 0, 0},
    {3, 1, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 2, 1, 0}};

static struct result run_nested(struct prog *p, int start, int maxit)
{
  *p->status = start;
  *p->a = *p->b = 0;
  *p->dest = -1;
  unsigned long long inv[4] = {(uintptr_t)p->dest, (unsigned)maxit, (uintptr_t)p->a,
                               (uintptr_t)p->b};
  int *x = p->a, *y = p->b;
  int it = 0, k;
  begin(p->region, 0);                  /* the enclosing loop's segment, open */
  pygraph_whole_loop_enter_with(&fake_backend, p->region, &p->wl, inv);
  for (;;) {
    unsigned long long left;
    if ((k = pygraph_whole_loop_try_with(&fake_backend, p->region, &p->wl, &left)) >= 0) {
      it = (int)left + 1;
      x = (int *)(uintptr_t)inv[kMembers[left % 2]];
      pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull << k);
      break;
    }
    harness_loop_kernel(&p->site0, 1, p->add, x);
    harness_loop_kernel(&p->site1, 2, p->sub, p->status);
    end(p->region);                     /* the status copy is a barrier */
    status_copy(p);
    begin(p->region, 1);                /* after the copy: open across the back edge */
    harness_loop_kernel(&p->site0, 3, 2, y);
    if (*p->dest == p->stop) {
      k = 0;
      it++;
      pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull << 0);
      break;
    }
    if (++it >= maxit) {
      k = 1;
      pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull << 1);
      break;
    }
    int *t = x;
    x = y;
    y = t;
  }
  end(p->region);
  return (struct result){(uint64_t)it, *p->dest, *p->a, *p->b, x == p->a, k};
}

static struct prog *nested_prog(void)
{
  struct prog *p = prog_new();
  p->wl.nested = 1;
  p->wl.n_ops = 4;
  p->wl.n_values = 7;
  p->wl.values = kNestedValues;
  p->wl.nodes = kEndTests;
  p->region->n_segments = 2;
  return p;
}

static void test_nested_loop(void)
{
  fake_reset();
  whole_loops(0);
  struct result want[3];
  for (int k = 0; k < 3; k++)
    want[k] = run_nested(nested_prog(), 5 + k, 100);
  whole_loops(1);
  struct prog *p = nested_prog();
  for (int k = 0; k < 3; k++) {
    fake_log_clear();
    struct result r = run_nested(p, 5 + k, 100);
    CHECK(same(r, want[k]));
    /* the region's deferred op 3 ran before the WHILE graph, nothing after */
    const char *loop = strstr(fake_log(), "wloop(");
    CHECK(k == 0 || (loop && strcmp(strchr(loop, ')'), ") cp sync") == 0));
  }
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK_STR(s.why, "-");
  CHECK_STR(s.state, "ready");
  CHECK(s.graph_runs == 2 && s.builds == 1 && s.fallbacks == 0);
  CHECK(pygraph_open_region_depth() == 0);
  /* entered inside another region: runs as written, nothing kept */
  struct prog *q = nested_prog();
  pygraph_region *other = harness_region("other", 1);
  begin(other, 0);
  struct result r = run_nested(q, 5, 100);
  end(other);
  CHECK(same(r, want[0]));
  CHECK_STR(harness_whole_loop_summary(&q->wl).state, "none");
}

/* CG's shape: a test right after the status copy with an operation after
 * it.  The loop: op 0, op 1, the copy, then test 0 (status == stop) right
 * after it, op 3 (adds 2 to y, the other member of the rotation: its own
 * segment of the region), test 1 (++it >= maxit) at the end.  Its WHILE
 * body is split (graphs/while_graph.h): op 3 is an IF node's body, skipped
 * in the iteration test 0 leaves. */
static struct prog *split_prog(void)
{
  struct prog *p = prog_new();
  p->op_after_copy = 1;
  p->wl.n_ops = 4;
  p->wl.n_values = 7;
  p->wl.values = kNestedValues;
  p->region->n_segments = 2;
  return p;
}

static struct result split_as_written(int start, int maxit)
{
  int on = pygraph_settings()->whole_loops;
  whole_loops(0);
  struct result r = run(split_prog(), start, maxit);
  whole_loops(on);
  return r;
}

/* Run whole, it leaves as the loop run as written does: by test 0 (op 3
 * not run in that iteration: the IF body skipped once) or by the cap at
 * the end (never skipped). */
static void test_test_after_copy_with_operations_after(void)
{
  fake_reset();
  whole_loops(1);
  struct prog *p = split_prog();
  struct result r = run(p, 5, 100);
  CHECK(same(r, split_as_written(5, 100)) && r.iterations == 4 && r.exit_test == 0);
  CHECK(r.a + r.b == 5 + 2 * 4);            /* op 3 did not run in the iteration that left */
  CHECK_STR(harness_whole_loop_summary(&p->wl).state, "ready");
  fake_log_clear();
  r = run(p, 5, 100);
  CHECK(same(r, split_as_written(5, 100)));
  CHECK(harness_count(fake_log(), "wbuild(0 1<0 2<1 3<2; status 2 folded if;") == 1);
  CHECK(harness_count(fake_log(), "ifskip") == 1 && harness_count(fake_log(), "wloop(4)") == 1);
  for (int start = 2; start <= 9; start++) {
    r = run(p, start, 100);
    CHECK(same(r, split_as_written(start, 100)) && r.exit_test == 0);
  }
  /* the cap at the end: op 3 runs in every iteration, the last one too */
  fake_log_clear();
  r = run(p, 100, 6);
  CHECK(same(r, split_as_written(100, 6)) && r.exit_test == 1 && r.iterations == 6);
  CHECK(r.a + r.b == 6 + 2 * 6 && harness_count(fake_log(), "ifskip") == 0);
  CHECK(harness_count(fake_log(), "wloop(5)") == 1);
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK_STR(s.why, "-");
  CHECK(s.builds == 1 && s.fallbacks == 0 && s.graph_runs == 10);
}

/* The program's own cap (++it >= maxit) ends the graph's loop: test 1 at
 * the end of the iteration. */
static void test_counter_cap(void)
{
  fake_reset();
  whole_loops(1);
  struct prog *p = prog_new();
  struct result r = run(p, 100, 6);
  CHECK(same(r, as_written(100, 6, 0)) && r.exit_test == 1 && r.iterations == 6);
  r = run(p, 100, 6);
  CHECK(same(r, as_written(100, 6, 0)) && harness_whole_loop_summary(&p->wl).graph_runs == 1);
  r = run(p, 100, 3);              /* another cap: an invariant, no rebuild */
  CHECK(same(r, as_written(100, 3, 0)) && harness_whole_loop_summary(&p->wl).builds == 1);
  CHECK(harness_whole_loop_summary(&p->wl).graph_iterations == 5 + 2);
}

/* A loop too short to be checked enough stays warming; one checked
 * enough over two executions is ready: 3 iterations at least, and more
 * than a rotation has members. */
static void test_checked_enough(void)
{
  fake_reset();
  whole_loops(1);
  struct prog *p = prog_new();
  run(p, 2, 100);                  /* 2 iterations: fewer than a rotation of 2 needs */
  CHECK_STR(harness_whole_loop_summary(&p->wl).state, "warming");
  run(p, 1, 100);
  CHECK_STR(harness_whole_loop_summary(&p->wl).state, "ready");
  CHECK(harness_whole_loop_summary(&p->wl).observed == 3);
  struct prog *q = prog_new();     /* no rotation: the floor of 3 */
  q->wl.values = kFixed;
  q->rotate = 0;
  run(q, 1, 100);
  run(q, 1, 100);
  CHECK_STR(harness_whole_loop_summary(&q->wl).state, "warming");
  run(q, 1, 100);
  CHECK_STR(harness_whole_loop_summary(&q->wl).state, "ready");
}

/* A test at the top ends the graph's loop before an iteration it does not
 * start: the loop leaves in that iteration (the counter is its number). */
static void test_leaves_at_top(void)
{
  fake_reset();
  whole_loops(1);
  struct prog *p = prog_new();
  p->wl.nodes = kTop;
  p->wl.n_nodes = 4;
  struct prog *q = prog_new();
  q->wl = p->wl;
  q->region->whole_loop = &q->wl;
  whole_loops(0);
  struct result plain = run_top(q, 5);
  whole_loops(1);
  CHECK(same(run_top(p, 5), plain) && plain.iterations == 5);
  fake_log_clear();
  CHECK(same(run_top(p, 5), plain));
  CHECK(harness_count(fake_log(), "wloop(4)") == 1 && harness_whole_loop_summary(&p->wl).graph_runs == 1);
  for (int start = 0; start <= 3; start++) {
    whole_loops(0);
    plain = run_top(q, start);
    whole_loops(1);
    CHECK(same(run_top(p, start), plain) && plain.iterations == (uint64_t)start);
  }
}

/* A pointer that does not rotate as the descriptor says: off during the
 * warm-up, the program's own results kept, never a graph. */
static void test_pattern_violation(void)
{
  fake_reset();
  whole_loops(1);
  struct prog *p = prog_new();
  p->rotate = 0;
  struct result r = run(p, 5, 100);
  CHECK(r.iterations == 4 && r.a == 5 && r.b == 0);   /* as the program wrote it */
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK_STR(s.state, "off");
  CHECK_STR(s.why, "an operand off its evolution");
  for (int k = 0; k < 3; k++)
    r = run(p, 5, 100);
  CHECK(r.a == 5 && harness_whole_loop_summary(&p->wl).graph_runs == 0 && harness_whole_loop_summary(&p->wl).executions == 1);
  CHECK(harness_count(fake_log(), "wbuild") == 0);
}

/* A status copy into another place than the descriptor's destination:
 * off during the warm-up (the graph would write the status elsewhere). */
static void test_copy_elsewhere(void)
{
  fake_reset();
  whole_loops(1);
  struct prog *p = prog_new();
  p->elsewhere = 1;
  struct result r = run(p, 5, 100);
  CHECK(same(r, as_written(5, 100, 0)));
  CHECK_STR(harness_whole_loop_summary(&p->wl).state, "off");
  CHECK_STR(harness_whole_loop_summary(&p->wl).why, "the status copy is not the descriptor's");
  run(p, 5, 100);
  CHECK(harness_whole_loop_summary(&p->wl).graph_runs == 0);
}

/* Exit tests that disagree with the program, either way: off. */
static void test_exit_disagrees(void)
{
  fake_reset();
  whole_loops(1);
  /* the program leaves at status 2, the descriptor says 0: caught where it left */
  struct prog *p = prog_new();
  p->stop = 2;
  struct result r = run(p, 5, 100);
  CHECK(same(r, as_written(5, 100, 2)) && r.iterations == 2);
  CHECK_STR(harness_whole_loop_summary(&p->wl).state, "off");
  CHECK_STR(harness_whole_loop_summary(&p->wl).why, "the loop left where no exit test says leave");
  /* the program goes on past status 0 (it stops at -2): caught where it went on */
  struct prog *q = prog_new();
  q->stop = -2;
  r = run(q, 3, 100);
  CHECK(same(r, as_written(3, 100, -2)) && r.iterations == 4);
  CHECK_STR(harness_whole_loop_summary(&q->wl).why, "an exit test says leave where the program went on");
  /* an exit the tests do not lead to (the mask): off */
  struct prog *e = prog_new();
  run(e, 5, 100);
  run(e, 5, 100);                  /* ready, graph */
  CHECK(harness_whole_loop_summary(&e->wl).graph_runs == 1);
  whole_loops(1);
  struct prog *m = prog_new();
  unsigned long long inv[4] = {(uintptr_t)&m->host_status, 100, (uintptr_t)m->a,
                               (uintptr_t)m->b};
  *m->status = 1;
  unsigned long long left;
  pygraph_whole_loop_enter_with(&fake_backend, m->region, &m->wl, inv);
  CHECK(pygraph_whole_loop_try_with(&fake_backend, m->region, &m->wl, &left) == -1);
  harness_loop_kernel(&m->site0, 1, 1, m->a);
  harness_loop_kernel(&m->site1, 2, -1, m->status);
  status_copy(m);
  pygraph_whole_loop_exit_impl(m->region, &m->wl, 1ull << 1);   /* test 0 left, not 1 */
  CHECK_STR(harness_whole_loop_summary(&m->wl).why, "the loop left by another exit than its exit tests say");
}

/* A ready loop entered with other buffers: its iteration 0 differs from
 * the graph's, so that execution runs as written, is checked and makes
 * the next graph. */
static void test_changed_buffers(void)
{
  fake_reset();
  whole_loops(1);
  struct prog *p = prog_new();
  run(p, 5, 100);
  run(p, 5, 100);
  CHECK(harness_whole_loop_summary(&p->wl).graph_runs == 1);
  p->status = fake_buffer(sizeof(int));   /* another status buffer: op 1 and the copy */
  struct result r = run(p, 5, 100);
  CHECK(same(r, as_written(5, 100, 0)));
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK(s.graph_runs == 1 && s.fallbacks == 1);
  CHECK_STR(s.why, "the first iteration differs from the graph's");
  fake_log_clear();
  r = run(p, 5, 100);
  CHECK(same(r, as_written(5, 100, 0)));
  s = harness_whole_loop_summary(&p->wl);
  CHECK(s.graph_runs == 2 && s.builds == 2 && harness_count(fake_log(), "destroy") == 0);
  /* another status destination (a local of another call): the same graph */
  int elsewhere;
  p->dest = &elsewhere;
  r = run(p, 7, 100);
  CHECK(same(r, as_written(7, 100, 0)) && harness_whole_loop_summary(&p->wl).builds == 2);
  CHECK(harness_whole_loop_summary(&p->wl).graph_runs == 3 && harness_whole_loop_summary(&p->wl).fallbacks == 1);
  p->dest = &p->host_status;
  /* other rotating buffers are invariants: the same graph runs them */
  p->a = fake_buffer(sizeof(int));
  p->b = fake_buffer(sizeof(int));
  r = run(p, 6, 100);
  CHECK(same(r, as_written(6, 100, 0)) && harness_whole_loop_summary(&p->wl).builds == 2);
  CHECK(harness_whole_loop_summary(&p->wl).graph_runs == 4);
}

/* An invariant operand of a kernel whose other operand rotates (a
 * tolerance, a step) differs from one execution to the next: the same
 * graph runs each execution with its own value, no fallback, no rebuild. */
static void test_invariant_operand_per_execution(void)
{
  fake_reset();
  whole_loops(1);
  struct prog *p = prog_new();
  run(p, 5, 100);
  run(p, 5, 100);
  CHECK(harness_whole_loop_summary(&p->wl).graph_runs == 1 && harness_whole_loop_summary(&p->wl).builds == 1);
  for (int add = 2; add <= 4; add++) {
    p->add = add;
    struct prog *q = prog_new();      /* the same loop run as written */
    q->add = add;
    int on = pygraph_settings()->whole_loops;
    whole_loops(0);
    struct result want = run(q, 6, 100);
    whole_loops(on);
    struct result r = run(p, 6, 100);
    CHECK(same(r, want) && r.a + r.b == 6 * add);
  }
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK(s.graph_runs == 4 && s.builds == 1 && s.fallbacks == 0);
  /* op 1's operand is baked into the graph: another value runs as written */
  p->sub = -2;
  struct prog *q = prog_new();
  q->add = p->add;
  q->sub = -2;
  whole_loops(0);
  struct result want = run(q, 8, 100);
  whole_loops(1);
  struct result r = run(p, 8, 100);
  CHECK(same(r, want));
  s = harness_whole_loop_summary(&p->wl);
  CHECK(s.graph_runs == 4 && s.fallbacks == 1);
}

/* Faults at build and launch: the loop goes on as written from the
 * iteration the graph would have begun with, nothing run twice or lost;
 * off for good. */
static void test_faults(void)
{
  const char *why[] = {"while node", "graph launch", "argument refresh"};
  for (int k = 0; k < 3; k++) {
    fake_reset();
    whole_loops(1);
    struct prog *p = prog_new();
    run(p, 5, 100);
    fake.fail_while_step = k == 0 ? "while node" : NULL;
    fake.fail_launch = k == 1;
    fake.fail_args_at = k == 2 ? 1 : 0;
    int allocs = fake_live_allocs;
    struct result r = run(p, 5, 100);
    fake.fail_while_step = NULL;
    fake.fail_launch = 0;
    fake.fail_args_at = 0;
    CHECK(same(r, as_written(5, 100, 0)));
    struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
    CHECK_STR(s.state, "off");
    CHECK_STR(s.why, why[k]);
    CHECK(s.graph_runs == 0 && s.fallbacks == 1 && s.launches == 0);
    CHECK(harness_count(fake_log(), "wloop") == 0);
    CHECK(fake_live_allocs == allocs);   /* the WHILE graph's blocks, freed */
    r = run(p, 5, 100);
    CHECK(same(r, as_written(5, 100, 0)));
  }
}

/* PYGRAPH_WHOLE_LOOPS=0 and PYGRAPH_MODE=eager: the loop runs as written,
 * nothing is kept of it; a try with no loop entered runs as written. */
static void test_off(void)
{
  fake_reset();
  whole_loops(0);
  struct prog *p = prog_new();
  for (int k = 0; k < 3; k++)
    CHECK(same(run(p, 5, 100), as_written(5, 100, 0)));
  CHECK_STR(harness_whole_loop_summary(&p->wl).state, "none");
  harness_settings(PYGRAPH_MODE_EAGER, 1, 16);
  struct prog *q = prog_new();
  for (int k = 0; k < 3; k++)
    run(q, 5, 100);
  CHECK_STR(harness_whole_loop_summary(&q->wl).state, "none");
  CHECK(!pygraph_whole_loop_observing());
  unsigned long long left = 7;
  CHECK(pygraph_whole_loop_try_with(&fake_backend, q->region, &q->wl, &left) == -1 &&
        left == 7);
  /* a descriptor not on the region's list is not taken */
  whole_loops(1);
  struct prog *r = prog_new();
  r->region->whole_loop = NULL;
  run(r, 5, 100);
  CHECK_STR(harness_whole_loop_summary(&r->wl).state, "none");
}

/* Auto mode: whole loops on, regions left to their own choice; each
 * iteration run as written costs the host `written_us` (its synchronous
 * status copy waits for the GPU), each WHILE body iteration `whole_us`. */
static void auto_whole_loops(double written_us, double whole_us)
{
  harness_loop_settings(PYGRAPH_MODE_AUTO, 1);
  g_written_us = written_us;
  fake.while_iteration_host_us = whole_us;
}

/* The choice: the WHILE graph and the loop as written take turns by
 * execution, as written first, two timed executions each; then the faster
 * one for good.  Every execution's results are the loop's as written. */
static void test_auto_keeps_faster_whole(void)
{
  fake_reset();
  struct result want = as_written(9, 100, 0);
  auto_whole_loops(20.0, 5.0);
  struct prog *p = prog_new();
  const char *kinds = "AWAWWW";  /* after the warming execution */
  CHECK(same(run(p, 9, 100), want));
  for (const char *k = kinds; *k; k++) {
    unsigned long long runs = harness_whole_loop_summary(&p->wl).graph_runs;
    CHECK(same(run(p, 9, 100), want));
    CHECK(harness_whole_loop_summary(&p->wl).graph_runs == runs + (*k == 'W'));
  }
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK_STR(s.state, "ready");
  CHECK_STR(s.choice, "whole");
  CHECK(s.whole_us == 5.0 && s.written_us == 20.0);
  CHECK(s.graph_runs == 4 && s.executions == 7);
}

static void test_auto_turns_off_slower_whole(void)
{
  fake_reset();
  struct result want = as_written(9, 100, 0);
  auto_whole_loops(20.0, 30.0);
  struct prog *p = prog_new();
  for (int e = 0; e < 7; e++)
    CHECK(same(run(p, 9, 100), want));
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK_STR(s.state, "off");
  CHECK_STR(s.choice, "as written");
  CHECK_STR(s.why, "the WHILE graph is slower than the loop as written");
  CHECK(s.whole_us == 30.0 && s.written_us == 20.0);
  CHECK(s.graph_runs == 2 && s.executions == 5);   /* off: not entered any more */
  /* a clear loss (the WHILE graph twice as slow or worse) after one
   * execution of each side */
  fake_reset();
  auto_whole_loops(20.0, 40.0);
  p = prog_new();
  for (int e = 0; e < 5; e++)
    CHECK(same(run(p, 9, 100), want));
  s = harness_whole_loop_summary(&p->wl);
  CHECK_STR(s.state, "off");
  CHECK(s.graph_runs == 1 && s.executions == 3);
  /* a loop as written below a WHILE body's floor (its n_ops nodes
   * and the condition kernel, PYGRAPH_WL_NODE_FLOOR_US each) is not tried
   * whole, however fast the WHILE graph would be; just above the floor it
   * is */
  double floor_us = PYGRAPH_WL_NODE_FLOOR_US * (double)(p->wl.n_ops + 1);
  for (int above = 0; above < 2; above++) {
    fake_reset();
    auto_whole_loops(above ? floor_us * 1.25 : floor_us * 0.9, floor_us / 4);
    p = prog_new();
    for (int e = 0; e < 6; e++)
      CHECK(same(run(p, 9, 100), want));
    s = harness_whole_loop_summary(&p->wl);
    CHECK_STR(s.state, above ? "ready" : "off");
    CHECK(s.graph_runs == (above ? 3u : 0u));
    if (!above)
      CHECK_STR(s.why, "the loop as written is as fast as a WHILE graph of its nodes can be");
  }
  /* a tie goes to the loop as written too */
  fake_reset();
  auto_whole_loops(20.0, 20.0);
  p = prog_new();
  for (int e = 0; e < 6; e++)
    CHECK(same(run(p, 9, 100), want));
  CHECK_STR(harness_whole_loop_summary(&p->wl).state, "off");
  /* PYGRAPH_MODE=graph runs whole, slower or not */
  fake_reset();
  whole_loops(1);
  fake.while_iteration_host_us = 30.0;
  p = prog_new();
  for (int e = 0; e < 6; e++)
    CHECK(same(run(p, 9, 100), want));
  CHECK(harness_whole_loop_summary(&p->wl).graph_runs == 5);
  CHECK_STR(harness_whole_loop_summary(&p->wl).choice, "undecided");
  g_written_us = 0.0;
}

/* The JSON report lists the loop with the text line's fields, and its
 * WHILE graphs' kernels count in the totals. */
/* CG's shape with its ping-pong: the status copy's source rotates.  Op 0
 * adds -2 to cur, the copy reads cur, test 0 (status == 0) right after
 * it, op 2 adds 1 to other (the IF body), test 1 (++it >= maxit) at the
 * end, then cur and other swap.  The WHILE graph's kernels read each
 * iteration's source from the descriptor: a wrong buffer changes where the
 * loop leaves. */
static const pygraph_loop_value kPingPongValues[] = {
    {0, 0, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_I32, NONE, NONE, 0, 0, 0},
    {0, 1, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 2, 0, 0},
    {1, 1, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 2, 0, 0},   /* the source */
    {2, 0, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_I32, NONE, NONE, 0, 0, 0},
    {2, 1, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 2, 1, 0}};

static struct prog *pingpong_prog(void)
{
  struct prog *p = prog_new();
  p->wl.status_op = 1;
  p->wl.n_values = sizeof kPingPongValues / sizeof kPingPongValues[0];
  p->wl.values = kPingPongValues;
  p->region->n_segments = 2;
  return p;
}

static void pingpong_copy(struct prog *p, int *cur)
{
  if (pygraph_whole_loop_observing()) {
    struct pygraph_op op = {.kind = PYGRAPH_OP_MEMCPY, .stream = cudaStreamLegacy, .dst = p->dest,
                            .src = cur, .count = sizeof(int),
                            .memcpy_kind = cudaMemcpyDeviceToHost, .wait_link = -1};
    pygraph_whole_loop_observe(&fake_backend, &op, NULL);
  }
  *p->dest = *cur;
}

static struct result run_pingpong(struct prog *p, int start_a, int start_b, int maxit)
{
  *p->a = start_a;
  *p->b = start_b;
  *p->dest = -1;
  unsigned long long inv[4] = {(uintptr_t)p->dest, (unsigned)maxit, (uintptr_t)p->a,
                               (uintptr_t)p->b};
  int *cur = p->a, *other = p->b;
  int it = 0, k;
  pygraph_whole_loop_enter_with(&fake_backend, p->region, &p->wl, inv);
  for (;;) {
    unsigned long long left;
    if ((k = pygraph_whole_loop_try_with(&fake_backend, p->region, &p->wl, &left)) >= 0) {
      it = k == 0 ? (int)left : (int)left + 1;
      cur = (int *)(uintptr_t)inv[kMembers[left % 2]];
      pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull << k);
      break;
    }
    begin(p->region, 0);
    harness_loop_kernel(&p->site0, 1, -2, cur);
    end(p->region);
    pingpong_copy(p, cur);
    if (*p->dest == 0) {
      k = 0;
      pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull << 0);
      break;
    }
    begin(p->region, 1);
    harness_loop_kernel(&p->site1, 2, 1, other);
    end(p->region);
    if (++it >= maxit) {
      k = 1;
      pygraph_whole_loop_exit_impl(p->region, &p->wl, 1ull << 1);
      break;
    }
    int *t = cur;
    cur = other;
    other = t;
  }
  return (struct result){(uint64_t)it, *p->dest, *p->a, *p->b, cur == p->a, k};
}

static struct result pingpong_as_written(int start_a, int start_b, int maxit)
{
  int on = pygraph_settings()->whole_loops;
  whole_loops(0);
  struct result r = run_pingpong(pingpong_prog(), start_a, start_b, maxit);
  whole_loops(on);
  return r;
}

/* Run whole, the ping-pong loop leaves where it does as written, by the
 * buffer of either parity and by the cap, its status copy folded into the
 * split body's first kernel (no copy node). */
static void test_status_source_rotates(void)
{
  fake_reset();
  whole_loops(1);
  struct prog *p = pingpong_prog();
  struct result r = run_pingpong(p, 5, 9, 100);   /* copied: 3 8 2 7 1 6 0 */
  CHECK(same(r, pingpong_as_written(5, 9, 100)) && r.iterations == 6 && r.exit_test == 0);
  CHECK_STR(harness_whole_loop_summary(&p->wl).state, "ready");
  fake_log_clear();
  r = run_pingpong(p, 5, 9, 100);
  CHECK(same(r, pingpong_as_written(5, 9, 100)) && r.iterations == 6);
  CHECK(harness_count(fake_log(), "wbuild(0 1<0 2<1; status 1 folded if;") == 1);
  CHECK(harness_count(fake_log(), "wloop(6)") == 1 && harness_count(fake_log(), "ifskip") == 1);
  CHECK_STR(harness_whole_loop_summary(&p->wl).condition, "compiled");
  for (int a = 2; a <= 7; a++)                    /* leaves by a, or by b: odd iterations */
    for (int b = 1; b <= 7; b += 3) {
      r = run_pingpong(p, a, b, 100);
      CHECK(same(r, pingpong_as_written(a, b, 100)));
    }
  r = run_pingpong(p, 50, 60, 7);                 /* the cap */
  CHECK(same(r, pingpong_as_written(50, 60, 7)) && r.exit_test == 1 && r.iterations == 7);
  struct pygraph_whole_loop_summary s = harness_whole_loop_summary(&p->wl);
  CHECK_STR(s.why, "-");
  CHECK(s.builds == 1 && s.fallbacks == 0 && s.graph_runs == 17);   /* a == 2 leaves in
                                                                        iteration 0 */
}

static void test_report_json(void)
{
  fake_reset();
  whole_loops(1);
  struct prog *p = prog_new();
  run(p, 5, 100);
  run(p, 5, 100);
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CHECK(pygraph_report_write_json(f, pygraph_settings(), 0, 1) == 0);
  fclose(f);
  CHECK(strstr(text, "\"whole_loops\": [") != NULL);
  /* this test's loop entered last: the last entry */
  const char *last = NULL;
  for (const char *q = text; (q = strstr(q, "\"function\": \"converge\"")) != NULL; q++)
    last = q;
  CHECK(last != NULL);
  if (last) {
    CHECK(strstr(last, "\"state\": \"ready\"") != NULL);
    CHECK(strstr(last, "\"graph_runs\": 1,") != NULL);
    CHECK(strstr(last, "\"graph_kernels\": 8,") != NULL);
    CHECK(strstr(last, "\"executions\": 2,") != NULL);
  }
  free(text);
}

static void test_report_line(void)
{
  struct prog *p = prog_new();
  struct pygraph_whole_loop_summary s = {p->region, &p->wl, "ready", "-", 3, 7, 2, 9, 18, 2, 1,
                                         0, 1, "whole", 4.5, 12.25, "compiled", NULL};
  char line[512];
  pygraph_report_format_whole_loop(line, sizeof line, &s);
  CHECK_STR(line, "pygraph: whole loop converge test.cu:30-40: state=ready executions=3 "
                  "observed=7 graph_runs=2 graph_iters=9 launches=2 builds=1 fallbacks=0 busy=1 "
                  "choice=\"whole\" whole_us=4.50 written_us=12.25 condition=\"compiled\" "
                  "why=\"-\"\n");
  s.condition = "generic";
  s.condition_why = "an exit test of more than 6 compares";
  pygraph_report_format_whole_loop(line, sizeof line, &s);
  CHECK(strstr(line, " condition=\"generic: an exit test of more than 6 compares\" why=") != NULL);
}

int main(void)
{
  test_runs_whole();
  test_counter_cap();
  test_checked_enough();
  test_leaves_at_top();
  test_pattern_violation();
  test_exit_disagrees();
  test_copy_elsewhere();
  test_changed_buffers();
  test_invariant_operand_per_execution();
  test_nested_loop();
  test_test_after_copy_with_operations_after();
  test_status_source_rotates();
  test_report_json();
  test_auto_keeps_faster_whole();
  test_auto_turns_off_slower_whole();
  test_faults();
  test_off();
  test_report_line();
  return check_finish();
}
