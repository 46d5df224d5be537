/* test_while_realise.c - the CUDA layer's WHILE graph building
 * (cuda/while_graph.c over cuda/graph_realise.c) run as it is, against the
 * faked CUDA runtime of fake_cudart.c: the graph's structure (loaders, the
 * WHILE node, its handle, the body's nodes in op order, the status copy
 * made device-to-device, the condition kernel last after the body's sinks
 * with its two parameters), and every CUDA call of the build made to fail
 * in turn: the error and the failing step come back and nothing is left.
 * `pygraph_test_while_realise load` checks a condition module that fails
 * to load (once per process, so in a process of its own). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "common/settings.h"
#include "cuda/device_code.h"
#include "cuda/graph_realise.h"
#include "cuda/while_graph.h"
#include "fake_cudart.h"
#include "graphs/arg_loader.h"
#include "graphs/graph_plan.h"
#include "graphs/indirect.h"
#include "graphs/while_clauses.h"
#include "graphs/while_graph.h"
#include "recording/op_list.h"
#include "recording/param_cache.h"

#define STREAM(id) ((cudaStream_t)(uintptr_t)(0x100 + (id)))
#define FUNC(id) ((const void *)(uintptr_t)(0xf00 + (id)))
#define TWIN ((const void *)(uintptr_t)0x7a1)

/* Op 0: kernel on stream 1; op 1: kernel on stream 2 (no edge to 0);
 * op 2: memset on stream 1; op 3: the status copy on stream 1.  Sinks of
 * the body: ops 1 and 3. */
struct iteration {
  struct pygraph_op_list ops;
  struct pygraph_graph_plan plan;
  struct pygraph_param_layout *layout;
  int host_status;
};

static void add_kernel(struct iteration *it, int id, cudaStream_t s, int v)
{
  long long p = 0x9000 + id;
  void *args[] = {&v, &p};
  struct pygraph_op op = {.kind = PYGRAPH_OP_KERNEL, .stream = s, .func = FUNC(id),
                          .layout = it->layout, .grid = {4, 1, 1}, .block = {64, 1, 1},
                          .wait_link = -1};
  CHECK(pygraph_op_list_copy_args(&it->ops, &op, args) == 0);
  CHECK(pygraph_op_list_append(&it->ops, &op) != NULL);
}

static void iteration_init(struct iteration *it)
{
  memset(it, 0, sizeof *it);
  it->layout = fcuda_two_param_layout();
  add_kernel(it, 1, STREAM(1), 7);
  add_kernel(it, 2, STREAM(2), 8);
  struct pygraph_op ms = {.kind = PYGRAPH_OP_MEMSET, .stream = STREAM(1),
                          .dst = (void *)(uintptr_t)0xd000, .count = 64, .wait_link = -1};
  CHECK(pygraph_op_list_append(&it->ops, &ms) != NULL);
  struct pygraph_op copy = {.kind = PYGRAPH_OP_MEMCPY, .stream = STREAM(1),
                            .dst = &it->host_status, .src = (void *)(uintptr_t)0xe000,
                            .count = sizeof(int), .memcpy_kind = cudaMemcpyDeviceToHost,
                            .wait_link = -1};
  CHECK(pygraph_op_list_append(&it->ops, &copy) != NULL);
  pygraph_op_list_materialize(&it->ops);
  CHECK(pygraph_graph_plan_make(&it->ops, NULL, &it->plan) == 0);
}

static void iteration_free(struct iteration *it)
{
  pygraph_graph_plan_free(&it->plan);
  pygraph_op_list_free(&it->ops);
  free(it->layout);
}

static const struct pygraph_while_spec kSpec = {3, (void *)(uintptr_t)0x5000, 0x140,
                                                (void *)(uintptr_t)0x5100, 0, 0, NULL};

static int depends_on(const struct CUgraphNode_st *n, const struct CUgraphNode_st *dep)
{
  for (size_t k = 0; k < n->n_deps; k++)
    if (n->deps[k] == dep)
      return 1;
  return 0;
}

