/* graph_realise.c - a graph plan made real, node by node (never by stream
 * capture, so a user's stream need not be capturable), and its replays.
 *
 * The plan (graphs/graph_plan.h) says which op gets which node, its
 * dependencies, which edges are programmatic and which records are made
 * after the launch; this file carries that out and decides none of it. */
#include "cuda/graph_realise.h"
#include "cuda/graph_realise_internal.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/settings.h"
#include "common/text.h"

#include "cuda/backend_cuda.h"
#include "cuda/cuda_ops.h"
#include "cuda/driver_launch.h"
#include "cuda/host_bytes_module.h"
#include "cuda/library_capture.h"
#include "cuda/loader_module.h"
#include "graphs/arg_loader.h"
#include "graphs/graph_plan.h"
#include "graphs/indirect.h"
#include "pygraph_layout_tag.h"

void pygraph_cuda_graph_destroy(void *graph)
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

/* The launch attributes of op on its kernel node (op.h: only those a node
 * holds are recorded). */
static cudaError_t set_node_attrs(cudaGraphNode_t node, const struct pygraph_op *op)
{
  cudaError_t err = cudaSuccess;
  for (unsigned i = 0; err == cudaSuccess && i < op->n_attrs; i++)
    err = cudaGraphKernelNodeSetAttribute(node, op->attrs[i].id, &op->attrs[i].val);
  return err;
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

/* The plan's streams and after-graph records, copied into g (the plan
 * stays the caller's). */
static cudaError_t keep_plan_lists(struct cuda_graph *g, const struct pygraph_op_list *ops,
                                   const struct pygraph_graph_plan *plan)
{
  size_t n = ops->n_ops ? ops->n_ops : 1;
  g->nodes = calloc(n, sizeof *g->nodes);
  g->after_slot = malloc(n * sizeof *g->after_slot);
  g->after_events = malloc((plan->n_after ? plan->n_after : 1) * sizeof *g->after_events);
  g->streams = malloc((plan->n_streams ? plan->n_streams : 1) * sizeof *g->streams);
  if (!g->nodes || !g->after_slot || !g->after_events || !g->streams)
    return cudaErrorMemoryAllocation;
  memcpy(g->after_slot, plan->after_slot, ops->n_ops * sizeof *g->after_slot);
  g->n_after = plan->n_after;
  for (size_t k = 0; k < plan->n_after; k++)
    g->after_events[k] = ops->ops[plan->after_ops[k]].event;
  memcpy(g->streams, plan->streams, plan->n_streams * sizeof *g->streams);
  g->n_streams = plan->n_streams;
  return cudaSuccess;
}

cudaError_t pygraph_cuda_graph_alloc(const struct pygraph_op_list *ops,
                                     const struct pygraph_graph_plan *plan,
                                     struct cuda_graph **out)
{
  *out = calloc(1, sizeof **out);
  if (!*out)
    return cudaErrorMemoryAllocation;
  cudaError_t err = keep_plan_lists(*out, ops, plan);
  if (err != cudaSuccess) {
    pygraph_cuda_graph_destroy(*out);
    *out = NULL;
  }
  return err;
}

static cudaError_t add_node(struct cuda_graph *g, const struct pygraph_op *op,
                            const cudaGraphNode_t *deps, size_t n_deps, cudaGraphNode_t *node)
{
  switch (op->kind) {
  case PYGRAPH_OP_KERNEL: {
    if (op->driver)                        /* a CUfunction: the driver's node */
      return pygraph_cuda_driver_node_add(node, g->body, deps, n_deps, op);
    struct cudaKernelNodeParams p = kernel_params(op);
    cudaError_t err = cudaGraphAddKernelNode(node, g->body, deps, n_deps, &p);
    return err == cudaSuccess ? set_node_attrs(*node, op) : err;
  }
  case PYGRAPH_OP_MEMSET: {
    struct cudaMemsetParams p = memset_params(op);
    return cudaGraphAddMemsetNode(node, g->body, deps, n_deps, &p);
  }
  case PYGRAPH_OP_MEMCPY:
    return cudaGraphAddMemcpyNode1D(node, g->body, deps, n_deps, op->dst, op->src, op->count,
                                    op->memcpy_kind);
  case PYGRAPH_OP_EVENT_RECORD:
    /* A real record node, so user timing and later waits keep working. */
    return cudaGraphAddEventRecordNode(node, g->body, deps, n_deps, op->event);
  case PYGRAPH_OP_EVENT_WAIT:
    if (op->wait_link >= 0)                /* just the edge added by the caller */
      return cudaGraphAddEmptyNode(node, g->body, deps, n_deps);
    return cudaGraphAddEventWaitNode(node, g->body, deps, n_deps, op->event);
  case PYGRAPH_OP_HOST_BYTES: {
    void *params[3], *dst;               /* copied by the call */
    unsigned count;
    struct cudaKernelNodeParams p = pygraph_cuda_host_bytes_node(op, params, &dst, &count);
    return p.func ? cudaGraphAddKernelNode(node, g->body, deps, n_deps, &p)
                  : cudaErrorInvalidDeviceFunction;
  }
  case PYGRAPH_OP_LIBRARY:                 /* a graph captured from the call */
    return pygraph_cuda_library_node(node, g->body, deps, n_deps, op);
  }
  return cudaErrorInvalidValue;
}

/* ---- the argument loaders (arg_loader.h) ---------------------------------- */

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
  p.func = (void *)pygraph_cuda_loader_kernel(ch->cls);
  p.gridDim = (dim3){1, 1, 1};
  unsigned threads = (*words + 31) / 32 * 32;
  p.blockDim = (dim3){threads < PYGRAPH_LOADER_THREADS ? threads : PYGRAPH_LOADER_THREADS, 1, 1};
  p.kernelParams = params;
  return p;
}

