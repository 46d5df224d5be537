/* test_library_realise.c - a library op (PYGRAPH_OP_LIBRARY) in the CUDA
 * layer's graph building (cuda/graph_realise.c, cuda/library_capture.c)
 * run as it is, against the faked CUDA runtime of fake_cudart.c: one
 * child-graph node per library op, with the plan's edges, holding what
 * its call enqueued while a stream of pygraph's own was captured in
 * thread-local mode (the call given that stream); the captured graph
 * freed once the node holds it; every failing step (a CUDA call, the
 * call's own status, an invalidated capture) fails the build with the
 * capture ended and nothing left; a library node is never updated; an
 * eager run gives no stream, and a failing one is reported. */
#include <stdint.h>
#include <stdlib.h>

#include "abi/library_calls.h"
#include "check.h"
#include "cuda/graph_realise.h"
#include "cuda/library_capture.h"
#include "fake_cudart.h"
#include "graphs/graph_plan.h"
#include "recording/op_list.h"
#include "recording/param_cache.h"

#define STREAM(id) ((cudaStream_t)(uintptr_t)(0x100 + (id)))
#define FUNC(id) ((const void *)(uintptr_t)(0xf00 + (id)))

/* The thunk of a fake library function: what it was given, and whether
 * the capture was open on that stream when it ran. */
static struct {
  int calls, fails;                 /* fails: the status it returns (0: success) */
  cudaStream_t stream;
  int capturing;                    /* fcuda_capturing == stream at the call */
  int arg;                          /* the first int of its arguments */
} thunk;

static int fake_run(const void *args, cudaStream_t capture_stream)
{
  thunk.calls++;
  thunk.stream = capture_stream;
  thunk.capturing = capture_stream && fcuda_capturing == capture_stream;
  thunk.arg = *(const int *)args;
  return thunk.fails;
}

static const struct pygraph_library_fn kFn = {"fakeLibraryCall", fake_run, NULL, 0};

struct iteration {
  struct pygraph_op_list ops;
  struct pygraph_graph_plan plan;
  struct pygraph_param_layout *layout;
};

static void add_kernel(struct iteration *it, int id)
{
  int v = id;
  long long p = 0x9000 + id;
  void *args[] = {&v, &p};
  struct pygraph_op op = {.kind = PYGRAPH_OP_KERNEL, .stream = STREAM(1), .func = FUNC(id),
                          .layout = it->layout, .grid = {1, 1, 1}, .block = {32, 1, 1},
                          .wait_link = -1};
  CHECK(pygraph_op_list_copy_args(&it->ops, &op, args) == 0);
  CHECK(pygraph_op_list_append(&it->ops, &op) != NULL);
}

/* kernel 1, the library call (arguments {42, 7}), kernel 2: one stream. */
static void iteration_init(struct iteration *it)
{
  memset(it, 0, sizeof *it);
  it->layout = fcuda_two_param_layout();
  add_kernel(it, 1);
  int args[2] = {42, 7};
  struct pygraph_op lib = {.kind = PYGRAPH_OP_LIBRARY, .stream = STREAM(1), .library = &kFn,
                           .library_args = args, .library_size = sizeof args, .wait_link = -1};
  CHECK(pygraph_op_list_copy_library(&it->ops, &lib) == 0);
  CHECK(pygraph_op_list_append(&it->ops, &lib) != NULL);
  add_kernel(it, 2);
  pygraph_op_list_materialize(&it->ops);
  CHECK(pygraph_graph_plan_make(&it->ops, NULL, &it->plan) == 0);
}

static void iteration_free(struct iteration *it)
{
  pygraph_graph_plan_free(&it->plan);
  pygraph_op_list_free(&it->ops);
  free(it->layout);
}

static int depends_on(const struct CUgraphNode_st *n, const struct CUgraphNode_st *dep)
{
  for (size_t k = 0; k < n->n_deps; k++)
    if (n->deps[k] == dep)
      return 1;
  return 0;
}

/* The first build of the process makes the capture stream: when that
 * fails, so does the build (nothing left); the next build makes it. */
static void test_stream_made_once(void)
{
  struct iteration it;
  iteration_init(&it);
  void *graph = NULL;
  fcuda_reset();
  fcuda_fail_at = 4;     /* graph create, kernel node, current device, the stream */
  CHECK(pygraph_cuda_graph_build(&it.ops, &it.plan, NULL, &graph) == cudaErrorInvalidValue);
  CHECK_STR(fcuda_failed, "cudaStreamCreateWithFlags");
  CHECK(graph == NULL && fcuda_live_graphs == 0 && fcuda_streams_made == 0);
  fcuda_reset();
  CHECK(pygraph_cuda_graph_build(&it.ops, &it.plan, NULL, &graph) == cudaSuccess);
  CHECK(fcuda_streams_made == 1);
  pygraph_cuda_graph_destroy(graph);
  iteration_free(&it);
}

/* kernel, child graph, kernel in a chain; the call captured on a
 * non-blocking stream made once, in thread-local mode; the captured graph
 * given to the node and freed. */