static void test_structure(void)
{
  fcuda_reset();
  struct iteration it;
  iteration_init(&it);
  void *graph = NULL;
  const char *step = NULL;
  CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, NULL, &kSpec, &graph, &step) ==
        cudaSuccess);
  CHECK(graph != NULL && fcuda_live_graphs == 1);
  /* the top graph: the WHILE node alone (no loaders), its handle made on
   * that graph with 1 applied at every launch */
  struct CUgraph_st *top = fcuda_last_graph;
  CHECK(top->n_nodes == 1 && top->nodes[0]->kind == FC_CONDITIONAL);
  struct CUgraphNode_st *w = top->nodes[0];
  CHECK(w->cond_type == cudaGraphCondTypeWhile && w->cond_size == 1 && w->n_deps == 0);
  CHECK(fcuda_n_handles == 1 && fcuda_last_handle.graph == top);
  CHECK(fcuda_last_handle.default_value == 1 && fcuda_last_handle.flags == cudaGraphCondAssignDefault);
  /* the body: ops 0..3 in op order, then the condition kernel */
  struct CUgraph_st *body = w->body;
  CHECK(body->n_nodes == 5);
  if (body->n_nodes == 5) {
    struct CUgraphNode_st **n = body->nodes;
    CHECK(n[0]->kind == FC_KERNEL && n[0]->func == FUNC(1) && (uint32_t)n[0]->param[0] == 7);
    CHECK(n[1]->kind == FC_KERNEL && n[1]->func == FUNC(2) && n[1]->n_deps == 0);
    CHECK(n[2]->kind == FC_MEMSET && depends_on(n[2], n[0]));
    /* the status copy reads its device source into the condition block */
    CHECK(n[3]->kind == FC_MEMCPY && n[3]->dst == kSpec.status && n[3]->src == (void *)0xe000);
    CHECK(n[3]->copy_kind == cudaMemcpyDeviceToDevice && n[3]->count == sizeof(int));
    CHECK(depends_on(n[3], n[2]));
    /* the condition kernel: one block staging the condition block in its
     * shared memory, (state, handle), after the sinks 1 and 3 */
    struct CUgraphNode_st *c = n[4];
    CHECK(c->kind == FC_KERNEL && c->func == (const void *)FCUDA_CONDITION_KERNEL);
    CHECK(c->grid.x == 1 && c->grid.y == 1 && c->grid.z == 1 &&
          c->block.x == PYGRAPH_WHILE_THREADS && c->block.y == 1 && c->block.z == 1);
    CHECK(c->shared == kSpec.block_bytes);
    CHECK(c->param[0] == (uintptr_t)kSpec.state && c->param[1] == w->handle);
    CHECK(c->n_deps == 2 && depends_on(c, n[1]) && depends_on(c, n[3]));
  }
  /* two streams: the launch's join event */
  CHECK(fcuda_live_events == 1);
  /* instantiated afresh, never in place (PYGRAPH_DOT_DIR: written there
   * as DOT); destroyed: nothing left */
  struct pygraph_settings dots;
  pygraph_settings_defaults(&dots);
  dots.dot_dir = "/tmp/dots";
  pygraph_settings_override(&dots);
  CHECK(pygraph_cuda_graph_instantiate(graph, NULL) == cudaSuccess && fcuda_live_execs == 1);
  char want[64];
  snprintf(want, sizeof want, "/tmp/dots/pygraph-%ld-", (long)getpid());
  CHECK(fcuda_dot_prints == 1 && fcuda_last_dot_path &&
        strncmp(fcuda_last_dot_path, want, strlen(want)) == 0);
  pygraph_settings_defaults(&dots);
  pygraph_settings_override(&dots);
  pygraph_cuda_graph_destroy(graph);
  CHECK(fcuda_live_graphs == 0 && fcuda_live_execs == 0 && fcuda_live_events == 0);
  iteration_free(&it);
}

/* A condition block too large for the shared memory any kernel may get:
 * the condition kernel steps it in place (no dynamic shared memory). */
