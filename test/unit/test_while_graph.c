/* test_while_graph.c - whole loops as one WHILE graph (graphs/while_graph.h)
 * on the fake backend: what the backend is asked to build, the condition
 * block the condition kernel gets (graphs/while_block.h), whole loops run
 * by the fake's WHILE node with the condition kernel's own step
 * (graphs/while_condition.h) against the same loop run eagerly, operands
 * rotated through the argument block, the cap, every refusal, and every
 * failing step leaving nothing allocated. */
#include <stddef.h>
#include <stdlib.h>

#include "check.h"
#include "harness.h"
#include "common/settings.h"
#include "graphs/arg_loader.h"
#include "graphs/graph_plan.h"
#include "graphs/while_graph.h"
#include "port/fault_inject.h"
#include "recording/param_cache.h"
#include "recording/whole_loop.h"

#define NODE(op, type, arg, imm, step) {PYGRAPH_EXIT_##op, PYGRAPH_TYPE_##type, arg, imm, step}
#define NONE PYGRAPH_WL_NONE

/* Invariants: 0 the status destination, 1 maxit (i32), 2 and 3 two
 * buffers a pointer operand rotates between. */
static const unsigned kTypes[] = {PYGRAPH_TYPE_PTR, PYGRAPH_TYPE_I32, PYGRAPH_TYPE_PTR,
                                  PYGRAPH_TYPE_PTR};
static const unsigned kMembers[] = {2, 3};

/* st.remaining == 0, tested right after the copy. */
static const pygraph_exit_node kConverged[] = {
    NODE(FIELD, I32, 0, 0, 0), NODE(CONST, I32, 0, 0, 0), NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0),
    NODE(LEAVE, I1, PYGRAPH_EXIT_AFTER_COPY, 0, 0)};
/* ... || ++it >= maxit at the end of the iteration. */
static const pygraph_exit_node kCapped[] = {
    NODE(FIELD, I32, 0, 0, 0),         NODE(CONST, I32, 0, 0, 0),
    NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AFTER_COPY, 0, 0),
    NODE(COUNTER, I32, NONE, 1, 1),    NODE(INVARIANT, I32, 1, 0, 0),
    NODE(CMP, I1, PYGRAPH_CMP_I_SGE, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};
/* while (st.remaining > 0) { ... }: leave at the top when remaining <= 0. */
static const pygraph_exit_node kAtTop[] = {
    NODE(FIELD, I32, 0, 0, 0), NODE(CONST, I32, 0, 0, 0), NODE(CMP, I1, PYGRAPH_CMP_I_SLE, 0, 0),
    NODE(LEAVE, I1, PYGRAPH_EXIT_AT_TOP, 0, 0)};
/* for (it = 0; it < maxit; it++): leave at the top when it >= maxit. */
static const pygraph_exit_node kCountTop[] = {
    NODE(COUNTER, I32, NONE, 0, 1), NODE(INVARIANT, I32, 1, 0, 0),
    NODE(CMP, I1, PYGRAPH_CMP_I_SGE, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AT_TOP, 0, 0)};
/* Op 0's second parameter rotates between invariants 2 and 3. */
static const pygraph_loop_value kRotation[] = {
    {0, 1, PYGRAPH_EVOLVE_ROTATION, PYGRAPH_TYPE_PTR, 0, NONE, 2, 0, 0},
    {1, 0, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_I32, NONE, NONE, 0, 0, 0}};

static pygraph_whole_loop loop_of(const pygraph_exit_node *nodes, unsigned n, size_t status_op)
{
  pygraph_whole_loop wl;
  memset(&wl, 0, sizeof wl);
  wl.n_ops = 3;
  wl.status_op = (unsigned)status_op;
  wl.status_bytes = sizeof(int);
  wl.n_invariants = 4;
  wl.invariant_types = kTypes;
  wl.n_nodes = n;
  wl.nodes = nodes;
  wl.n_values = 2;
  wl.values = kRotation;
  wl.n_rotation_members = 2;
  wl.rotation_members = kMembers;
  return wl;
}

static void add_kernel(struct pygraph_op_list *l, int v, int *p)
{
  long long target = (long long)(uintptr_t)p;
  void *args[] = {&v, &target};
  static struct pygraph_param_layout *layout;
  if (!layout) {
    layout = pygraph_param_layout_alloc(2);
    layout->params[0].offset = 0;
    layout->params[0].size = 4;
    layout->params[1].offset = 8;
    layout->params[1].size = 8;
    layout->total_size = 16;
  }
  struct pygraph_op op = {.kind = PYGRAPH_OP_KERNEL, .stream = S1, .func = FAKE_FUNC(1),
                          .layout = layout, .grid = {1, 1, 1}, .block = {32, 1, 1},
                          .wait_link = -1};
  CHECK(pygraph_op_list_copy_args(l, &op, args) == 0);
  CHECK(pygraph_op_list_append(l, &op) != NULL);
}

static void add_copy(struct pygraph_op_list *l, void *dst, const void *src, size_t n,
                     enum cudaMemcpyKind kind)
{
  struct pygraph_op op = {.kind = PYGRAPH_OP_MEMCPY, .stream = S1, .dst = dst, .src = src,
                          .count = n, .memcpy_kind = kind, .wait_link = -1};
  CHECK(pygraph_op_list_append(l, &op) != NULL);
}

