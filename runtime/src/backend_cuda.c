/* backend_cuda.c - eager execution and explicit graph construction.
 *
 * Graphs are built node by node (never by stream capture) so that a user's
 * stream need not be capturable; graph_plan.c decides the edges. */
#include "backend_cuda.h"

#include <stdlib.h>
#include <time.h>

#include "driver_api.h"
#include "graph_plan.h"
#include "indirect.h"

struct cuda_graph {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaGraphNode_t *nodes;            /* one per op, in op order */
  size_t n_nodes;
  cudaStream_t *streams;             /* streams[0]: the one the graph launches on */
  size_t n_streams;
  cudaEvent_t join_event;            /* only when several streams are involved */
  /* Parameter indirection: the memcpy node refreshing the device block. */
  cudaGraphNode_t staging_node;      /* NULL when the graph has no indirect nodes */
  void *staging_dst;
  size_t staging_size;
};

static cudaError_t execute(const struct pygraph_op *op)
{
  switch (op->kind) {
  case PYGRAPH_OP_KERNEL:
    return cudaLaunchKernel(op->func, op->grid, op->block, op->arg_ptrs, op->shmem, op->stream);
  case PYGRAPH_OP_MEMSET:
    return cudaMemsetAsync(op->dst, op->value, op->count, op->stream);
  case PYGRAPH_OP_MEMCPY:
    return cudaMemcpyAsync(op->dst, op->src, op->count, op->memcpy_kind, op->stream);
  case PYGRAPH_OP_EVENT_RECORD:
    return cudaEventRecord(op->event, op->stream);
  case PYGRAPH_OP_EVENT_WAIT:
    return cudaStreamWaitEvent(op->stream, op->event, op->wait_flags);
  }
  return cudaErrorInvalidValue;
}

static struct pygraph_param_layout *param_layout(const void *func)
{
  cudaFunction_t f;
  if (cudaGetFuncBySymbol(&f, func) != cudaSuccess) {
    (void)cudaGetLastError();        /* the launch itself will report a bad func */
    return NULL;
  }
  pygraph_pfn_cuFuncGetParamInfo get_info = pygraph_driver_cuFuncGetParamInfo();
  if (!get_info)
    return NULL;
  /* The driver has no parameter count query we can rely on: probe until the
   * index is out of range. */
  size_t offset, size, n = 0;
  for (;; n++) {
    CUresult r = get_info((CUfunction)f, n, &offset, &size);
    if (r == CUDA_ERROR_INVALID_VALUE)
      break;
    if (r != CUDA_SUCCESS || n > 65536)
      return NULL;
  }
  struct pygraph_param_layout *layout = pygraph_param_layout_alloc(n);
  if (!layout)
    return NULL;
  for (size_t i = 0; i < n; i++) {
    if (get_info((CUfunction)f, i, &offset, &size) != CUDA_SUCCESS) {
      free(layout);
      return NULL;
    }
    layout->params[i].offset = offset;
    layout->params[i].size = size;
    if (offset + size > layout->total_size)
      layout->total_size = offset + size;
  }
  return layout;
}