static void test_large_block_not_staged(void)
{
  fcuda_reset();
  struct iteration it;
  iteration_init(&it);
  struct pygraph_while_spec spec = kSpec;
  void *graph = NULL;
  const char *step = NULL;
  for (size_t bytes = PYGRAPH_WHILE_STAGE_MAX_BYTES; bytes <= PYGRAPH_WHILE_STAGE_MAX_BYTES + 8;
       bytes += 8) {
    spec.block_bytes = bytes;
    CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, NULL, &spec, &graph, &step) ==
          cudaSuccess);
    struct CUgraph_st *body = fcuda_last_graph->nodes[0]->body;
    CHECK(body->n_nodes == 5);
    if (body->n_nodes == 5)
      CHECK(body->nodes[4]->shared == (bytes <= PYGRAPH_WHILE_STAGE_MAX_BYTES ? bytes : 0));
    pygraph_cuda_graph_destroy(graph);
  }
  CHECK(fcuda_live_graphs == 0);
  iteration_free(&it);
}

/* A folded status copy (the iteration's last node) has no body node: the
 * condition kernel follows what the copy followed, and the other sinks. */
static void test_folded_status_copy(void)
{
  fcuda_reset();
  struct iteration it;
  iteration_init(&it);
  struct pygraph_while_spec spec = kSpec;
  spec.status_folded = 1;
  void *graph = NULL;
  const char *step = NULL;
  CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, NULL, &spec, &graph, &step) ==
        cudaSuccess);
  struct CUgraph_st *body = fcuda_last_graph->nodes[0]->body;
  CHECK(body->n_nodes == 4);
  if (body->n_nodes == 4) {
    struct CUgraphNode_st **n = body->nodes;
    for (size_t k = 0; k < 4; k++)
      CHECK(n[k]->kind != FC_MEMCPY);
    struct CUgraphNode_st *c = n[3];
    CHECK(c->kind == FC_KERNEL && c->func == (const void *)FCUDA_CONDITION_KERNEL);
    CHECK(c->n_deps == 2 && depends_on(c, n[1]) && depends_on(c, n[2]));
  }
  pygraph_cuda_graph_destroy(graph);
  CHECK(fcuda_live_graphs == 0);
  iteration_free(&it);
}

/* CG's shape: op 0 kernel (stream 1), op 1 kernel (stream 2), op 2 the
 * status copy (stream 1), then op 3 memset (stream 1), op 4 kernel
 * (stream 1, after op 3), op 5 kernel (stream 2, after op 1). */
static void split_iteration_init(struct iteration *it)
{
  memset(it, 0, sizeof *it);
  it->layout = fcuda_two_param_layout();
  add_kernel(it, 1, STREAM(1), 7);
  add_kernel(it, 2, STREAM(2), 8);
  struct pygraph_op copy = {.kind = PYGRAPH_OP_MEMCPY, .stream = STREAM(1),
                            .dst = &it->host_status, .src = (void *)(uintptr_t)0xe000,
                            .count = sizeof(int), .memcpy_kind = cudaMemcpyDeviceToHost,
                            .wait_link = -1};
  CHECK(pygraph_op_list_append(&it->ops, &copy) != NULL);
  struct pygraph_op ms = {.kind = PYGRAPH_OP_MEMSET, .stream = STREAM(1),
                          .dst = (void *)(uintptr_t)0xd000, .count = 64, .wait_link = -1};
  CHECK(pygraph_op_list_append(&it->ops, &ms) != NULL);
  add_kernel(it, 3, STREAM(1), 9);
  add_kernel(it, 4, STREAM(2), 10);
  pygraph_op_list_materialize(&it->ops);
  CHECK(pygraph_graph_plan_make(&it->ops, NULL, &it->plan) == 0);
}

static const struct pygraph_while_spec kSplitSpec = {2, (void *)(uintptr_t)0x5000, 0x140,
                                                     (void *)(uintptr_t)0x5100, 0, 1, NULL};

/* A body split after the status copy: the ops up to the copy, the
 * after-copy kernel after their sinks, an IF node after it (its handle
 * made on the WHILE body, the graph that holds the IF node, and set by
 * that kernel) holding the ops after the copy with their dependencies
 * among themselves only, and the condition kernel after the IF node. */