/* One iteration of the loop the tests run: op 0 adds 1 to *a (the
 * rotating operand), op 1 subtracts 1 from the device status, op 2
 * copies the status to the host. */
struct loop {
  struct pygraph_op_list ops;
  struct pygraph_graph_plan plan;
  int *status;                 /* device: int remaining */
  int *a, *b;                  /* device: the rotation's buffers */
  int host_status;             /* the copy's host destination */
  uint64_t inv[4];
};

static void loop_init(struct loop *lp)
{
  memset(lp, 0, sizeof *lp);
  lp->status = fake_buffer(sizeof(int));
  lp->a = fake_buffer(sizeof(int));
  lp->b = fake_buffer(sizeof(int));
  add_kernel(&lp->ops, 1, lp->a);
  add_kernel(&lp->ops, -1, lp->status);
  add_copy(&lp->ops, &lp->host_status, lp->status, sizeof(int), cudaMemcpyDeviceToHost);
  pygraph_op_list_materialize(&lp->ops);
  CHECK(pygraph_graph_plan_for_capture(&lp->ops, &fake_backend, &lp->plan) == 0);
  lp->inv[0] = (uintptr_t)&lp->host_status;
  lp->inv[2] = (uintptr_t)lp->a;
  lp->inv[3] = (uintptr_t)lp->b;
}

static void loop_free(struct loop *lp)
{
  pygraph_graph_plan_free(&lp->plan);
  pygraph_op_list_free(&lp->ops);
}

static struct pygraph_while_request request_of(struct loop *lp, const pygraph_whole_loop *wl)
{
  return (struct pygraph_while_request){&lp->ops, &lp->plan, NULL, wl, 2, NULL, 0};
}

/* Starts, uploads, launches and reads back one whole-loop run. */
static const struct pygraph_while_state *run(struct pygraph_while_graph *wg, struct loop *lp,
                                             uint64_t first, uint64_t cap)
{
  CHECK(pygraph_while_block_start(&wg->block, lp->inv, &lp->host_status, first, cap));
  CHECK(pygraph_while_block_upload(&wg->block, &fake_backend, S1) == cudaSuccess);
  int ran = 0;
  CHECK(fake_backend.graph_launch(wg->graph, &ran) == cudaSuccess && ran);
  CHECK(pygraph_while_block_read_state(&wg->block, &fake_backend, S1) == cudaSuccess);
  return pygraph_while_block_state(&wg->block);
}

/* The same loop run as the program would, one iteration at a time: its
 * iteration count and the test that left (the host's own evaluation). */
static uint64_t run_eagerly(const pygraph_whole_loop *wl, int remaining, uint64_t maxit,
                            int *test)
{
  uint64_t inv[4] = {0, maxit, 0, 0};
  for (uint64_t i = 0;; i++) {
    if ((*test = pygraph_exit_test_eval(wl, PYGRAPH_EXIT_AT_TOP, &remaining, i, inv)) >= 0)
      return i;
    remaining--;
    if ((*test = pygraph_exit_test_eval(wl, PYGRAPH_EXIT_AFTER_COPY, &remaining, i, inv)) >= 0 ||
        (*test = pygraph_exit_test_eval(wl, PYGRAPH_EXIT_AT_END, &remaining, i, inv)) >= 0)
      return i + 1;
  }
}

static void test_structure_and_convergence(void)
{
  fake_reset();
  struct loop lp;
  loop_init(&lp);
  pygraph_whole_loop wl = loop_of(kConverged, 4, 2);
  struct pygraph_while_request rq = request_of(&lp, &wl);
  struct pygraph_while_graph wg;
  const char *step = NULL;
  CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaSuccess);
  /* one body node per op in op order with the plan's edges, the status copy at 2 (last:
   * folded into the condition step) */
  CHECK_STR(fake_log(), "wbuild(0 1<0 2<1; status 2 folded) inst");
  CHECK(fake_live_graphs == 1 && fake_live_allocs == 1);
  /* the condition kernel's parameter is the block; the copy writes its status */
  CHECK(fake_while_spec.state == wg.block.device);
  CHECK((char *)fake_while_spec.status ==
        (char *)wg.block.device + offsetof(struct pygraph_while_state, status));
  /* the loop fits the compiled form: the fast step kernel over it, the
   * generic kernels staging the block up to it */
  CHECK(fake_while_spec.clauses != NULL &&
        fake_while_spec.clauses == pygraph_while_block_clauses(&wg.block));
  CHECK(fake_while_spec.block_bytes == wg.block.clauses_at);
  /* the block's descriptor copy points into the block itself; the status
   * copy, the iteration's last node, is the condition step's: from its
   * device source */
  const struct pygraph_while_state *img = pygraph_while_block_state(&wg.block);
  CHECK(fake_while_spec.status_folded && img->status_src == (const unsigned char *)lp.status);
  CHECK((const char *)img->loop > (const char *)wg.block.device &&
        (const char *)img->loop < (const char *)wg.block.device + wg.block.size);
  *lp.status = 5;
  lp.host_status = 5;
  fake_log_clear();
  const struct pygraph_while_state *st = run(&wg, &lp, 0, 0);
  CHECK_STR(fake_log(), "cp launch wloop(5) cp sync");
  int test;
  CHECK(st->iteration == run_eagerly(&wl, 5, 0, &test) && st->iteration == 5);
  CHECK(st->outcome == PYGRAPH_WHILE_LEFT && st->exit_test == test && test == 0);
  CHECK(st->exit_where == PYGRAPH_EXIT_AFTER_COPY);
  int final_status;
  memcpy(&final_status, st->status, sizeof final_status);
  CHECK(final_status == 0 && *lp.status == 0);
  CHECK(*lp.a == 5);                    /* the body ran exactly 5 times */
  /* launched again: the state starts over */
  *lp.status = 3;
  lp.host_status = 3;
  st = run(&wg, &lp, 0, 0);
  CHECK(st->iteration == 3 && st->outcome == PYGRAPH_WHILE_LEFT && *lp.a == 8);
  pygraph_while_graph_free(&wg, &fake_backend);
  CHECK(fake_live_graphs == 0 && fake_live_allocs == 0);
  loop_free(&lp);
}