static void test_one_child_node(void)
{
  fcuda_reset();
  memset(&thunk, 0, sizeof thunk);
  struct iteration it;
  iteration_init(&it);
  void *graph = NULL;
  CHECK(pygraph_cuda_graph_build(&it.ops, &it.plan, NULL, &graph) == cudaSuccess);
  struct CUgraph_st *top = fcuda_last_graph;
  CHECK(top->n_nodes == 3);
  if (top->n_nodes == 3) {
    CHECK(top->nodes[0]->kind == FC_KERNEL && top->nodes[2]->kind == FC_KERNEL);
    CHECK(top->nodes[1]->kind == FC_CHILD && top->nodes[1]->child == fcuda_last_captured);
    CHECK(depends_on(top->nodes[1], top->nodes[0]) && top->nodes[1]->n_deps == 1);
    CHECK(depends_on(top->nodes[2], top->nodes[1]) && top->nodes[2]->n_deps == 1);
  }
  CHECK(thunk.calls == 1 && thunk.capturing && thunk.arg == 42);
  CHECK(fcuda_captures_begun == 1 && fcuda_captures_ended == 1 && !fcuda_capturing);
  CHECK(fcuda_capture_mode == cudaStreamCaptureModeThreadLocal);
  CHECK(fcuda_live_graphs == 1);              /* the captured graph went */
  pygraph_cuda_graph_destroy(graph);
  CHECK(fcuda_live_graphs == 0);
  /* a second build captures on the same stream */
  cudaStream_t first = thunk.stream;
  CHECK(pygraph_cuda_graph_build(&it.ops, &it.plan, NULL, &graph) == cudaSuccess);
  CHECK(thunk.calls == 2 && thunk.stream == first);
  CHECK(fcuda_streams_made == 1);
  pygraph_cuda_graph_destroy(graph);
  iteration_free(&it);
}

/* The call failing as it is captured, the capture invalidated: the build
 * fails, the capture ended, nothing left. */
static void test_failed_capture_leaves_nothing(void)
{
  struct iteration it;
  iteration_init(&it);
  void *graph = NULL;
  fcuda_reset();
  memset(&thunk, 0, sizeof thunk);
  thunk.fails = 13;
  CHECK(pygraph_cuda_graph_build(&it.ops, &it.plan, NULL, &graph) != cudaSuccess);
  CHECK(graph == NULL && fcuda_live_graphs == 0 && !fcuda_capturing);
  CHECK(fcuda_captures_ended == fcuda_captures_begun && fcuda_captures_begun == 1);
  fcuda_reset();
  thunk.fails = 0;
  fcuda_capture_invalidated = 1;
  CHECK(pygraph_cuda_graph_build(&it.ops, &it.plan, NULL, &graph) ==
        cudaErrorStreamCaptureInvalidated);
  CHECK(graph == NULL && fcuda_live_graphs == 0 && !fcuda_capturing);
  iteration_free(&it);
}

/* Every CUDA call of the build failing in turn: its error comes back, no
 * graph is left, and no capture stays open. */
static void test_every_call_failing(void)
{
  struct iteration it;
  iteration_init(&it);
  void *graph = NULL;
  fcuda_reset();
  CHECK(pygraph_cuda_graph_build(&it.ops, &it.plan, NULL, &graph) == cudaSuccess);
  pygraph_cuda_graph_destroy(graph);
  unsigned long n = fcuda_calls;
  for (unsigned long k = 1; k <= n; k++) {
    const char *name = fcuda_call_name(k);
    if (!name || strcmp(name, "cudaGraphDestroy") == 0)
      continue;                               /* (cannot fail) */
    fcuda_reset();
    fcuda_fail_at = k;
    graph = NULL;
    cudaError_t err = pygraph_cuda_graph_build(&it.ops, &it.plan, NULL, &graph);
    if (fcuda_failed)
      CHECK(err == cudaErrorInvalidValue);
    CHECK(err != cudaSuccess || !fcuda_failed);
    CHECK(graph == NULL || err == cudaSuccess);
    if (err == cudaSuccess)
      pygraph_cuda_graph_destroy(graph);
    CHECK(fcuda_live_graphs == 0 && !fcuda_capturing);
  }
  iteration_free(&it);
}

/* A library node is not updated; an eager run gives the thunk no stream,
 * and its failure is counted for the report. */
static void test_no_update_and_eager_runs(void)
{
  struct iteration it;
  iteration_init(&it);
  void *graph = NULL;
  fcuda_reset();
  memset(&thunk, 0, sizeof thunk);
  CHECK(pygraph_cuda_graph_build(&it.ops, &it.plan, NULL, &graph) == cudaSuccess);
  CHECK(pygraph_cuda_graph_update_node(graph, 1, &it.ops.ops[1]) == cudaErrorNotSupported);
  pygraph_cuda_graph_destroy(graph);
  CHECK(pygraph_cuda_library_execute(&it.ops.ops[1]) == cudaSuccess);
  CHECK(thunk.stream == NULL && thunk.arg == 42 && fcuda_captures_begun == 1);
  unsigned long long before = pygraph_library_failures();
  thunk.fails = 7;
  CHECK(pygraph_cuda_library_execute(&it.ops.ops[1]) == cudaErrorUnknown);
  CHECK(pygraph_library_failures() == before + 1);
  iteration_free(&it);
}

int main(void)
{
  test_stream_made_once();
  test_one_child_node();
  test_failed_capture_leaves_nothing();
  test_every_call_failing();
  test_no_update_and_eager_runs();
  return check_finish();
}