static void test_split_after_copy(void)
{
  fcuda_reset();
  struct iteration it;
  split_iteration_init(&it);
  void *graph = NULL;
  const char *step = NULL;
  CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, NULL, &kSplitSpec, &graph, &step) ==
        cudaSuccess);
  struct CUgraph_st *top = fcuda_last_graph;
  CHECK(top->n_nodes == 1 && top->nodes[0]->kind == FC_CONDITIONAL);
  struct CUgraphNode_st *w = top->nodes[0];
  CHECK(w->cond_type == cudaGraphCondTypeWhile);
  struct CUgraph_st *body = w->body;
  CHECK(fcuda_n_handles == 2);
  CHECK(fcuda_handles[0].graph == top && fcuda_handles[0].handle == w->handle &&
        fcuda_handles[0].default_value == 1);
  CHECK(fcuda_handles[1].graph == body && fcuda_handles[1].default_value == 0);
  CHECK(body->n_nodes == 6);
  if (body->n_nodes == 6) {
    struct CUgraphNode_st **n = body->nodes;
    CHECK(n[0]->func == FUNC(1) && n[1]->func == FUNC(2) && n[1]->n_deps == 0);
    CHECK(n[2]->kind == FC_MEMCPY && n[2]->dst == kSplitSpec.status && depends_on(n[2], n[0]));
    /* the after-copy kernel: (state, IF handle), after the sinks 1 and 2 */
    struct CUgraphNode_st *a = n[3];
    CHECK(a->kind == FC_KERNEL && a->func == (const void *)FCUDA_AFTER_COPY_KERNEL);
    CHECK(a->grid.x == 1 && a->block.x == PYGRAPH_WHILE_THREADS &&
          a->shared == kSplitSpec.block_bytes);
    CHECK(a->param[0] == (uintptr_t)kSplitSpec.state && a->param[1] == fcuda_handles[1].handle);
    CHECK(a->n_deps == 2 && depends_on(a, n[1]) && depends_on(a, n[2]));
    /* the IF node after it, nested in the WHILE body */
    struct CUgraphNode_st *f = n[4];
    CHECK(f->kind == FC_CONDITIONAL && f->cond_type == cudaGraphCondTypeIf && f->cond_size == 1);
    CHECK(f->handle == fcuda_handles[1].handle && f->n_deps == 1 && depends_on(f, a));
    struct CUgraph_st *then = f->body;
    CHECK(then && then->n_nodes == 3);
    if (then && then->n_nodes == 3) {
      struct CUgraphNode_st **t = then->nodes;
      CHECK(t[0]->kind == FC_MEMSET && t[0]->n_deps == 0);   /* its copy: by the IF edge */
      CHECK(t[1]->func == FUNC(3) && t[1]->n_deps == 1 && depends_on(t[1], t[0]));
      CHECK(t[2]->func == FUNC(4) && t[2]->n_deps == 0);     /* op 1: by the IF edge */
    }
    /* the condition kernel: (state, WHILE handle), after the IF node */
    struct CUgraphNode_st *c = n[5];
    CHECK(c->func == (const void *)FCUDA_CONDITION_KERNEL && c->param[1] == w->handle);
    CHECK(c->n_deps == 1 && depends_on(c, f));
  }
  pygraph_cuda_graph_destroy(graph);
  CHECK(fcuda_live_graphs == 0 && fcuda_live_events == 0);
  iteration_free(&it);
}

/* A loop with a compiled form (spec.clauses): the step node is the fast
 * kernel, one warp, no shared memory, (state, clauses, handle), where the
 * generic one was (after the sinks; in a split body after the IF node,
 * and the after-copy kernel the fast one too). */