/* st.remaining <= 0 at the end of the iteration. */
static const pygraph_exit_node kEndLeq[] = {
    NODE(FIELD, I32, 0, 0, 0), NODE(CONST, I32, 0, 0, 0), NODE(CMP, I1, PYGRAPH_CMP_I_SLE, 0, 0),
    NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};

/* An operation after the status copy writes the copy's source (op 1
 * takes 11, op 3 gives 10 back): the copy keeps its body node, so the test
 * reads the status as the copy saw it, not as the condition kernel would
 * after op 3. */
static void test_copy_before_a_writer_keeps_its_node(void)
{
  fake_reset();
  struct loop lp;
  memset(&lp, 0, sizeof lp);
  lp.status = fake_buffer(sizeof(int));
  lp.a = fake_buffer(sizeof(int));
  lp.b = fake_buffer(sizeof(int));
  add_kernel(&lp.ops, 1, lp.a);
  add_kernel(&lp.ops, -11, lp.status);
  add_copy(&lp.ops, &lp.host_status, lp.status, sizeof(int), cudaMemcpyDeviceToHost);
  add_kernel(&lp.ops, 10, lp.status);
  pygraph_op_list_materialize(&lp.ops);
  CHECK(pygraph_graph_plan_for_capture(&lp.ops, &fake_backend, &lp.plan) == 0);
  lp.inv[0] = (uintptr_t)&lp.host_status;
  lp.inv[2] = (uintptr_t)lp.a;
  lp.inv[3] = (uintptr_t)lp.b;
  pygraph_whole_loop wl = loop_of(kEndLeq, 4, 2);
  wl.n_ops = 4;
  struct pygraph_while_request rq = request_of(&lp, &wl);
  struct pygraph_while_graph wg;
  const char *step = NULL;
  CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaSuccess);
  CHECK(strstr(fake_log(), "; status 2)") != NULL && !fake_while_spec.status_folded);
  *lp.status = 30;
  lp.host_status = 30;
  const struct pygraph_while_state *st = run(&wg, &lp, 0, 0);
  /* iteration i copies 19 - i: the test at the end of iteration 19 leaves */
  CHECK(st->outcome == PYGRAPH_WHILE_LEFT && st->iteration == 20);
  int final_status;
  memcpy(&final_status, st->status, sizeof final_status);
  CHECK(final_status == 0 && *lp.status == 10 && *lp.a == 20);
  pygraph_while_graph_free(&wg, &fake_backend);
  loop_free(&lp);
}

static void test_counter_cap_and_top(void)
{
  fake_reset();
  struct loop lp;
  loop_init(&lp);
  pygraph_whole_loop wl = loop_of(kCapped, 8, 2);
  struct pygraph_while_request rq = request_of(&lp, &wl);
  struct pygraph_while_graph wg;
  const char *step;
  CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaSuccess);
  int test;
  /* ++it >= maxit leaves first */
  *lp.status = lp.host_status = 100;
  lp.inv[1] = 4;
  const struct pygraph_while_state *st = run(&wg, &lp, 0, 0);
  CHECK(st->iteration == 4 && st->iteration == run_eagerly(&wl, 100, 4, &test));
  CHECK(st->outcome == PYGRAPH_WHILE_LEFT && st->exit_test == 1 && test == 1);
  CHECK(st->exit_where == PYGRAPH_EXIT_AT_END && *lp.status == 96);
  /* entered at iteration 2 (two ran some other way): two more */
  st = run(&wg, &lp, 2, 0);
  CHECK(st->iteration == 4 && *lp.status == 94);
  /* the runtime's own cap stops before the program's */
  lp.inv[1] = 10;
  st = run(&wg, &lp, 0, 3);
  CHECK(st->outcome == PYGRAPH_WHILE_CAP && st->iteration == 3 && st->exit_test == -1);
  CHECK(*lp.status == 91);
  CHECK(!pygraph_while_block_start(&wg.block, lp.inv, &lp.host_status, 3, 3));
  pygraph_while_graph_free(&wg, &fake_backend);
  /* a test at the top: made with the next iteration's number, after the body */
  pygraph_whole_loop top = loop_of(kAtTop, 4, 2);
  rq = request_of(&lp, &top);
  CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaSuccess);
  *lp.status = lp.host_status = 3;
  st = run(&wg, &lp, 0, 0);
  CHECK(st->iteration == 3 && st->iteration == run_eagerly(&top, 3, 0, &test));
  CHECK(st->outcome == PYGRAPH_WHILE_LEFT && st->exit_where == PYGRAPH_EXIT_AT_TOP);
  pygraph_while_graph_free(&wg, &fake_backend);
  /* a counter tested at the top: the number of the iteration to come */
  pygraph_whole_loop count = loop_of(kCountTop, 4, 2);
  rq = request_of(&lp, &count);
  CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaSuccess);
  *lp.status = lp.host_status = 100;
  lp.inv[1] = 6;
  st = run(&wg, &lp, 0, 0);
  CHECK(st->iteration == 6 && st->iteration == run_eagerly(&count, 100, 6, &test));
  CHECK(*lp.status == 94 && st->exit_where == PYGRAPH_EXIT_AT_TOP);
  pygraph_while_graph_free(&wg, &fake_backend);
  CHECK(fake_live_graphs == 0 && fake_live_allocs == 0);
  loop_free(&lp);
}

