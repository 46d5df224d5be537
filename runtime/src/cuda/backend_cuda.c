/* backend_cuda.c - eager execution and explicit graph construction.
 *
 * Graphs are built node by node (never by stream capture) so that a user's
 * stream need not be capturable; graph_plan.c decides the edges. */
#include "cuda/backend_cuda.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "graphs/arg_loader.h"
#include "cuda/driver_api.h"
#include "graphs/graph_plan.h"
#include "graphs/indirect.h"
#include "recording/param_cache.h"
#include "pygraph_layout_tag.h"

struct cuda_graph {
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaGraphNode_t *nodes;            /* one per op, in op order; NULL: the op has
                                        no node (graph_plan.h) */
  size_t n_nodes;
  /* Records of events that cannot time happen after the launch (see
   * record_after_graph); after_slot as the plan's (graph_plan.h). */
  long *after_slot;
  cudaEvent_t *after_events;
  size_t n_after;
  cudaStream_t *streams;             /* streams[0]: the one the graph launches on */
  size_t n_streams;
  cudaEvent_t join_event;            /* only when several streams are involved */
  /* Parameter indirection: the loader nodes writing the device block. */
  cudaGraphNode_t *loaders;          /* one per chunk; NULL: no indirect nodes */
  size_t n_loaders;
};

/* ---- the program's own stream captures ----------------------------------
 *
 * Calls CUDA deems "potentially unsafe" during stream capture (cudaMalloc,
 * cudaFree, event creation, cudaEventQuery / cudaEventElapsedTime, stream
 * synchronization, module loads, instantiation) invalidate a capture the
 * program has under way: in global mode (the default) any such call of the
 * capturing thread, or of any other thread not in relaxed mode; in
 * thread-local mode those of the capturing thread.  The runtime makes none
 * on a stream being captured (those iterations pass straight into the
 * capture, capture_check.h).  Its own unsafe calls for other streams run
 * with the calling thread's interaction mode set to relaxed
 * (cudaThreadExchangeStreamCaptureMode, restored right after): "the local
 * thread is not prohibited from potentially unsafe API calls", and its
 * calls do not count against any capture, its own thread's included.  What
 * relaxed mode still forbids (querying an event last recorded inside a
 * capture, synchronizing a capturing stream) the runtime does not do: its
 * timing events are recorded only on streams found not captured, and a
 * graph's launch stream is checked before it is waited for.  The swap is a
 * thread setting, no device work, and the steady state (node updates, graph
 * launches, event records) makes no unsafe call, so pays nothing. */
#define NO_MODE_TO_RESTORE (-1)

static int relax_capture_mode(void)
{
  enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
  if (cudaThreadExchangeStreamCaptureMode(&mode) != cudaSuccess)
    return NO_MODE_TO_RESTORE;                /* unchanged: nothing to undo */
  return (int)mode;
}

static void restore_capture_mode(int saved)
{
  if (saved == NO_MODE_TO_RESTORE)
    return;
  enum cudaStreamCaptureMode mode = (enum cudaStreamCaptureMode)saved;
  (void)cudaThreadExchangeStreamCaptureMode(&mode);
}

static int stream_captured(cudaStream_t stream)
{
  enum cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
#if CUDART_VERSION >= 13000
  cudaError_t err = cudaStreamGetCaptureInfo(stream, &status, NULL, NULL, NULL, NULL, NULL);
#else
  cudaError_t err = cudaStreamGetCaptureInfo(stream, &status, NULL, NULL, NULL, NULL);
#endif
  /* An error (the legacy stream while a blocking stream captures, a bad
   * handle, a sticky error) also means "stay out of the way": the program's
   * own call, passed through, then meets the same condition as without
   * pygraph. */
  return err != cudaSuccess || status != cudaStreamCaptureStatusNone;
}

/* cudaStreamSynchronize of a stream the program is not capturing. */
static cudaError_t sync_stream_relaxed(cudaStream_t stream)
{
  int saved = relax_capture_mode();
  cudaError_t err = cudaStreamSynchronize(stream);
  restore_capture_mode(saved);
  return err;
}

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
  free(g->after_slot);
  free(g->after_events);
  free(g->streams);
  free(g->loaders);
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