static void test_clauses_kernel(void)
{
  const uintptr_t clauses = 0x6000;
  for (int split = 0; split <= 1; split++) {
    fcuda_reset();
    struct iteration it;
    if (split)
      split_iteration_init(&it);
    else
      iteration_init(&it);
    struct pygraph_while_spec spec = split ? kSplitSpec : kSpec;
    spec.clauses = (const void *)clauses;
    void *graph = NULL;
    const char *step = NULL;
    CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, NULL, &spec, &graph, &step) ==
          cudaSuccess);
    struct CUgraphNode_st *w = fcuda_last_graph->nodes[0];
    struct CUgraph_st *body = w->body;
    size_t n = body->n_nodes;
    CHECK(n == (split ? 6u : 5u));
    if (n == (split ? 6u : 5u)) {
      struct CUgraphNode_st *c = body->nodes[n - 1];
      CHECK(c->kind == FC_KERNEL && c->func == (const void *)FCUDA_CLAUSES_KERNEL);
      CHECK(c->grid.x == 1 && c->block.x == PYGRAPH_CLAUSE_LANES && c->block.y == 1 &&
            c->shared == 0);
      CHECK(c->param[0] == (uintptr_t)spec.state && c->param[1] == clauses &&
            c->param[2] == w->handle);
      CHECK(c->n_deps == (split ? 1u : 2u));
      struct CUgraphNode_st *a = split ? body->nodes[3] : NULL;
      if (a)
        CHECK(a->func == (const void *)FCUDA_AFTER_COPY_CLAUSES_KERNEL &&
              a->block.x == PYGRAPH_CLAUSE_LANES && a->shared == 0 &&
              a->param[0] == (uintptr_t)spec.state && a->param[1] == clauses &&
              a->param[2] == fcuda_handles[1].handle);
    }
    pygraph_cuda_graph_destroy(graph);
    CHECK(fcuda_live_graphs == 0);
    iteration_free(&it);
  }
}

/* The split build's CUDA calls in order, and the step each is reported
 * as when it fails: the error and step come back, nothing is left. */
static const char *const kSplitCalls[][2] = {
    {"cudaGraphCreate", "graph create"},
    {"cudaGraphConditionalHandleCreate", "conditional handle create"},
    {"cudaGraphAddNode", "while node"},
    {"cudaGraphAddKernelNode", "body node"},
    {"cudaGraphAddKernelNode", "body node"},
    {"cudaGraphAddMemcpyNode1D", "body node"},
    {"cudaGraphConditionalHandleCreate", "if handle create"},
    {"cudaGraphAddKernelNode", "after-copy node"},
    {"cudaGraphAddNode", "if node"},
    {"cudaGraphAddMemsetNode", "body node"},
    {"cudaGraphAddKernelNode", "body node"},
    {"cudaGraphAddKernelNode", "body node"},
    {"cudaGraphAddKernelNode", "condition node"},
    {"cudaEventCreateWithFlags", "join event"}};
#define N_SPLIT_CALLS (sizeof kSplitCalls / sizeof kSplitCalls[0])

static void test_split_failures_free_everything(void)
{
  struct iteration it;
  split_iteration_init(&it);
  fcuda_reset();
  void *graph = NULL;
  const char *step;
  CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, NULL, &kSplitSpec, &graph, &step) ==
        cudaSuccess);
  CHECK(fcuda_calls == N_SPLIT_CALLS);
  for (unsigned long k = 1; k <= N_SPLIT_CALLS; k++)
    CHECK_STR(fcuda_call_name(k), kSplitCalls[k - 1][0]);
  pygraph_cuda_graph_destroy(graph);
  for (unsigned long k = 1; k <= N_SPLIT_CALLS; k++) {
    fcuda_reset();
    fcuda_fail_at = k;
    step = NULL;
    CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, NULL, &kSplitSpec, &graph, &step) ==
          cudaErrorInvalidValue);
    CHECK_STR(step, kSplitCalls[k - 1][1]);
    CHECK(graph == NULL && fcuda_live_graphs == 0 && fcuda_live_events == 0);
  }
  iteration_free(&it);
}

/* With indirect nodes: the loaders in the top graph before the WHILE node,
 * the twin in the body reading its slice, no body root after a loader;
 * programmatic edges made full in the body. */