/* Op 0 reads its arguments from the argument block (an indirect node); the
 * condition kernel rotates its pointer between a and b. */
static void test_rotation_through_the_argument_block(void)
{
  fake_reset();
  struct loop lp;
  loop_init(&lp);
  pygraph_whole_loop wl = loop_of(kConverged, 4, 2);
  struct pygraph_indirect_node node = {0, 0, 16, FAKE_TWIN(1), 0};
  long node_of_op[3] = {0, -1, -1};
  struct pygraph_indirect in = {&node, 1, 1, node_of_op, 3, 3, 16};
  struct pygraph_arg_block ab;
  const char *step;
  CHECK(pygraph_arg_block_create(&ab, &fake_backend, 16, &step) == cudaSuccess);
  struct pygraph_indirect_graph ig = {&in, &ab};
  struct pygraph_while_slot slot = {8, 0, 8};
  int one = 1;
  memcpy(ab.host, &one, sizeof one);
  for (uint64_t first = 0; first < 2; first++) {
    /* the first iteration's operand, written by the host with the kernel's code */
    CHECK(pygraph_while_write_slots(&wl, lp.inv, &slot, 1, ab.host, first));
    struct pygraph_while_request rq = {&lp.ops, &lp.plan, &ig, &wl, 2, &slot, 1};
    struct pygraph_while_graph wg;
    CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaSuccess);
    *lp.a = *lp.b = 0;
    *lp.status = lp.host_status = 5;
    const struct pygraph_while_state *st = run(&wg, &lp, first, 0);
    CHECK(st->iteration == first + 5);
    CHECK(*lp.a == (first ? 2 : 3) && *lp.b == (first ? 3 : 2));
    pygraph_while_graph_free(&wg, &fake_backend);
  }
  pygraph_arg_block_free(&ab, &fake_backend, NULL);
  CHECK(fake_live_graphs == 0 && fake_live_allocs == 0);
  loop_free(&lp);
}

/* The condition kernel's step on its own: order of positions, the first
 * test at a position wins, the slots, a malformed slot. */
static void test_condition_step(void)
{
  fake_reset();
  static const pygraph_exit_node nodes[] = {
      NODE(FIELD, I32, 0, 0, 0), NODE(CONST, I32, 0, 7, 0), NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0),
      NODE(LEAVE, I1, PYGRAPH_EXIT_AT_TOP, 0, 0),
      NODE(FIELD, I32, 0, 0, 0), NODE(CONST, I32, 0, 7, 0), NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0),
      NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0),
      NODE(FIELD, I32, 0, 0, 0), NODE(CONST, I32, 0, 7, 0), NODE(CMP, I1, PYGRAPH_CMP_I_SGE, 0, 0),
      NODE(LEAVE, I1, PYGRAPH_EXIT_AT_END, 0, 0)};
  pygraph_whole_loop wl = loop_of(nodes, 12, 2);
  unsigned char args[16] = {0};
  int status = 0;
  uint64_t inv[4] = {0, 0, 0x1111, 0x2222};
  struct pygraph_while_slot slot = {8, 0, 8};
  struct pygraph_while_block b;
  const char *step;
  CHECK(pygraph_while_block_create(&b, &fake_backend, &wl, &slot, 1, args, sizeof args, &step) ==
        cudaSuccess);
  CHECK(pygraph_while_block_start(&b, inv, &status, 4, 0));
  CHECK(pygraph_while_block_upload(&b, &fake_backend, S1) == cudaSuccess);
  struct pygraph_while_state *s = b.device;    /* the fake's device memory is the host's */
  CHECK(pygraph_while_step(s) == 1 && s->iteration == 5 && s->outcome == PYGRAPH_WHILE_RUNNING);
  uint64_t written;
  memcpy(&written, args + 8, sizeof written);
  CHECK(written == 0x2222);              /* iteration 5: the second member */
  status = 7;                            /* every test says leave */
  memcpy(s->status, &status, sizeof status);
  CHECK(pygraph_while_step(s) == 0 && s->iteration == 6);
  /* the end comes before the top, the first test at the end before the second */
  CHECK(s->outcome == PYGRAPH_WHILE_LEFT && s->exit_test == 1);
  CHECK(s->exit_where == PYGRAPH_EXIT_AT_END);
  status = 9;                            /* only the last test says leave */
  memcpy(s->status, &status, sizeof status);
  s->outcome = PYGRAPH_WHILE_RUNNING;
  CHECK(pygraph_while_step(s) == 0 && s->exit_test == 2);
  /* a loop that ended: the step does nothing more */
  CHECK(pygraph_while_step(s) == 0 && s->iteration == 7 && s->exit_test == 2);
  /* a slot of a malformed size: the step stops, MALFORMED */
  status = 0;
  memcpy(s->status, &status, sizeof status);
  s->outcome = PYGRAPH_WHILE_RUNNING;
  struct pygraph_while_slot *device_slot = (struct pygraph_while_slot *)s->slots;
  device_slot->bytes = 3;
  CHECK(pygraph_while_step(s) == 0 && s->outcome == PYGRAPH_WHILE_MALFORMED);
  pygraph_while_block_free(&b, &fake_backend, NULL);
  CHECK(fake_live_allocs == 0);
}

