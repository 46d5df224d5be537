/* test_driver_realise.c - a driver-API launch's op (recording/op.h,
 * `driver`) in the CUDA layer (cuda/driver_launch.c over
 * cuda/graph_realise.c) run as it is, against the faked CUDA runtime and
 * driver entry points of fake_cudart.c: its node is the driver's
 * cuGraphAddKernelNode (the runtime API's kernel node takes no
 * CUfunction) with the plan's edges and its attributes; its update is
 * cuGraphExecKernelNodeSetParams; a failing node call fails the build with
 * nothing left; its eager run is cuLaunchKernel (cuLaunchKernelEx with
 * attributes); the context check. */
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "abi/library_calls.h"
#include "cuda/driver_launch.h"
#include "cuda/graph_realise.h"
#include "fake_cudart.h"
#include "graphs/graph_plan.h"
#include "recording/op_list.h"
#include "recording/param_cache.h"

#define STREAM(id) ((cudaStream_t)(uintptr_t)(0x100 + (id)))
#define FUNC(id) ((const void *)(uintptr_t)(0xf00 + (id)))

struct iteration {
  struct pygraph_op_list ops;
  struct pygraph_graph_plan plan;
  struct pygraph_param_layout *layout;
};

static void add_kernel(struct iteration *it, int id, int driver, int arg,
                       const cudaLaunchAttribute *attr)
{
  long long p = 0x9000 + id;
  void *args[] = {&arg, &p};
  struct pygraph_op op = {.kind = PYGRAPH_OP_KERNEL, .stream = STREAM(1), .func = FUNC(id),
                          .driver = driver, .layout = it->layout, .grid = {3, 1, 1},
                          .block = {32, 1, 1}, .wait_link = -1, .n_attrs = attr ? 1 : 0,
                          .attrs = attr};
  CHECK(pygraph_op_list_copy_args(&it->ops, &op, args) == 0);
  if (attr)
    CHECK(pygraph_op_list_copy_attrs(&it->ops, &op) == 0);
  CHECK(pygraph_op_list_append(&it->ops, &op) != NULL);
}

/* A driver kernel with a cluster dimension, then a runtime-API kernel. */
static void iteration_init(struct iteration *it, int arg)
{
  memset(it, 0, sizeof *it);
  it->layout = fcuda_two_param_layout();
  cudaLaunchAttribute cluster = {.id = cudaLaunchAttributeClusterDimension};
  cluster.val.clusterDim.x = 2;
  cluster.val.clusterDim.y = cluster.val.clusterDim.z = 1;
  add_kernel(it, 1, 1, arg, &cluster);
  add_kernel(it, 2, 0, 5, NULL);
  pygraph_op_list_materialize(&it->ops);
  CHECK(pygraph_graph_plan_make(&it->ops, NULL, &it->plan) == 0);
}

static void iteration_free(struct iteration *it)
{
  pygraph_graph_plan_free(&it->plan);
  pygraph_op_list_free(&it->ops);
  free(it->layout);
}

static void test_driver_node(void)
{
  struct iteration it;
  iteration_init(&it, 7);
  void *graph = NULL;
  fcuda_reset();
  CHECK(pygraph_cuda_graph_build(&it.ops, &it.plan, NULL, &graph) == cudaSuccess);
  struct CUgraph_st *g = fcuda_last_graph;
  CHECK(g && g->n_nodes == 2);
  const struct CUgraphNode_st *d = g->nodes[0], *k = g->nodes[1];
  CHECK(d->driver == 1 && d->func == FUNC(1) && d->grid.x == 3 && d->block.x == 32);
  CHECK(d->param[0] == 7 && d->n_attrs == 1 &&
        d->last_attr == cudaLaunchAttributeClusterDimension &&
        d->last_attr_val.clusterDim.x == 2);
  CHECK(k->driver == 0 && k->func == FUNC(2) && k->n_deps == 1 && k->deps[0] == d);
  CHECK(pygraph_cuda_graph_instantiate(graph, NULL) == cudaSuccess);
  /* A new argument: the driver's node update, with the op's bytes. */
  struct iteration next;
  iteration_init(&next, 11);
  CHECK(pygraph_cuda_graph_update_node(graph, 0, &next.ops.ops[0]) == cudaSuccess);
  CHECK(fcuda_driver_updates == 1 && fcuda_driver_update_param0 == 11);
  pygraph_cuda_graph_destroy(graph);
  CHECK(fcuda_live_graphs == 0 && fcuda_live_execs == 0);
  iteration_free(&next);
  iteration_free(&it);
}

/* Each call of the driver node failing fails the build, nothing left. */
static void test_driver_node_failures(void)
{
  struct iteration it;
  iteration_init(&it, 7);
  const char *steps[] = {"cuGraphAddKernelNode", "cuGraphKernelNodeSetAttribute"};
  for (unsigned s = 0; s < 2; s++) {
    void *graph = NULL;
    fcuda_reset();
    fcuda_fail_at = 2 + s;             /* graph create, then the node's calls */
    CHECK(pygraph_cuda_graph_build(&it.ops, &it.plan, NULL, &graph) != cudaSuccess);
    CHECK_STR(fcuda_failed, steps[s]);
    CHECK(graph == NULL && fcuda_live_graphs == 0);
  }
  iteration_free(&it);
}

static void test_driver_eager(void)
{
  struct iteration it;
  iteration_init(&it, 9);
  fcuda_reset();
  int before = fcuda_driver_launches;
  CHECK(pygraph_cuda_driver_execute(&it.ops.ops[0]) == cudaSuccess);
  CHECK(fcuda_driver_launches == before + 1 && fcuda_driver_launch_param0 == 9 &&
        fcuda_driver_launch_attrs == 1);
  struct pygraph_op plain = it.ops.ops[0];
  plain.n_attrs = 0;
  plain.attrs = NULL;
  fcuda_driver_launch_attrs = 0;
  CHECK(pygraph_cuda_driver_execute(&plain) == cudaSuccess);
  CHECK(fcuda_driver_launches == before + 2 && fcuda_driver_launch_attrs == 0);
  fcuda_reset();
  fcuda_fail_at = 1;
  unsigned long long failed = pygraph_driver_launch_failures();
  CHECK(pygraph_cuda_driver_execute(&plain) == cudaErrorInvalidValue);   /* said on stderr */
  CHECK(pygraph_driver_launch_failures() == failed + 1);                 /* and counted */
  CHECK_STR(fcuda_failed, "cuLaunchKernel");
  iteration_free(&it);
}

static void test_driver_context(void)
{
  CUcontext a = (CUcontext)(uintptr_t)0xa0, b = (CUcontext)(uintptr_t)0xb0;
  fcuda_current_ctx = NULL;
  CHECK(!pygraph_cuda_driver_context_ok(cudaStreamLegacy));       /* no current context */
  fcuda_current_ctx = a;
  CHECK(pygraph_cuda_driver_context_ok(cudaStreamLegacy));
  CHECK(pygraph_cuda_driver_context_ok(cudaStreamPerThread));
  fcuda_stream_ctx = a;
  CHECK(pygraph_cuda_driver_context_ok(STREAM(1)));
  fcuda_stream_ctx = b;
  CHECK(!pygraph_cuda_driver_context_ok(STREAM(1)));              /* another context's */
}

int main(void)
{
  test_driver_node();
  test_driver_node_failures();
  test_driver_eager();
  test_driver_context();
  return check_finish();
}