static void test_loaders_and_edges(void)
{
  fcuda_reset();
  struct iteration it;
  iteration_init(&it);
  /* op 2 (memset) follows op 0; mark that edge programmatic */
  CHECK(it.plan.nodes[2].n_deps == 1 && it.plan.nodes[2].deps[0] == 0);
  it.plan.nodes[2].programmatic[0] = 1;
  struct pygraph_indirect_node node = {0, 32, 16, TWIN, 1};
  long node_of_op[4] = {0, -1, -1, -1};
  struct pygraph_indirect in = {&node, 1, 1, node_of_op, 4, 4, 48};
  unsigned char host[256] = {0};
  struct pygraph_loader_chunk chunk = {0, 48, 0};
  struct pygraph_arg_block ab = {(void *)(uintptr_t)0x7000, host, 48, sizeof host, &chunk, 1};
  struct pygraph_indirect_graph ig = {&in, &ab};
  void *graph = NULL;
  const char *step = NULL;
  CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, &ig, &kSpec, &graph, &step) ==
        cudaSuccess);
  struct CUgraph_st *top = fcuda_last_graph;
  CHECK(top->n_nodes == 2);
  if (top->n_nodes == 2) {
    CHECK(top->nodes[0]->kind == FC_KERNEL &&
          top->nodes[0]->func == (const void *)FCUDA_LOADER_KERNEL);
    CHECK(top->nodes[1]->kind == FC_CONDITIONAL && depends_on(top->nodes[1], top->nodes[0]));
    struct CUgraph_st *body = top->nodes[1]->body;
    CHECK(body->n_nodes == 5);
    CHECK(body->nodes[0]->func == TWIN && body->nodes[0]->param[0] == 0x7000 + 32);
    CHECK(body->nodes[0]->n_deps == 0 && body->nodes[1]->n_deps == 0);
    CHECK(body->nodes[2]->n_programmatic == 0 && depends_on(body->nodes[2], body->nodes[0]));
  }
  pygraph_cuda_graph_destroy(graph);
  CHECK(fcuda_live_graphs == 0 && fcuda_live_events == 0);
  /* the same plan in a plain graph keeps its programmatic edge */
  CHECK(pygraph_cuda_graph_build(&it.ops, &it.plan, &ig, &graph) == cudaSuccess);
  CHECK(fcuda_last_graph->nodes[3]->n_programmatic == 1);   /* loader, 0, 1, then op 2 */
  pygraph_cuda_graph_destroy(graph);
  iteration_free(&it);
}

/* The CUDA calls of a WHILE graph's build with one loader (the modules
 * already loaded), in order, and the step each is reported as when it
 * fails. */
static const char *const kBuildCalls[][2] = {
    {"cudaGraphCreate", "graph create"},
    {"cudaGraphAddKernelNode", "argument loaders"},
    {"cudaGraphConditionalHandleCreate", "conditional handle create"},
    {"cudaGraphAddNode", "while node"},
    {"cudaGraphAddKernelNode", "body node"},
    {"cudaGraphAddKernelNode", "body node"},
    {"cudaGraphAddMemsetNode", "body node"},
    {"cudaGraphAddMemcpyNode1D", "body node"},
    {"cudaGraphAddKernelNode", "condition node"},
    {"cudaEventCreateWithFlags", "join event"}};
#define N_BUILD_CALLS (sizeof kBuildCalls / sizeof kBuildCalls[0])