/* A body split after the status copy: its first kernel's step makes the
 * tests after the copy of the iteration running (leaving counts it), the
 * step after the IF body makes them no more and does nothing once the
 * first one ended the loop. */
static void test_after_copy_step(void)
{
  fake_reset();
  static const pygraph_exit_node nodes[] = {
      NODE(FIELD, I32, 0, 0, 0), NODE(CONST, I32, 0, 7, 0), NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0),
      NODE(LEAVE, I1, PYGRAPH_EXIT_AFTER_COPY, 0, 0),
      NODE(COUNTER, I32, NONE, 0, 1), NODE(CONST, I32, 0, 9, 0),
      NODE(CMP, I1, PYGRAPH_CMP_I_EQ, 0, 0), NODE(LEAVE, I1, PYGRAPH_EXIT_AFTER_COPY, 0, 0)};
  pygraph_whole_loop wl = loop_of(nodes, 8, 2);
  int status = 0;
  uint64_t inv[4] = {0, 0, 0x1111, 0x2222};
  struct pygraph_while_block b;
  const char *step;
  CHECK(pygraph_while_block_create(&b, &fake_backend, &wl, NULL, 0, NULL, 0, &step) ==
        cudaSuccess);
  pygraph_while_block_split_after_copy(&b);
  CHECK(pygraph_while_block_start(&b, inv, &status, 4, 0));
  CHECK(pygraph_while_block_upload(&b, &fake_backend, S1) == cudaSuccess);
  struct pygraph_while_state *s = b.device;
  CHECK(s->after_copy_first == 1);
  CHECK(pygraph_while_test_after_copy(s) == 1 && s->iteration == 4);
  CHECK(s->outcome == PYGRAPH_WHILE_RUNNING);
  status = 7;                            /* the step leaves the tests after the copy alone */
  memcpy(s->status, &status, sizeof status);
  CHECK(pygraph_while_step(s) == 1 && s->iteration == 5 && s->outcome == PYGRAPH_WHILE_RUNNING);
  /* the first test says leave in iteration 5: counted, LEFT after the copy */
  CHECK(pygraph_while_test_after_copy(s) == 0 && s->iteration == 6);
  CHECK(s->outcome == PYGRAPH_WHILE_LEFT && s->exit_test == 0);
  CHECK(s->exit_where == PYGRAPH_EXIT_AFTER_COPY);
  CHECK(pygraph_while_step(s) == 0 && s->iteration == 6 && s->exit_test == 0);
  /* the counter's test, made with the number of the iteration running */
  status = 0;
  memcpy(s->status, &status, sizeof status);
  s->outcome = PYGRAPH_WHILE_RUNNING;
  s->iteration = 8;
  CHECK(pygraph_while_test_after_copy(s) == 1);
  s->iteration = 9;
  CHECK(pygraph_while_test_after_copy(s) == 0 && s->exit_test == 1 && s->iteration == 10);
  /* a malformed test: MALFORMED, the iteration not counted */
  s->outcome = PYGRAPH_WHILE_RUNNING;
  pygraph_exit_node *device_nodes = (pygraph_exit_node *)s->loop->nodes;
  device_nodes[2].arg = 99;              /* no such predicate */
  CHECK(pygraph_while_test_after_copy(s) == 0 && s->outcome == PYGRAPH_WHILE_MALFORMED);
  CHECK(s->iteration == 10);
  pygraph_while_block_free(&b, &fake_backend, NULL);
  CHECK(fake_live_allocs == 0);
}

static void expect_refusal(const struct pygraph_backend *backend,
                           const struct pygraph_while_request *rq, const char *why)
{
  struct pygraph_while_graph wg;
  const char *step = NULL;
  CHECK(pygraph_while_graph_create(&wg, backend, rq, &step) == cudaErrorNotSupported);
  CHECK_STR(step, why);
  CHECK(!wg.graph && !wg.block.device && fake_live_graphs == 0 && fake_live_allocs == 0);
}