cudaError_t pygraph_cuda_graph_add_loaders(struct cuda_graph *g, const struct pygraph_arg_block *ab)
{
  cudaError_t err = pygraph_cuda_loaders_ready();
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

cudaError_t pygraph_cuda_graph_set_args(void *graph, const struct pygraph_arg_block *ab)
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

/* ---- nodes and edges ------------------------------------------------------ */

/* An indirect op: its twin with one parameter, the address of its slice
 * (plus the layout tag parameter, never read). */
static cudaError_t add_twin_node(struct cuda_graph *g, const struct pygraph_op *op,
                                 const struct pygraph_indirect_graph *ig,
                                 const struct pygraph_indirect_node *in,
                                 const cudaGraphNode_t *deps, size_t n_deps,
                                 cudaGraphNode_t *node)
{
  static const unsigned char tag_bytes[PYGRAPH_LAYOUT_TAG_MAX];   /* unused by the twin */
  void *slice = (unsigned char *)ig->args->device_block + in->offset;
  void *params[2] = {&slice, (void *)tag_bytes};   /* copied by cudaGraphAddKernelNode */
  struct cudaKernelNodeParams p = kernel_params(op);
  p.func = (void *)in->twin;
  p.kernelParams = params;
  cudaError_t err = cudaGraphAddKernelNode(node, g->body, deps, n_deps, &p);
  return err == cudaSuccess ? set_node_attrs(*node, op) : err;
}

/* Op i's node (doing `op`, op i or what stands for it) with its full
 * edges: an empty node, its twin (indirect), or a node doing the op. */
static cudaError_t add_op_node(struct cuda_graph *g, size_t i, const struct pygraph_op *op,
                               const struct pygraph_plan_node *pn,
                               const struct pygraph_indirect_graph *ig,
                               const cudaGraphNode_t *deps, size_t n_deps)
{
  if (pn->form == PYGRAPH_PLAN_EMPTY)
    return cudaGraphAddEmptyNode(&g->nodes[i], g->body, deps, n_deps);
  long in = ig ? ig->ind->node_of_op[i] : -1;
  if (in >= 0)
    return add_twin_node(g, op, ig, &ig->ind->nodes[in], deps, n_deps, &g->nodes[i]);
  return add_node(g, op, deps, n_deps, &g->nodes[i]);
}

/* Op i's node and its incoming edges as the plan gives them: the full ones
 * (and the loaders, for a root of a graph that holds them) when the node
 * is added, then the programmatic ones (programmatic port of the kernel
 * dependency): the node may launch once every block of that kernel has
 * triggered or exited.  A WHILE body's edges are all full. */
cudaError_t pygraph_cuda_graph_add_op(struct cuda_graph *g, size_t i, const struct pygraph_op *op,
                                      const struct pygraph_plan_node *pn,
                                      const struct pygraph_indirect_graph *ig)
{
  cudaGraphNode_t full[PYGRAPH_PLAN_MAX_DEPS + PYGRAPH_LOADER_MAX_EXTRA];
  cudaGraphNode_t prog[PYGRAPH_PLAN_MAX_DEPS], to[PYGRAPH_PLAN_MAX_DEPS];
  cudaGraphEdgeData edges[PYGRAPH_PLAN_MAX_DEPS];
  size_t n_full = 0, n_prog = 0;
  for (unsigned d = 0; d < pn->n_deps; d++) {
    if (pn->programmatic[d] && !g->is_while)
      prog[n_prog++] = g->nodes[pn->deps[d]];
    else
      full[n_full++] = g->nodes[pn->deps[d]];
  }
  for (size_t e = 0; pn->n_deps == 0 && g->body == g->graph && e < g->n_loaders; e++)
    full[n_full++] = g->loaders[e];
  cudaError_t err = add_op_node(g, i, op, pn, ig, full, n_full);
  if (err != cudaSuccess || n_prog == 0)
    return err;
  for (size_t e = 0; e < n_prog; e++) {
    edges[e] = (cudaGraphEdgeData){.from_port = cudaGraphKernelNodePortProgrammatic,
                                   .type = cudaGraphDependencyTypeProgrammatic};
    to[e] = g->nodes[i];
  }
  return cudaGraphAddDependencies(g->body, prog, to, edges, n_prog);
}

static cudaError_t build_nodes(struct cuda_graph *g, const struct pygraph_op_list *ops,
                               const struct pygraph_graph_plan *plan,
                               const struct pygraph_indirect_graph *ig)
{
  if (ig) {
    /* The loaders precede the roots only: every other node follows a root,
     * so it runs after them too, and the graph keeps the plain chain shape. */
    if (ig->args->n_chunks > PYGRAPH_LOADER_MAX_EXTRA)
      return cudaErrorInvalidValue;        /* a 1 MiB argument block: not worth it */
    /* First, with no dependencies: they run as soon as the graph starts. */
    cudaError_t err = pygraph_cuda_graph_add_loaders(g, ig->args);
    if (err != cudaSuccess)
      return err;
  }
  for (size_t i = 0; i < ops->n_ops; i++) {
    const struct pygraph_plan_node *pn = &plan->nodes[i];
    if (pn->form != PYGRAPH_PLAN_NONE) {       /* else its dependents took its deps */
      cudaError_t err = pygraph_cuda_graph_add_op(g, i, &ops->ops[i], pn, ig);
      if (err != cudaSuccess)
        return err;
    }
    g->n_nodes = i + 1;
  }
  return pygraph_cuda_graph_add_join(g);
}

cudaError_t pygraph_cuda_graph_add_join(struct cuda_graph *g)
{
  if (g->n_streams > 1)
    return cudaEventCreateWithFlags(&g->join_event, cudaEventDisableTiming);
  return cudaSuccess;
}

cudaError_t pygraph_cuda_graph_build(const struct pygraph_op_list *ops,
                                     const struct pygraph_graph_plan *plan,
                                     const struct pygraph_indirect_graph *ind, void **out)
{
  *out = NULL;
  struct cuda_graph *g;
  cudaError_t err = pygraph_cuda_graph_alloc(ops, plan, &g);
  if (err != cudaSuccess)
    return err;
  err = cudaGraphCreate(&g->graph, 0);
  g->body = g->graph;
  if (err == cudaSuccess)
    err = build_nodes(g, ops, plan, ind && ind->ind->n_nodes ? ind : NULL);
  if (err != cudaSuccess) {
    pygraph_cuda_graph_destroy(g);
    return err;
  }
  *out = g;
  return cudaSuccess;
}

/* ---- instantiate ----------------------------------------------------------- */

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


/* PYGRAPH_DOT_DIR: the graph as DOT in that folder, one file a graph the
 * process instantiates (pygraph-<pid>-<n>.dot), for looking at what a
 * region's graph holds.  A failure (out of memory too) writes nothing and
 * leaves no error. */
static void write_dot(cudaGraph_t graph)
{
  static unsigned long written;     /* atomic */
  const char *dir = pygraph_settings()->dot_dir;
  if (!dir)
    return;
  unsigned long n = __atomic_fetch_add(&written, 1, __ATOMIC_RELAXED);
  char *path = pygraph_text_printf("%s/pygraph-%ld-%lu.dot", dir, (long)getpid(), n);
  if (path && cudaGraphDebugDotPrint(graph, path, cudaGraphDebugDotFlagsVerbose) != cudaSuccess)
    (void)cudaGetLastError();
  free(path);
}

cudaError_t pygraph_cuda_graph_instantiate(void *graph, void *previous)
{
  struct cuda_graph *g = graph, *prev = previous;
  /* cudaGraphExecUpdate pairs nodes by shape: a loader (a kernel without
   * dependencies) could pair with a user's root kernel.  The node arrays
   * are swapped below assuming node i pairs with node i, so only graphs
   * with nodes for the same ops and as many loaders are updated in place. */
  if (prev && prev->exec && !prev->is_while && !g->is_while && same_node_slots(prev, g) &&
      prev->n_loaders == g->n_loaders) {
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
      g->body = g->graph;
      prev->body = prev->graph;
      prev->nodes = new_nodes;
      prev->loaders = new_loaders;
      prev->exec = NULL;
      pygraph_cuda_graph_destroy(prev);
      return cudaSuccess;
    }
    (void)cudaGetLastError();            /* topology changed: expected, not a fault */
  }
  cudaError_t err = cudaGraphInstantiate(&g->exec, g->graph, 0);
  if (err != cudaSuccess)
    return err;
  write_dot(g->graph);
  pygraph_cuda_graph_destroy(prev);
  return cudaSuccess;
}