static int is_device_memory(const void *p)
{
  struct cudaPointerAttributes attr;
  if (cudaPointerGetAttributes(&attr, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return attr.type == cudaMemoryTypeDevice;
}

static int both_device_memory(const void *dst, const void *src)
{
  return is_device_memory(dst) && is_device_memory(src);
}

static void destroy(void *graph)
{
  struct cuda_graph *g = graph;
  if (!g)
    return;
  if (g->exec)
    (void)cudaGraphExecDestroy(g->exec);
  if (g->graph)
    (void)cudaGraphDestroy(g->graph);
  if (g->join_event)
    (void)cudaEventDestroy(g->join_event);
  free(g->nodes);
  free(g->streams);
  free(g);
}

static struct cudaKernelNodeParams kernel_params(const struct pygraph_op *op)
{
  struct cudaKernelNodeParams p = {0};
  p.func = (void *)op->func;
  p.gridDim = op->grid;
  p.blockDim = op->block;
  p.sharedMemBytes = (unsigned)op->shmem;   /* range checked when recorded */
  p.kernelParams = op->arg_ptrs;
  return p;
}

static struct cudaMemsetParams memset_params(const struct pygraph_op *op)
{
  struct cudaMemsetParams p = {0};
  p.dst = op->dst;
  p.value = (unsigned char)op->value;      /* cudaMemsetAsync uses the low byte */
  p.elementSize = 1;
  p.width = op->count;
  p.height = 1;
  return p;
}

static cudaError_t add_node(struct cuda_graph *g, const struct pygraph_op *op,
                            const cudaGraphNode_t *deps, size_t n_deps, cudaGraphNode_t *node)
{
  switch (op->kind) {
  case PYGRAPH_OP_KERNEL: {
    struct cudaKernelNodeParams p = kernel_params(op);
    return cudaGraphAddKernelNode(node, g->graph, deps, n_deps, &p);
  }
  case PYGRAPH_OP_MEMSET: {
    struct cudaMemsetParams p = memset_params(op);
    return cudaGraphAddMemsetNode(node, g->graph, deps, n_deps, &p);
  }
  case PYGRAPH_OP_MEMCPY:
    return cudaGraphAddMemcpyNode1D(node, g->graph, deps, n_deps, op->dst, op->src, op->count,
                                    op->memcpy_kind);
  case PYGRAPH_OP_EVENT_RECORD:
    /* A real record node, so user timing and later waits keep working. */
    return cudaGraphAddEventRecordNode(node, g->graph, deps, n_deps, op->event);
  case PYGRAPH_OP_EVENT_WAIT:
    if (op->wait_link >= 0)                /* just the edge added by the caller */
      return cudaGraphAddEmptyNode(node, g->graph, deps, n_deps);
    return cudaGraphAddEventWaitNode(node, g->graph, deps, n_deps, op->event);
  }
  return cudaErrorInvalidValue;
}

/* An indirect op: its twin with one parameter, the address of its slice. */
static cudaError_t add_indirect_node(struct cuda_graph *g, const struct pygraph_op *op,
                                     const struct pygraph_indirect_node *in, void *device_block,
                                     const cudaGraphNode_t *deps, size_t n_deps,
                                     cudaGraphNode_t *node)
{
  void *slice = (unsigned char *)device_block + in->offset;
  void *params[1] = {&slice};                /* copied by cudaGraphAddKernelNode */
  struct cudaKernelNodeParams p = kernel_params(op);
  p.func = (void *)in->twin;
  p.kernelParams = params;
  return cudaGraphAddKernelNode(node, g->graph, deps, n_deps, &p);
}

static cudaError_t build_nodes(struct cuda_graph *g, const struct pygraph_op_list *ops,
                               const struct pygraph_graph_plan *plan,
                               const struct pygraph_indirect_graph *ig)
{
  const struct pygraph_indirect *ind = ig ? ig->ind : NULL;
  if (ind && ind->n_nodes) {
    /* First, with no dependencies: it runs as soon as the graph starts. */
    cudaError_t err = cudaGraphAddMemcpyNode1D(&g->staging_node, g->graph, NULL, 0,
                                               ig->device_block, ig->initial_src,
                                               ind->block_size, cudaMemcpyHostToDevice);
    if (err != cudaSuccess)
      return err;
    g->staging_dst = ig->device_block;
    g->staging_size = ind->block_size;
  } else {
    ind = NULL;
  }
  for (size_t i = 0; i < ops->n_ops; i++) {
    const struct pygraph_plan_node *pn = &plan->nodes[i];
    cudaGraphNode_t deps[3];
    for (unsigned d = 0; d < pn->n_deps; d++)
      deps[d] = g->nodes[pn->deps[d]];
    long in = ind ? ind->node_of_op[i] : -1;
    /* The staging copy precedes the roots only: every other node follows a
     * root, so it runs after the copy too, and the graph keeps the plain
     * chain shape (an extra edge into every node made replays slower). */
    unsigned n_deps = pn->n_deps;
    if (ind && n_deps == 0)
      deps[n_deps++] = g->staging_node;
    cudaError_t err;
    if (in >= 0)
      err = add_indirect_node(g, &ops->ops[i], &ind->nodes[in], ig->device_block, deps,
                              n_deps, &g->nodes[i]);
    else
      err = add_node(g, &ops->ops[i], deps, n_deps, &g->nodes[i]);
    if (err != cudaSuccess)
      return err;
    g->n_nodes = i + 1;
  }
  if (g->n_streams > 1)
    return cudaEventCreateWithFlags(&g->join_event, cudaEventDisableTiming);
  return cudaSuccess;
}

static cudaError_t build(const struct pygraph_op_list *ops,
                         const struct pygraph_indirect_graph *ind, void **out)
{
  *out = NULL;
  struct pygraph_graph_plan plan;
  if (pygraph_graph_plan_make(ops, &plan))
    return cudaErrorMemoryAllocation;
  struct cuda_graph *g = calloc(1, sizeof *g);
  cudaError_t err = cudaErrorMemoryAllocation;
  if (g && (g->nodes = calloc(ops->n_ops ? ops->n_ops : 1, sizeof *g->nodes))) {
    /* The graph keeps the plan's stream list for the launch-time joins. */
    g->streams = plan.streams;
    g->n_streams = plan.n_streams;
    plan.streams = NULL;
    err = cudaGraphCreate(&g->graph, 0);
    if (err == cudaSuccess)
      err = build_nodes(g, ops, &plan, ind);
  }
  pygraph_graph_plan_free(&plan);
  if (err != cudaSuccess) {
    destroy(g);
    return err;
  }
  *out = g;
  return cudaSuccess;
}

static cudaError_t instantiate(void *graph, void *previous)
{
  struct cuda_graph *g = graph, *prev = previous;
  if (prev && prev->exec) {
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(prev->exec, g->graph, &info) == cudaSuccess) {
      /* Node handles for Exec*SetParams must come from the graph the
       * executable was instantiated from: keep prev's graph and nodes
       * (same count and order) and let prev carry the new ones away. */
      cudaGraph_t new_graph = g->graph;
      cudaGraphNode_t *new_nodes = g->nodes;
      cudaGraphNode_t new_staging = g->staging_node;
      g->graph = prev->graph;
      g->nodes = prev->nodes;
      g->exec = prev->exec;
      /* Same topology, so prev has a memcpy node exactly when g has one;
       * the block and size (g's) are what the exec now holds. */
      g->staging_node = prev->staging_node;
      prev->graph = new_graph;
      prev->nodes = new_nodes;
      prev->staging_node = new_staging;
      prev->exec = NULL;
      destroy(prev);
      return cudaSuccess;
    }
    (void)cudaGetLastError();            /* topology changed: expected, not a fault */
  }
  cudaError_t err = cudaGraphInstantiate(&g->exec, g->graph, 0);
  if (err != cudaSuccess)
    return err;
  destroy(prev);
  return cudaSuccess;
}

static cudaError_t update_node(void *graph, size_t index, const struct pygraph_op *op)
{
  struct cuda_graph *g = graph;
  cudaGraphNode_t node = g->nodes[index];
  switch (op->kind) {
  case PYGRAPH_OP_KERNEL: {
    struct cudaKernelNodeParams p = kernel_params(op);
    return cudaGraphExecKernelNodeSetParams(g->exec, node, &p);
  }
  case PYGRAPH_OP_MEMSET: {
    struct cudaMemsetParams p = memset_params(op);
    return cudaGraphExecMemsetNodeSetParams(g->exec, node, &p);
  }
  case PYGRAPH_OP_MEMCPY:
    return cudaGraphExecMemcpyNodeSetParams1D(g->exec, node, op->dst, op->src, op->count,
                                              op->memcpy_kind);
  case PYGRAPH_OP_EVENT_RECORD:
    return cudaGraphExecEventRecordNodeSetEvent(g->exec, node, op->event);
  case PYGRAPH_OP_EVENT_WAIT:
    return op->wait_link >= 0 ? cudaSuccess
                              : cudaGraphExecEventWaitNodeSetEvent(g->exec, node, op->event);
  }
  return cudaErrorInvalidValue;
}

static cudaError_t launch(void *graph, int *ran)
{
  struct cuda_graph *g = graph;
  cudaStream_t main_stream = g->streams[0];
  cudaError_t err;
  *ran = 0;
  /* The graph starts only after every stream it uses reached this point. */
  for (size_t i = 1; i < g->n_streams; i++) {
    if ((err = cudaEventRecord(g->join_event, g->streams[i])) != cudaSuccess ||
        (err = cudaStreamWaitEvent(main_stream, g->join_event, 0)) != cudaSuccess)
      return err;
  }
  if ((err = cudaGraphLaunch(g->exec, main_stream)) != cudaSuccess)
    return err;
  *ran = 1;
  /* ... and later work on any of them comes after the whole graph. */
  if (g->n_streams > 1) {
    err = cudaEventRecord(g->join_event, main_stream);
    for (size_t i = 1; err == cudaSuccess && i < g->n_streams; i++)
      err = cudaStreamWaitEvent(g->streams[i], g->join_event, 0);
    if (err != cudaSuccess)
      (void)cudaStreamSynchronize(main_stream);   /* ordering without the join */
  }
  return err;
}

/* ---- parameter indirection --------------------------------------------- */

static const char *twin_check(const void *twin, struct pygraph_twin_info *info)
{
  struct cudaFuncAttributes attr;
  cudaError_t err = cudaFuncGetAttributes(&attr, twin);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();
    return cudaGetErrorName(err);
  }
  /* When the driver can tell, the twin must take exactly one pointer. */
  struct pygraph_param_layout *layout = param_layout(twin);
  int one_pointer = !layout || (layout->n_params == 1 && layout->params[0].size == sizeof(void *));
  free(layout);
  if (!one_pointer)
    return "twin does not take exactly one pointer";
  info->max_threads_per_block = attr.maxThreadsPerBlock;
  info->max_dynamic_smem = attr.maxDynamicSharedSizeBytes;
  return NULL;
}