static void test_refusals(void)
{
  fake_reset();
  struct loop lp;
  loop_init(&lp);
  pygraph_whole_loop wl = loop_of(kConverged, 4, 2);
  struct pygraph_while_request rq = request_of(&lp, &wl);
  struct pygraph_backend plain = fake_backend;
  plain.while_graph_build = NULL;
  expect_refusal(&plain, &rq, "no WHILE graphs in this backend");
  pygraph_whole_loop bad = wl;
  bad.n_nodes = 3;                                   /* the test never ends */
  rq.wl = &bad;
  expect_refusal(&fake_backend, &rq, "malformed whole-loop descriptor");
  rq.wl = &wl;
  rq.status_op = 1;                                  /* a kernel */
  expect_refusal(&fake_backend, &rq, "the status copy is not a device-to-host copy of the status");
  rq.status_op = 2;
  lp.ops.ops[2].count = 8;
  expect_refusal(&fake_backend, &rq, "the status copy is not a device-to-host copy of the status");
  lp.ops.ops[2].count = sizeof(int);
  loop_free(&lp);

  /* a kernel after the copy, with a test right after the copy: the body
   * is split there (the kernel in an IF body); with the same test at the
   * end of the iteration: one body */
  loop_init(&lp);
  pygraph_op_list_reset(&lp.ops);
  add_copy(&lp.ops, &lp.host_status, lp.status, sizeof(int), cudaMemcpyDeviceToHost);
  add_kernel(&lp.ops, -1, lp.status);
  pygraph_op_list_materialize(&lp.ops);
  pygraph_graph_plan_free(&lp.plan);
  CHECK(pygraph_graph_plan_for_capture(&lp.ops, &fake_backend, &lp.plan) == 0);
  wl = loop_of(kConverged, 4, 0);
  wl.n_values = 0;                                   /* the copy's source stays */
  rq = request_of(&lp, &wl);
  rq.status_op = 0;
  struct pygraph_while_graph wg;
  const char *step;
  fake_log_clear();
  CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaSuccess);
  CHECK_STR(fake_log(), "wbuild(0 1<0; status 0 folded if) inst");   /* the first kernel
                                                                        makes the copy */
  CHECK(fake_while_spec.split_after_copy && fake_while_spec.status_folded);
  CHECK(pygraph_while_block_state(&wg.block)->status_src == (const unsigned char *)lp.status &&
        !pygraph_while_block_state(&wg.block)->status_src_evolves);
  CHECK(pygraph_while_block_state(&wg.block)->after_copy_first == 1);
  pygraph_while_graph_free(&wg, &fake_backend);
  /* kRotation's value 0 made the copy's source (op 0, operand 1): it
   * evolves, the kernels read it from the descriptor */
  wl.n_values = 1;
  fake_log_clear();
  CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaSuccess);
  CHECK_STR(fake_log(), "wbuild(0 1<0; status 0 folded if) inst");
  CHECK(pygraph_while_block_state(&wg.block)->status_src == NULL &&
        pygraph_while_block_state(&wg.block)->status_src_evolves &&
        pygraph_while_block_state(&wg.block)->status_src_value == 0);
  /* a launch whose rotation has a NULL member: no start (the kernels would
   * read the status from NULL) */
  int host_status = 0;
  CHECK(pygraph_while_block_start(&wg.block, lp.inv, &host_status, 0, 0));
  uint64_t null_member[4] = {lp.inv[0], lp.inv[1], lp.inv[2], 0};
  CHECK(!pygraph_while_block_start(&wg.block, null_member, &host_status, 0, 0));
  pygraph_while_graph_free(&wg, &fake_backend);
  wl.n_values = 0;
  pygraph_exit_node at_end[4];
  memcpy(at_end, kConverged, sizeof at_end);
  at_end[3].arg = PYGRAPH_EXIT_AT_END;
  wl.nodes = at_end;
  fake_log_clear();
  CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaSuccess);
  CHECK_STR(fake_log(), "wbuild(0 1<0; status 0) inst");
  CHECK(pygraph_while_block_state(&wg.block)->after_copy_first == 0);
  pygraph_while_graph_free(&wg, &fake_backend);
  wl.n_values = 1;                                   /* a copy node cannot follow a source
                                                        that evolves */
  expect_refusal(&fake_backend, &rq,
                 "the status copy's source changes from iteration to iteration and the copy "
                 "cannot be made by a condition kernel (a device-to-host copy that is the "
                 "iteration's last operation or followed by an exit test)");
  wl.n_values = 0;

  /* an event record node, a copy from host memory, host bytes */
  struct pygraph_op rec = {.kind = PYGRAPH_OP_EVENT_RECORD, .stream = S1, .event = FAKE_EVENT(1),
                           .wait_link = -1};
  CHECK(pygraph_op_list_append(&lp.ops, &rec) != NULL);
  pygraph_graph_plan_free(&lp.plan);
  CHECK(pygraph_graph_plan_for_capture(&lp.ops, &fake_backend, &lp.plan) == 0);
  expect_refusal(&fake_backend, &rq,
                 "an event record or wait node (a conditional body holds kernels, copies, "
                 "memsets and empty nodes)");
  lp.ops.n_ops--;
  add_copy(&lp.ops, lp.status, &lp.host_status, sizeof(int), cudaMemcpyHostToDevice);
  pygraph_graph_plan_free(&lp.plan);
  CHECK(pygraph_graph_plan_for_capture(&lp.ops, &fake_backend, &lp.plan) == 0);
  expect_refusal(&fake_backend, &rq, "a copy or memset touching host memory in the body");
  /* bytes read from the host at the call: the first iteration's only */
  lp.ops.n_ops--;
  struct pygraph_op hb = {.kind = PYGRAPH_OP_HOST_BYTES, .stream = S1, .dst = lp.a,
                          .src = &lp.host_status, .count = sizeof(int), .wait_link = -1};
  CHECK(pygraph_op_list_copy_bytes(&lp.ops, &hb) == 0 && pygraph_op_list_append(&lp.ops, &hb));
  pygraph_op_list_materialize(&lp.ops);
  pygraph_graph_plan_free(&lp.plan);
  CHECK(pygraph_graph_plan_for_capture(&lp.ops, &fake_backend, &lp.plan) == 0);
  expect_refusal(&fake_backend, &rq,
                 "a host-to-device copy in the body (every body iteration would deliver the "
                 "first iteration's bytes)");
  /* a library call: its captured graph a body node; not a collective one */
  lp.ops.n_ops--;
  static int call_args = 7;
  static struct pygraph_library_fn fn = {"fakeLib", NULL, NULL, 0};
  struct pygraph_op lib = {.kind = PYGRAPH_OP_LIBRARY, .stream = S1, .library = &fn,
                           .library_args = &call_args, .library_size = sizeof call_args,
                           .wait_link = -1};
  CHECK(pygraph_op_list_copy_library(&lp.ops, &lib) == 0 &&
        pygraph_op_list_append(&lp.ops, &lib));
  pygraph_op_list_materialize(&lp.ops);
  pygraph_graph_plan_free(&lp.plan);
  CHECK(pygraph_graph_plan_for_capture(&lp.ops, &fake_backend, &lp.plan) == 0);
  CHECK(pygraph_while_refusal(&fake_backend, &rq) == NULL);
  fn.collective = 1;
  expect_refusal(&fake_backend, &rq,
                 "a collective library call in the body (its kernels may span devices, which a "
                 "conditional body cannot hold)");
  loop_free(&lp);
}