static void test_every_failure_frees_everything(void)
{
  struct iteration it;
  iteration_init(&it);
  struct pygraph_indirect_node node = {0, 0, 16, TWIN, 0};
  long node_of_op[4] = {0, -1, -1, -1};
  struct pygraph_indirect in = {&node, 1, 1, node_of_op, 4, 4, 16};
  unsigned char host[256] = {0};
  struct pygraph_loader_chunk chunk = {0, 16, 0};
  struct pygraph_arg_block ab = {(void *)(uintptr_t)0x7000, host, 16, sizeof host, &chunk, 1};
  struct pygraph_indirect_graph ig = {&in, &ab};
  fcuda_reset();
  void *graph = NULL;
  const char *step;
  CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, &ig, &kSpec, &graph, &step) ==
        cudaSuccess);
  CHECK(fcuda_calls == N_BUILD_CALLS);
  for (unsigned long k = 1; k <= N_BUILD_CALLS; k++)
    CHECK_STR(fcuda_call_name(k), kBuildCalls[k - 1][0]);
  pygraph_cuda_graph_destroy(graph);
  for (unsigned long k = 1; k <= N_BUILD_CALLS; k++) {
    fcuda_reset();
    fcuda_fail_at = k;
    graph = (void *)1;
    step = NULL;
    CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, &ig, &kSpec, &graph, &step) ==
          cudaErrorInvalidValue);
    CHECK_STR(fcuda_failed, kBuildCalls[k - 1][0]);
    CHECK_STR(step, kBuildCalls[k - 1][1]);
    CHECK(graph == NULL);
    CHECK(fcuda_live_graphs == 0 && fcuda_live_events == 0 && fcuda_live_execs == 0);
  }
  /* instantiate failing: the graph stays the caller's, destroyable */
  fcuda_reset();
  CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, &ig, &kSpec, &graph, &step) ==
        cudaSuccess);
  fcuda_fail_at = fcuda_calls + 1;
  CHECK(pygraph_cuda_graph_instantiate(graph, NULL) == cudaErrorInvalidValue);
  CHECK_STR(fcuda_failed, "cudaGraphInstantiate");
  pygraph_cuda_graph_destroy(graph);
  CHECK(fcuda_live_graphs == 0 && fcuda_live_execs == 0 && fcuda_live_events == 0);
  iteration_free(&it);
}

/* The condition module fails to load (its fat binary and its PTX):
 * reported as such, nothing made, and not tried again. */
static int test_load_failure(void)
{
  struct iteration it;
  iteration_init(&it);
  fcuda_reset();
  fcuda_fail_all = "cudaLibraryLoadData";
  void *graph = (void *)1;
  const char *step = NULL;
  CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, NULL, &kSpec, &graph, &step) ==
        cudaErrorInvalidValue);
  CHECK_STR(fcuda_failed, "cudaLibraryLoadData");
  CHECK_STR(step, "condition kernel load");
  CHECK(graph == NULL && fcuda_live_graphs == 0);
  CHECK(fcuda_calls == (pygraph_while_condition_ptx_fatbin_size ? 2u : 1u));
  fcuda_reset();
  CHECK(pygraph_cuda_while_graph_build(&it.ops, &it.plan, NULL, &kSpec, &graph, &step) ==
        cudaErrorInvalidValue);
  CHECK(fcuda_library_loads == 0 && fcuda_calls == 0);
  iteration_free(&it);
  return check_finish();
}

/* An ordinary graph of a kernel launched with a cluster dimension (a
 * cudaLaunchKernelExC attribute a node holds too) and one without: the
 * attribute is set on its node only; failing to set it fails the build
 * and leaves nothing. */