/* ---- replay ------------------------------------------------------------------ */

cudaError_t pygraph_cuda_graph_update_node(void *graph, size_t index, const struct pygraph_op *op)
{
  struct cuda_graph *g = graph;
  cudaGraphNode_t node = g->nodes[index];
  if (op->kind == PYGRAPH_OP_EVENT_RECORD && g->after_slot[index] != -1) {
    /* (a superseded record's event is the superseding one's: nothing to do) */
    if (pygraph_cuda_backend.event_times(op->event))
      return cudaErrorNotSupported;          /* made for events that cannot time */
    if (g->after_slot[index] >= 0)
      g->after_events[g->after_slot[index]] = op->event;
    return cudaSuccess;
  }
  switch (op->kind) {
  case PYGRAPH_OP_KERNEL: {
    if (op->driver)
      return pygraph_cuda_driver_node_update(g->exec, node, op);
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
  case PYGRAPH_OP_HOST_BYTES: {
    void *params[3], *dst;               /* copied by the call: the bytes may change next */
    unsigned count;
    struct cudaKernelNodeParams p = pygraph_cuda_host_bytes_node(op, params, &dst, &count);
    return p.func ? cudaGraphExecKernelNodeSetParams(g->exec, node, &p)
                  : cudaErrorInvalidDeviceFunction;
  }
  case PYGRAPH_OP_LIBRARY:
    /* Never asked: its arguments are signature (recording/op.h), so a node
     * of the same signature already holds them.  Refused all the same:
     * what the library captured cannot be told other arguments. */
    return cudaErrorNotSupported;
  }
  return cudaErrorInvalidValue;
}

/* Ordering without the joins after a failed call past the graph launch:
 * the launch stream drained (the port's graph_synchronize, relaxed). */
static cudaError_t drain_after(struct cuda_graph *g, cudaError_t err)
{
  (void)pygraph_cuda_backend.graph_synchronize(g);
  return err;
}

cudaError_t pygraph_cuda_graph_launch(void *graph, int *ran)
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
  /* The plan's records made after the graph.  Should one fail, the event
   * would still hold an older record: with the stream drained, anything
   * waiting on it has nothing left to wait for. */
  for (size_t k = 0; k < g->n_after; k++)
    if ((err = cudaEventRecord(g->after_events[k], main_stream)) != cudaSuccess)
      return drain_after(g, err);
  /* ... and later work on any of them comes after the whole graph. */
  if (g->n_streams > 1) {
    err = cudaEventRecord(g->join_event, main_stream);
    for (size_t i = 1; err == cudaSuccess && i < g->n_streams; i++)
      err = cudaStreamWaitEvent(g->streams[i], g->join_event, 0);
    if (err != cudaSuccess)
      return drain_after(g, err);
  }
  return err;
}

/* Synchronizing a stream the program captures would invalidate its capture
 * (relaxed mode or not): then the caller keeps the memory instead.  No
 * device-wide fallback while some stream may be capturing. */
int pygraph_cuda_graph_synchronize(void *graph)
{
  struct cuda_graph *g = graph;
  if (pygraph_cuda_stream_captured(g->streams[0]))
    return 0;
  (void)cudaStreamSynchronize(g->streams[0]);   /* errors: the graph's, reported elsewhere */
  return 1;
}