static void test_malformed_slots(void)
{
  fake_reset();
  struct loop lp;
  loop_init(&lp);
  pygraph_whole_loop wl = loop_of(kConverged, 4, 2);
  struct pygraph_indirect_node node = {0, 0, 16, FAKE_TWIN(1), 0};
  long node_of_op[3] = {0, -1, -1};
  struct pygraph_indirect in = {&node, 1, 1, node_of_op, 3, 3, 16};
  struct pygraph_arg_block ab;
  const char *step;
  CHECK(pygraph_arg_block_create(&ab, &fake_backend, 16, &step) == cudaSuccess);
  struct pygraph_indirect_graph ig = {&in, &ab};
  const struct pygraph_while_slot bad[] = {
      {12, 0, 8},           /* past the block's 16 bytes */
      {8, 0, 3},            /* no parameter size */
      {8, 1, 4},            /* an invariant operand: nothing to advance */
      {8, 5, 8}};           /* no such operand */
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    struct pygraph_while_request rq = {&lp.ops, &lp.plan, &ig, &wl, 2, &bad[k], 1};
    struct pygraph_while_graph wg;
    CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaErrorInvalidValue);
    CHECK_STR(step, "while block: malformed argument slot");
    CHECK(fake_live_graphs == 0 && fake_live_allocs == 1);   /* the argument block only */
  }
  /* slots without an argument block */
  struct pygraph_while_request rq = {&lp.ops, &lp.plan, NULL, &wl, 2, &bad[0], 1};
  struct pygraph_while_graph wg;
  CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaErrorInvalidValue);
  CHECK_STR(step, "while block: argument slots without an argument block");
  pygraph_arg_block_free(&ab, &fake_backend, NULL);
  loop_free(&lp);
}

/* Every failing step: its error and name come back, nothing stays. */
static void test_failures_free_everything(void)
{
  static const char *const steps[] = {"condition kernel load", "graph create",
                                      "conditional handle create", "while node", "body node",
                                      "condition node"};
  struct loop lp;
  loop_init(&lp);
  pygraph_whole_loop wl = loop_of(kConverged, 4, 2);
  struct pygraph_while_request rq = request_of(&lp, &wl);
  struct pygraph_while_graph wg;
  const char *step;
  for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++) {
    fake_reset();
    fake.fail_while_step = steps[k];
    CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaErrorInvalidValue);
    CHECK_STR(step, steps[k]);
    CHECK(!wg.graph && fake_live_graphs == 0 && fake_live_allocs == 0);
    CHECK_STR(fake_log(), "wbuild!");
  }
  fake_reset();
  fake.fail_instantiate = 1;
  CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaErrorInvalidValue);
  CHECK_STR(step, "while graph instantiate");
  CHECK_STR(fake_log(), "wbuild(0 1<0 2<1; status 2 folded) inst! destroy");
  CHECK(fake_live_graphs == 0 && fake_live_allocs == 0);
  fake_reset();
  fake.fail_device_alloc = 1;
  CHECK(pygraph_while_graph_create(&wg, &fake_backend, &rq, &step) == cudaErrorMemoryAllocation);
  CHECK_STR(step, "while block device alloc");
  CHECK(fake_live_graphs == 0 && fake_live_allocs == 0);
  /* PYGRAPH_FAULT=capture fails a WHILE graph's build too */
  fake_reset();
  unsigned fault_at[PYGRAPH_FAULT_STEPS] = {0};
  fault_at[PYGRAPH_FAULT_CAPTURE] = 1;
  const struct pygraph_backend *faulty = pygraph_fault_install(&fake_backend, fault_at);
  CHECK(pygraph_while_graph_create(&wg, faulty, &rq, &step) == cudaErrorUnknown);
  CHECK_STR(step, "while graph build");
  CHECK(fake_live_graphs == 0 && fake_live_allocs == 0);
  CHECK(pygraph_while_graph_create(&wg, faulty, &rq, &step) == cudaSuccess);   /* the 2nd */
  pygraph_while_graph_free(&wg, faulty);
  unsigned none[PYGRAPH_FAULT_STEPS] = {0};
  pygraph_fault_install(&fake_backend, none);
  loop_free(&lp);
}