/* A record of an event created with cudaEventDisableTiming is made after
 * the graph launch, on the launch stream, instead of by a record node: such
 * an event only orders, and completing later than the eager record would
 * is always allowed (a wait on it waits for more, a query says "not yet"
 * longer).  Inside the graph its waits are edges anyway, and the graph
 * keeps no record node on its critical path.  cudaEventElapsedTime tells
 * such events apart: cudaErrorInvalidResourceHandle (also for an event
 * never recorded, but every event a graph records was recorded by the
 * eager iterations before the capture).  Anything else keeps the node. */
static int record_after_graph(cudaEvent_t event)
{
  if (cudaPeekAtLastError() != cudaSuccess)
    return 0;                          /* the probe would overwrite the user's error */
  float ms;
  int saved = relax_capture_mode();          /* an unsafe call during a capture */
  cudaError_t err = cudaEventElapsedTime(&ms, event, event);
  restore_capture_mode(saved);
  if (err != cudaSuccess)
    (void)cudaGetLastError();
  return err == cudaErrorInvalidResourceHandle;
}

/* The records made after the launch, as the plan lists them. */
static cudaError_t keep_after_records(struct cuda_graph *g, const struct pygraph_op_list *ops,
                                      struct pygraph_graph_plan *plan)
{
  g->after_slot = plan->after_slot;          /* taken over */
  plan->after_slot = NULL;
  g->n_after = plan->n_after;
  g->after_events = malloc((plan->n_after ? plan->n_after : 1) * sizeof *g->after_events);
  if (!g->after_events)
    return cudaErrorMemoryAllocation;
  for (size_t k = 0; k < plan->n_after; k++)
    g->after_events[k] = ops->ops[plan->after_ops[k]].event;
  return cudaSuccess;
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

/* ---- the argument loaders (arg_loader.h) ---------------------------------- */

static pthread_once_t loader_once = PTHREAD_ONCE_INIT;
static cudaError_t loader_error = cudaErrorNotReady;
static cudaKernel_t loader_kernels[PYGRAPH_LOADER_CLASSES];

static void load_loaders(void)
{
  cudaLibrary_t lib;
  cudaError_t err = cudaLibraryLoadData(&lib, pygraph_loader_ptx, NULL, NULL, 0, NULL, NULL, 0);
  for (unsigned c = 0; err == cudaSuccess && c < PYGRAPH_LOADER_CLASSES; c++)
    err = cudaLibraryGetKernel(&loader_kernels[c], lib, pygraph_loader_class_name(c));
  if (err != cudaSuccess)
    (void)cudaGetLastError();          /* not the user's error: indirection stays off */
  loader_error = err;                  /* the library stays loaded for the process */
}

static cudaError_t loaders_ready(void)
{
  pthread_once(&loader_once, load_loaders);
  return loader_error;
}

/* Parameters of the loader for chunk c; `dst` and `words` must outlive the
 * call that consumes them (the kernel parameters are copied by it). */
static struct cudaKernelNodeParams loader_params(const struct pygraph_arg_block *ab, size_t c,
                                                 void **params, void **dst, unsigned *words)
{
  const struct pygraph_loader_chunk *ch = &ab->chunks[c];
  *dst = (unsigned char *)ab->device_block + ch->offset;
  *words = (unsigned)(ch->bytes / 16);
  params[0] = ab->host + ch->offset;
  params[1] = dst;
  params[2] = words;
  struct cudaKernelNodeParams p = {0};
  p.func = (void *)loader_kernels[ch->cls];
  p.gridDim = (dim3){1, 1, 1};
  unsigned threads = (*words + 31) / 32 * 32;
  p.blockDim = (dim3){threads < PYGRAPH_LOADER_THREADS ? threads : PYGRAPH_LOADER_THREADS, 1, 1};
  p.kernelParams = params;
  return p;
}

static cudaError_t add_loaders(struct cuda_graph *g, const struct pygraph_arg_block *ab)
{
  cudaError_t err = loaders_ready();
  if (err != cudaSuccess)
    return err;
  g->loaders = calloc(ab->n_chunks, sizeof *g->loaders);
  if (!g->loaders)
    return cudaErrorMemoryAllocation;
  g->n_loaders = ab->n_chunks;
  for (size_t c = 0; c < ab->n_chunks; c++) {
    void *params[3], *dst;
    unsigned words;
    struct cudaKernelNodeParams p = loader_params(ab, c, params, &dst, &words);
    if ((err = cudaGraphAddKernelNode(&g->loaders[c], g->graph, NULL, 0, &p)) != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}

static cudaError_t set_args(void *graph, const struct pygraph_arg_block *ab)
{
  struct cuda_graph *g = graph;
  for (size_t c = 0; c < ab->n_chunks; c++) {
    void *params[3], *dst;
    unsigned words;
    struct cudaKernelNodeParams p = loader_params(ab, c, params, &dst, &words);
    cudaError_t err = cudaGraphExecKernelNodeSetParams(g->exec, g->loaders[c], &p);
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}

/* An indirect op: its twin with one parameter, the address of its slice.
 * A twin that waits for its predecessors is reached by programmatic edges
 * (programmatic port) from the kernel nodes before it whose grid fits in
 * one wave (pygraph_indirect_edge_programmatic, indirect.h): it is
 * launched once every block of the predecessor has triggered (a twin does
 * so first thing) or exited, loads its arguments, and waits
 * (griddepcontrol.wait) for the predecessor's completion and memory before
 * running the kernel body.  Its other edges are full ones. */
static cudaError_t add_indirect_node(struct cuda_graph *g, const struct pygraph_op_list *ops,
                                     size_t i, const struct pygraph_arg_block *ab,
                                     const struct pygraph_indirect *ind,
                                     const struct pygraph_indirect_node *in,
                                     const struct pygraph_plan_node *pn,
                                     const cudaGraphNode_t *extra, size_t n_extra)
{
  static const unsigned char tag_bytes[PYGRAPH_LAYOUT_TAG_MAX];   /* unused by the twin */
  void *slice = (unsigned char *)ab->device_block + in->offset;
  void *params[2] = {&slice, (void *)tag_bytes};   /* copied by cudaGraphAddKernelNode */
  struct cudaKernelNodeParams p = kernel_params(&ops->ops[i]);
  p.func = (void *)in->twin;
  p.kernelParams = params;
  cudaGraphNode_t full[PYGRAPH_PLAN_MAX_DEPS + PYGRAPH_LOADER_MAX_EXTRA];
  cudaGraphNode_t prog[PYGRAPH_PLAN_MAX_DEPS];
  size_t n_full = 0, n_prog = 0;
  for (unsigned d = 0; d < pn->n_deps; d++) {
    if (pygraph_indirect_edge_programmatic(ind, ops, pn->deps[d], i))
      prog[n_prog++] = g->nodes[pn->deps[d]];
    else
      full[n_full++] = g->nodes[pn->deps[d]];
  }
  for (size_t e = 0; e < n_extra; e++)
    full[n_full++] = extra[e];
  cudaError_t err = cudaGraphAddKernelNode(&g->nodes[i], g->graph, full, n_full, &p);
  if (err != cudaSuccess || n_prog == 0)
    return err;
  cudaGraphEdgeData edges[PYGRAPH_PLAN_MAX_DEPS];
  cudaGraphNode_t to[PYGRAPH_PLAN_MAX_DEPS];
  for (size_t e = 0; e < n_prog; e++) {
    edges[e] = (cudaGraphEdgeData){.from_port = cudaGraphKernelNodePortProgrammatic,
                                   .type = cudaGraphDependencyTypeProgrammatic};
    to[e] = g->nodes[i];
  }
  return cudaGraphAddDependencies(g->graph, prog, to, edges, n_prog);
}

static cudaError_t build_nodes(struct cuda_graph *g, const struct pygraph_op_list *ops,
                               const struct pygraph_graph_plan *plan,
                               const struct pygraph_indirect_graph *ig)
{
  const struct pygraph_indirect *ind = ig && ig->ind->n_nodes ? ig->ind : NULL;
  if (ind) {
    /* First, with no dependencies: they run as soon as the graph starts. */
    cudaError_t err = add_loaders(g, ig->args);
    if (err != cudaSuccess)
      return err;
  }
  /* The loaders precede the roots only: every other node follows a root,
   * so it runs after them too, and the graph keeps the plain chain shape. */
  size_t n_loaders = ind ? ig->args->n_chunks : 0;
  if (n_loaders > PYGRAPH_LOADER_MAX_EXTRA)
    return cudaErrorInvalidValue;          /* a 1 MiB argument block: not worth it */
  for (size_t i = 0; i < ops->n_ops; i++) {
    const struct pygraph_plan_node *pn = &plan->nodes[i];
    if (pn->form == PYGRAPH_PLAN_NONE) {       /* its dependents took its deps */
      g->n_nodes = i + 1;
      continue;
    }
    const cudaGraphNode_t *extra = pn->n_deps == 0 ? g->loaders : NULL;
    size_t n_extra = pn->n_deps == 0 ? n_loaders : 0;
    long in = ind ? ind->node_of_op[i] : -1;
    cudaError_t err;
    if (in >= 0) {
      err = add_indirect_node(g, ops, i, ig->args, ind, &ind->nodes[in], pn, extra, n_extra);
    } else {
      cudaGraphNode_t deps[PYGRAPH_PLAN_MAX_DEPS + PYGRAPH_LOADER_MAX_EXTRA];
      size_t n_deps = 0;
      for (unsigned d = 0; d < pn->n_deps; d++)
        deps[n_deps++] = g->nodes[pn->deps[d]];
      for (size_t e = 0; e < n_extra; e++)
        deps[n_deps++] = extra[e];
      err = pn->form == PYGRAPH_PLAN_EMPTY
                ? cudaGraphAddEmptyNode(&g->nodes[i], g->graph, deps, n_deps)
                : add_node(g, &ops->ops[i], deps, n_deps, &g->nodes[i]);
    }
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
  size_t n = ops->n_ops ? ops->n_ops : 1;
  struct cuda_graph *g = calloc(1, sizeof *g);
  unsigned char *after_graph = calloc(n, 1);
  struct pygraph_graph_plan plan = {0};
  cudaError_t err = cudaErrorMemoryAllocation;
  if (!g || !after_graph)
    goto done;
  for (size_t i = 0; i < ops->n_ops; i++)
    after_graph[i] = ops->ops[i].kind == PYGRAPH_OP_EVENT_RECORD &&
                     record_after_graph(ops->ops[i].event);
  if (pygraph_graph_plan_make(ops, after_graph, &plan) || !(g->nodes = calloc(n, sizeof *g->nodes)))
    goto done;
  if ((err = keep_after_records(g, ops, &plan)) != cudaSuccess)
    goto done;
  /* The graph keeps the plan's stream list for the launch-time joins. */
  g->streams = plan.streams;
  g->n_streams = plan.n_streams;
  plan.streams = NULL;
  err = cudaGraphCreate(&g->graph, 0);
  if (err == cudaSuccess)
    err = build_nodes(g, ops, &plan, ind);
done:
  pygraph_graph_plan_free(&plan);
  free(after_graph);
  if (err != cudaSuccess) {
    destroy(g);
    return err;
  }
  *out = g;
  return cudaSuccess;
}

/* Do op i of both graphs have a node, or neither (graph_plan.h)? */
static int same_node_slots(const struct cuda_graph *a, const struct cuda_graph *b)
{
  if (a->n_nodes != b->n_nodes)
    return 0;
  for (size_t i = 0; i < a->n_nodes; i++)
    if ((a->nodes[i] == NULL) != (b->nodes[i] == NULL))
      return 0;
  return 1;
}

static cudaError_t instantiate(void *graph, void *previous)
{
  struct cuda_graph *g = graph, *prev = previous;
  /* cudaGraphExecUpdate pairs nodes by shape: a loader (a kernel without
   * dependencies) could pair with a user's root kernel.  The node arrays
   * are swapped below assuming node i pairs with node i, so only graphs
   * with nodes for the same ops and as many loaders are updated in place. */
  if (prev && prev->exec && same_node_slots(prev, g) && prev->n_loaders == g->n_loaders) {
    cudaGraphExecUpdateResultInfo info;
    if (cudaGraphExecUpdate(prev->exec, g->graph, &info) == cudaSuccess) {
      /* Node handles for Exec*SetParams must come from the graph the
       * executable was instantiated from: keep prev's graph and nodes
       * (same count and order) and let prev carry the new ones away. */
      cudaGraph_t new_graph = g->graph;
      cudaGraphNode_t *new_nodes = g->nodes, *new_loaders = g->loaders;
      g->graph = prev->graph;
      g->nodes = prev->nodes;
      g->exec = prev->exec;
      /* Same topology, so prev has as many loader nodes as g; the
       * parameters (g's) are what the exec now holds. */
      g->loaders = prev->loaders;             /* (n_loaders equal) */
      prev->graph = new_graph;
      prev->nodes = new_nodes;
      prev->loaders = new_loaders;
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
  if (op->kind == PYGRAPH_OP_EVENT_RECORD && g->after_slot[index] != -1) {
    /* (a superseded record's event is the superseding one's: nothing to do) */
    if (!record_after_graph(op->event))
      return cudaErrorNotSupported;          /* made for events that cannot time */
    if (g->after_slot[index] >= 0)
      g->after_events[g->after_slot[index]] = op->event;
    return cudaSuccess;
  }
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
  /* The records made after the graph (record_after_graph).  Should one
   * fail, the event would still hold an older record: with the stream
   * drained, anything waiting on it has nothing left to wait for. */
  for (size_t k = 0; k < g->n_after; k++)
    if ((err = cudaEventRecord(g->after_events[k], main_stream)) != cudaSuccess) {
      (void)sync_stream_relaxed(main_stream);
      return err;
    }
  /* ... and later work on any of them comes after the whole graph. */
  if (g->n_streams > 1) {
    err = cudaEventRecord(g->join_event, main_stream);
    for (size_t i = 1; err == cudaSuccess && i < g->n_streams; i++)
      err = cudaStreamWaitEvent(g->streams[i], g->join_event, 0);
    if (err != cudaSuccess)
      (void)sync_stream_relaxed(main_stream);   /* ordering without the join */
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
  /* When the driver can tell: (pointer, layout tag) - the tag is the size
   * of the second parameter (pygraph_layout_tag.h); a twin of an older
   * plugin takes the pointer alone and has no tag (0). */
  struct pygraph_param_layout *layout = param_layout(twin);
  int shape_ok = !layout || (layout->n_params >= 1 && layout->n_params <= 2 &&
                             layout->params[0].size == sizeof(void *));
  info->layout_tag = layout && layout->n_params == 2 ? (unsigned)layout->params[1].size : 0;
  free(layout);
  if (!shape_ok)
    return "twin does not take (pointer, layout tag)";
  /* Without the loaders there is no way to fill the argument block. */
  err = loaders_ready();
  if (err != cudaSuccess)
    return "argument loader kernels unavailable";
  info->max_threads_per_block = attr.maxThreadsPerBlock;
  info->max_dynamic_smem = attr.maxDynamicSharedSizeBytes;
  /* The plugin makes twins wait (griddepcontrol) exactly when it compiles
   * them for sm_90 or newer, which is the PTX target the function reports. */
  info->waits = attr.ptxVersion >= 90;
  return NULL;
}

/* Blocks of func resident at once on the current device.  A pending
 * error of the user's is not overwritten: no answer then (full edges). */
static cudaError_t resident_blocks(const void *func, unsigned threads, size_t smem,
                                   long long *blocks)
{
  if (cudaPeekAtLastError() != cudaSuccess)
    return cudaErrorNotReady;
  int device, sms, per_sm;
  cudaError_t err = cudaGetDevice(&device);
  if (err == cudaSuccess)
    err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  if (err == cudaSuccess)
    err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, (int)threads, smem);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();        /* pygraph's own query: not the user's error */
    return err;
  }
  *blocks = (long long)per_sm * sms;
  return cudaSuccess;
}

static cudaError_t device_alloc(void **ptr, size_t size)
{
  int saved = relax_capture_mode();
  cudaError_t err = cudaMalloc(ptr, size);
  restore_capture_mode(saved);
  return err;
}

static void device_free(void *ptr)
{
  int saved = relax_capture_mode();
  (void)cudaFree(ptr);
  restore_capture_mode(saved);
}

static void event_destroy(cudaEvent_t event)
{
  (void)cudaEventDestroy(event);
}

/* Synchronizing a stream the program captures would invalidate its capture
 * (relaxed mode or not): then the caller keeps the memory instead.  No
 * device-wide fallback while some stream may be capturing. */
static int synchronize(void *graph)
{
  struct cuda_graph *g = graph;
  if (stream_captured(g->streams[0]))
    return 0;
  (void)sync_stream_relaxed(g->streams[0]);   /* errors: the graph's, reported elsewhere */
  return 1;
}

/* ---- measurement -------------------------------------------------------- */

static cudaError_t timing_event_create(cudaEvent_t *event)
{
  int saved = relax_capture_mode();
  cudaError_t err = cudaEventCreateWithFlags(event, cudaEventDefault);
  restore_capture_mode(saved);
  return err;
}

static cudaError_t stream_event_record(cudaEvent_t event, cudaStream_t stream)
{
  return cudaEventRecord(event, stream);
}

/* Timing events are recorded only on streams found not captured
 * (capture_check.h), so relaxed mode allows these. */
static cudaError_t event_query(cudaEvent_t event)
{
  int saved = relax_capture_mode();
  cudaError_t err = cudaEventQuery(event);
  restore_capture_mode(saved);
  return err;
}

static cudaError_t event_elapsed_ms(float *ms, cudaEvent_t start, cudaEvent_t end)
{
  int saved = relax_capture_mode();
  cudaError_t err = cudaEventElapsedTime(ms, start, end);
  restore_capture_mode(saved);
  return err;
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

/* ---- relaxed-mode wrappers of the rarer calls (see relax_capture_mode) ----
 * Graph building and instantiation (the loaders' module load, join events,
 * instantiation's allocations), destruction, and kernel queries that may
 * load a module lazily: once per capture, graph or kernel. */

static struct pygraph_param_layout *param_layout_relaxed(const void *func)
{
  int saved = relax_capture_mode();
  struct pygraph_param_layout *layout = param_layout(func);
  restore_capture_mode(saved);
  return layout;
}

static cudaError_t build_relaxed(const struct pygraph_op_list *ops,
                                 const struct pygraph_indirect_graph *ind, void **out)
{
  int saved = relax_capture_mode();
  cudaError_t err = build(ops, ind, out);
  restore_capture_mode(saved);
  return err;
}

static cudaError_t instantiate_relaxed(void *graph, void *previous)
{
  int saved = relax_capture_mode();
  cudaError_t err = instantiate(graph, previous);
  restore_capture_mode(saved);
  return err;
}

static void destroy_relaxed(void *graph)
{
  int saved = relax_capture_mode();
  destroy(graph);
  restore_capture_mode(saved);
}

static const char *twin_check_relaxed(const void *twin, struct pygraph_twin_info *info)
{
  int saved = relax_capture_mode();
  const char *problem = twin_check(twin, info);
  restore_capture_mode(saved);
  return problem;
}

static cudaError_t resident_blocks_relaxed(const void *func, unsigned threads, size_t smem,
                                           long long *blocks)
{
  int saved = relax_capture_mode();   /* the query may load the kernel's module lazily */
  cudaError_t err = resident_blocks(func, threads, smem, blocks);
  restore_capture_mode(saved);
  return err;
}

const struct pygraph_backend pygraph_cuda_backend = {
    .execute = execute,
    .param_layout = param_layout_relaxed,
    .both_device_memory = both_device_memory,
    .graph_build = build_relaxed,
    .graph_instantiate = instantiate_relaxed,
    .graph_update_node = update_node,
    .graph_launch = launch,
    .graph_destroy = destroy_relaxed,
    .twin_check = twin_check_relaxed,
    .resident_blocks = resident_blocks_relaxed,
    .device_alloc = device_alloc,
    .device_free = device_free,
    .event_destroy = event_destroy,
    .graph_set_args = set_args,
    .graph_synchronize = synchronize,
    .timing_event_create = timing_event_create,
    .event_record = stream_event_record,
    .event_query = event_query,
    .event_elapsed_ms = event_elapsed_ms,
    .now_us = now_us,
    .stream_captured = stream_captured,
    .clear_error = clear_error,
    .error_name = error_name,
};