static cudaError_t device_alloc(void **ptr, size_t size)
{
  return cudaMalloc(ptr, size);
}

static void device_free(void *ptr)
{
  (void)cudaFree(ptr);
}

static cudaError_t host_alloc(void **ptr, size_t size)
{
  return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

static void host_free(void *ptr)
{
  (void)cudaFreeHost(ptr);
}

static cudaError_t event_create(cudaEvent_t *event)
{
  return cudaEventCreateWithFlags(event, cudaEventDisableTiming);
}

static void event_destroy(cudaEvent_t event)
{
  (void)cudaEventDestroy(event);
}

static cudaError_t event_synchronize(cudaEvent_t event)
{
  return cudaEventSynchronize(event);
}

static cudaError_t set_staging(void *graph, const void *src)
{
  struct cuda_graph *g = graph;
  return cudaGraphExecMemcpyNodeSetParams1D(g->exec, g->staging_node, g->staging_dst, src,
                                            g->staging_size, cudaMemcpyHostToDevice);
}

static cudaError_t record_event(void *graph, cudaEvent_t event)
{
  struct cuda_graph *g = graph;
  return cudaEventRecord(event, g->streams[0]);
}

static void synchronize(void *graph)
{
  struct cuda_graph *g = graph;
  if (cudaStreamSynchronize(g->streams[0]) != cudaSuccess)
    (void)cudaDeviceSynchronize();
}

/* ---- measurement -------------------------------------------------------- */

static cudaError_t timing_event_create(cudaEvent_t *event)
{
  return cudaEventCreateWithFlags(event, cudaEventDefault);
}

static cudaError_t stream_event_record(cudaEvent_t event, cudaStream_t stream)
{
  return cudaEventRecord(event, stream);
}

static cudaError_t event_query(cudaEvent_t event)
{
  return cudaEventQuery(event);
}

static cudaError_t event_elapsed_ms(float *ms, cudaEvent_t start, cudaEvent_t end)
{
  return cudaEventElapsedTime(ms, start, end);
}

static double now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static void clear_error(void)
{
  (void)cudaGetLastError();
}

static const char *error_name(cudaError_t err)
{
  return cudaGetErrorName(err);
}

const struct pygraph_backend pygraph_cuda_backend = {
    .execute = execute,
    .param_layout = param_layout,
    .both_device_memory = both_device_memory,
    .graph_build = build,
    .graph_instantiate = instantiate,
    .graph_update_node = update_node,
    .graph_launch = launch,
    .graph_destroy = destroy,
    .twin_check = twin_check,
    .device_alloc = device_alloc,
    .device_free = device_free,
    .host_alloc = host_alloc,
    .host_free = host_free,
    .event_create = event_create,
    .event_destroy = event_destroy,
    .event_synchronize = event_synchronize,
    .graph_set_staging = set_staging,
    .graph_record_event = record_event,
    .graph_synchronize = synchronize,
    .timing_event_create = timing_event_create,
    .event_record = stream_event_record,
    .event_query = event_query,
    .event_elapsed_ms = event_elapsed_ms,
    .now_us = now_us,
    .clear_error = clear_error,
    .error_name = error_name,
};