/* Is p inside the n bytes at base? */
static int inside(const void *p, const void *base, size_t n)
{
  return (uintptr_t)p >= (uintptr_t)base && (uintptr_t)p - (uintptr_t)base < n;
}

/* The condition kernels' staging (pygraph_while_stage / _unstage): a
 * block copied elsewhere, its pointers moved there, steps exactly as the
 * block itself would, never reading the block (poisoned while the copy
 * steps), and what it wrote goes back: the state's second part, the
 * status it copied from status_src (or the kernel copied in before it,
 * status_src then the copy's own status: every other step here), the
 * next operands into the argument block.  A copy whose descriptor is not
 * inside it is refused. */
static void test_staged_step(void)
{
  fake_reset();
  pygraph_whole_loop wl = loop_of(kCapped, 8, 2);
  unsigned char args_ref[16] = {0}, args[16] = {0};
  int src = 5, status = 0;               /* the status copy's source: remaining */
  uint64_t inv[4] = {0, 7, 0x1111, 0x2222};
  struct pygraph_while_slot slot = {8, 0, 8};
  struct pygraph_while_block ref, b;
  const char *step;
  CHECK(pygraph_while_block_create(&ref, &fake_backend, &wl, &slot, 1, args_ref,
                                   sizeof args_ref, &step) == cudaSuccess);
  CHECK(pygraph_while_block_create(&b, &fake_backend, &wl, &slot, 1, args, sizeof args, &step) ==
        cudaSuccess);
  struct pygraph_while_block *both[2] = {&ref, &b};
  for (int k = 0; k < 2; k++) {
    CHECK(pygraph_while_block_fold_status(both[k], &wl, &src, PYGRAPH_WL_NONE));
    CHECK(pygraph_while_block_start(both[k], inv, &status, 0, 0));
    CHECK(pygraph_while_block_upload(both[k], &fake_backend, S1) == cudaSuccess);
  }
  struct pygraph_while_state *r = ref.device, *d = b.device;
  size_t bytes = d->block_bytes;
  CHECK(bytes == b.clauses_at && bytes % 8 == 0 && bytes >= sizeof *d);   /* less the form */
  uint64_t *stage = malloc(bytes), *saved = malloc(bytes);
  unsigned steps = 0, more = 1;
  while (more && steps < 20) {
    memcpy(stage, d, bytes);
    struct pygraph_while_state *s = (struct pygraph_while_state *)stage;
    CHECK(pygraph_while_stage(s, (uintptr_t)d) == 1);
    CHECK(inside(s->loop, stage, bytes) && inside(s->invariants, stage, bytes) &&
          inside(s->slots, stage, bytes) && inside(s->loop->nodes, stage, bytes) &&
          inside(s->loop->values, stage, bytes) && inside(s->loop->invariant_types, stage, bytes) &&
          inside(s->loop->rotation_members, stage, bytes));
    CHECK(s->args == args && s->status_src == (const unsigned char *)&src);
    if (steps % 2) {                     /* as the kernel stages it: the status copied in */
      memcpy(s->status, &src, sizeof src);
      s->status_src = s->status;
      src = -1;                          /* the step must not read the source again */
    }
    memcpy(saved, d, bytes);
    memset(d, 0xa5, bytes);              /* the staged step must not read the block */
    more = pygraph_while_step(s);
    memcpy(d, saved, bytes);
    pygraph_while_unstage(d, s, 0);
    if (steps % 2)
      memcpy(&src, s->status, sizeof src);
    CHECK(pygraph_while_step(r) == more);
    CHECK(d->iteration == r->iteration && d->outcome == r->outcome &&
          d->exit_test == r->exit_test && d->exit_where == r->exit_where);
    CHECK(memcmp(d->status, r->status, sizeof(int)) == 0);
    CHECK(memcmp(args, args_ref, sizeof args) == 0);
    steps++;
    src--;
  }
  /* remaining 5, 4, ..., 0: the sixth step's copy says leave */
  CHECK(steps == 6 && d->outcome == PYGRAPH_WHILE_LEFT && d->exit_test == 0);
  memcpy(&status, d->status, sizeof status);
  CHECK(status == 0);
  /* a copy whose descriptor lies outside it: refused */
  memcpy(stage, d, bytes);
  ((struct pygraph_while_state *)stage)->block_bytes = sizeof *d;
  CHECK(pygraph_while_stage((struct pygraph_while_state *)stage, (uintptr_t)d) == 0);
  memcpy(stage, d, bytes);
  ((struct pygraph_while_state *)stage)->loop = &wl;
  CHECK(pygraph_while_stage((struct pygraph_while_state *)stage, (uintptr_t)d) == 0);
  free(stage);
  free(saved);
  pygraph_while_block_free(&ref, &fake_backend, NULL);
  pygraph_while_block_free(&b, &fake_backend, NULL);
  CHECK(fake_live_allocs == 0);
}

int main(void)
{
  test_copy_before_a_writer_keeps_its_node();
  test_structure_and_convergence();
  test_counter_cap_and_top();
  test_rotation_through_the_argument_block();
  test_condition_step();
  test_after_copy_step();
  test_staged_step();
  test_refusals();
  test_malformed_slots();
  test_failures_free_everything();
  return check_finish();
}