static void test_launch_attributes(void)
{
  for (int fail = 0; fail < 2; fail++) {
    fcuda_reset();
    struct iteration it;
    memset(&it, 0, sizeof it);
    it.layout = fcuda_two_param_layout();
    cudaLaunchAttribute cluster = {.id = cudaLaunchAttributeClusterDimension};
    cluster.val.clusterDim.x = 2;
    cluster.val.clusterDim.y = 1;
    cluster.val.clusterDim.z = 1;
    int v = 3;
    long long p = 0x9001;
    void *args[] = {&v, &p};
    struct pygraph_op op = {.kind = PYGRAPH_OP_KERNEL, .stream = STREAM(1), .func = FUNC(1),
                            .layout = it.layout, .grid = {4, 1, 1}, .block = {64, 1, 1},
                            .wait_link = -1, .n_attrs = 1, .attrs = &cluster};
    CHECK(pygraph_op_list_copy_args(&it.ops, &op, args) == 0);
    CHECK(pygraph_op_list_copy_attrs(&it.ops, &op) == 0);
    CHECK(pygraph_op_list_append(&it.ops, &op) != NULL);
    add_kernel(&it, 2, STREAM(1), 4);
    pygraph_op_list_materialize(&it.ops);
    CHECK(it.ops.ops[0].attrs != &cluster && it.ops.ops[0].attrs->val.clusterDim.x == 2);
    CHECK(pygraph_graph_plan_make(&it.ops, NULL, &it.plan) == 0);
    fcuda_fail_at = fail ? 3 : 0;       /* graph create, kernel node, its attribute */
    void *graph = NULL;
    cudaError_t err = pygraph_cuda_graph_build(&it.ops, &it.plan, NULL, &graph);
    if (fail) {
      CHECK(err != cudaSuccess && fcuda_failed &&
            strcmp(fcuda_failed, "cudaGraphKernelNodeSetAttribute") == 0);
      CHECK(fcuda_live_graphs == 0);
    } else {
      CHECK(err == cudaSuccess && fcuda_last_graph->n_nodes == 2);
      struct CUgraphNode_st *k1 = fcuda_last_graph->nodes[0], *k2 = fcuda_last_graph->nodes[1];
      CHECK(k1->n_attrs == 1 && k1->last_attr == cudaLaunchAttributeClusterDimension &&
            k1->last_attr_val.clusterDim.x == 2);
      CHECK(k2->n_attrs == 0);
      pygraph_cuda_graph_destroy(graph);
      CHECK(fcuda_live_graphs == 0);
    }
    iteration_free(&it);
  }
}

/* The runtime's own device code: its fat binary loaded where one was
 * built and its probe kernel resolves for this GPU; else (the fat binary
 * does not load, or its kernel does not resolve: unloaded again) the PTX,
 * the failure not left behind; the PTX alone where none was built. */
static void test_device_code(void)
{
  static const unsigned char fatbin[16] = {0x50, 0xed, 0x55, 0xba};
  static const char ptx[] = ".version 8.1";
  cudaLibrary_t lib;
  fcuda_reset();
  int loads = fcuda_library_loads, unloads = fcuda_library_unloads;
  CHECK(pygraph_cuda_load_device_code(&lib, fatbin, sizeof fatbin, ptx, "k") == cudaSuccess);
  CHECK(fcuda_last_library_code == fatbin && fcuda_library_loads == loads + 1);
  CHECK(fcuda_calls == 3 && !strcmp(fcuda_call_name(3), "cudaFuncGetAttributes"));
  for (unsigned long failing = 1; failing <= 3; failing++) {
    fcuda_reset();                     /* the load, the kernel, or its resolution fails */
    fcuda_fail_at = failing;
    loads = fcuda_library_loads;
    unloads = fcuda_library_unloads;
    CHECK(pygraph_cuda_load_device_code(&lib, fatbin, sizeof fatbin, ptx, "k") == cudaSuccess);
    CHECK(fcuda_last_library_code == ptx);
    CHECK(fcuda_library_loads == loads + (failing == 1 ? 1 : 2));
    CHECK(fcuda_library_unloads == unloads + (failing == 1 ? 0 : 1));
  }
  fcuda_reset();
  CHECK(pygraph_cuda_load_device_code(&lib, fatbin, 0, ptx, "k") == cudaSuccess);
  CHECK(fcuda_last_library_code == ptx && fcuda_calls == 1);
  fcuda_reset();
  fcuda_fail_at = 1;                   /* no fat binary, and the PTX fails: reported */
  CHECK(pygraph_cuda_load_device_code(&lib, fatbin, 0, ptx, "k") == cudaErrorInvalidValue);
  fcuda_reset();
}

int main(int argc, char **argv)
{
  if (argc == 2 && !strcmp(argv[1], "load"))
    return test_load_failure();
  test_structure();
  test_large_block_not_staged();
  test_device_code();
  test_folded_status_copy();
  test_split_after_copy();
  test_split_failures_free_everything();
  test_clauses_kernel();
  test_loaders_and_edges();
  test_launch_attributes();
  test_every_failure_frees_everything();
  return check_finish();
}
