/* fake_cudart.c - the CUDA runtime calls of the CUDA layer's graph
 * building, faked (fake_cudart.h); and the two things of the CUDA layer's
 * other files graph_realise.c reaches (the port table's event and
 * synchronize entries, the capture query). */
#include "fake_cudart.h"

#include <stdlib.h>
#include <string.h>

#include "cuda/backend_cuda.h"
#include "cuda/cuda_ops.h"
#include "recording/param_cache.h"

unsigned long fcuda_calls, fcuda_fail_at;
const char *fcuda_failed;
const char *fcuda_fail_all;
int fcuda_live_graphs, fcuda_live_execs, fcuda_live_events, fcuda_library_loads;
const void *fcuda_last_library_code;
int fcuda_library_unloads;
struct CUgraph_st *fcuda_last_graph;
struct fcuda_handle fcuda_last_handle;
unsigned fcuda_n_handles;
struct fcuda_handle fcuda_handles[FCUDA_HANDLES];
static const char *trace[FCUDA_TRACE];

struct CUgraphExec_st {
  struct CUgraph_st *graph;
};
struct CUevent_st {
  int unused;
};

int fcuda_streams_made, fcuda_captures_begun, fcuda_captures_ended;
cudaStream_t fcuda_capturing;
enum cudaStreamCaptureMode fcuda_capture_mode;
int fcuda_capture_invalidated;
struct CUgraph_st *fcuda_last_captured;

void fcuda_reset(void)
{
  fcuda_calls = fcuda_fail_at = 0;
  fcuda_failed = NULL;
  fcuda_fail_all = NULL;
  fcuda_n_handles = 0;
  fcuda_last_graph = NULL;
  fcuda_captures_begun = fcuda_captures_ended = 0;
  fcuda_capture_invalidated = 0;
  fcuda_last_captured = NULL;
  fcuda_capturing = NULL;
  fcuda_last_library_code = NULL;
  memset(trace, 0, sizeof trace);
}

const char *fcuda_call_name(unsigned long k)
{
  return k >= 1 && k <= FCUDA_TRACE ? trace[k - 1] : NULL;
}

/* Counts the call; 1 when it is the one to fail. */
static int fails(const char *name)
{
  ++fcuda_calls;
  if (fcuda_calls <= FCUDA_TRACE)
    trace[fcuda_calls - 1] = name;
  if (fcuda_calls != fcuda_fail_at && !(fcuda_fail_all && !strcmp(name, fcuda_fail_all)))
    return 0;
  fcuda_failed = name;
  return 1;
}

#define FAIL_IF(name) \
  if (fails(name))    \
  return cudaErrorInvalidValue

static struct CUgraph_st *new_graph(struct CUgraphNode_st *owner)
{
  struct CUgraph_st *g = calloc(1, sizeof *g);
  g->owner = owner;
  return g;
}

static void free_graph(struct CUgraph_st *g)
{
  for (size_t k = 0; k < g->n_nodes; k++) {
    if (g->nodes[k]->body)
      free_graph(g->nodes[k]->body);
    free(g->nodes[k]->deps);
    free(g->nodes[k]);
  }
  free(g->nodes);
  free(g);
}

/* A node of `kind` in g after deps (copied). */
static struct CUgraphNode_st *add(cudaGraph_t g, enum fcuda_kind kind, const cudaGraphNode_t *deps,
                                  size_t n_deps)
{
  struct CUgraphNode_st *n = calloc(1, sizeof *n);
  n->kind = kind;
  n->graph = g;
  n->deps = malloc((n_deps ? n_deps : 1) * sizeof *n->deps);
  memcpy(n->deps, deps, n_deps * sizeof *deps);
  n->n_deps = n_deps;
  g->nodes = realloc(g->nodes, (g->n_nodes + 1) * sizeof *g->nodes);
  g->nodes[g->n_nodes++] = n;
  return n;
}

cudaError_t cudaGraphCreate(cudaGraph_t *graph, unsigned int flags)
{
  (void)flags;
  FAIL_IF("cudaGraphCreate");
  *graph = fcuda_last_graph = new_graph(NULL);
  fcuda_live_graphs++;
  return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
  fails("cudaGraphDestroy");
  free_graph(graph);
  fcuda_live_graphs--;
  return cudaSuccess;
}

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *handle, cudaGraph_t graph,
                                             unsigned int default_value, unsigned int flags)
{
  FAIL_IF("cudaGraphConditionalHandleCreate");
  *handle = 0x4a000 + fcuda_n_handles + 1;
  fcuda_last_handle = (struct fcuda_handle){*handle, graph, default_value, flags};
  if (fcuda_n_handles < FCUDA_HANDLES)
    fcuda_handles[fcuda_n_handles] = fcuda_last_handle;
  fcuda_n_handles++;
  return cudaSuccess;
}

cudaError_t cudaGraphAddNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                             const cudaGraphEdgeData *edges, size_t n_deps,
                             struct cudaGraphNodeParams *p)
{
  FAIL_IF("cudaGraphAddNode");
  if (p->type != cudaGraphNodeTypeConditional || edges)
    return cudaErrorNotSupported;      /* all the runtime adds this way */
  struct CUgraphNode_st *n = add(graph, FC_CONDITIONAL, deps, n_deps);
  n->handle = p->conditional.handle;
  n->cond_type = p->conditional.type;
  n->cond_size = p->conditional.size;
  n->body = new_graph(n);
  static cudaGraph_t out[1];           /* CUDA-owned, valid while the node lives */
  out[0] = n->body;
  p->conditional.phGraph_out = out;
  *node = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t n_deps,
                                   const struct cudaKernelNodeParams *p)
{
  FAIL_IF("cudaGraphAddKernelNode");
  struct CUgraphNode_st *n = add(graph, FC_KERNEL, deps, n_deps);
  n->func = p->func;
  n->grid = p->gridDim;
  n->block = p->blockDim;
  n->shared = p->sharedMemBytes;
  /* the clauses kernels have three parameters; every other kernel given
   * here at least two (none is read past its array) */
  int n_params = p->func == (void *)FCUDA_CLAUSES_KERNEL ||
                         p->func == (void *)FCUDA_AFTER_COPY_CLAUSES_KERNEL
                     ? 3
                     : 2;
  for (int k = 0; k < n_params && p->kernelParams && p->kernelParams[k]; k++)
    memcpy(&n->param[k], p->kernelParams[k], sizeof n->param[k]);
  *node = n;
  return cudaSuccess;
}

cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t node, cudaKernelNodeAttrID attr,
                                            const cudaKernelNodeAttrValue *value)
{
  FAIL_IF("cudaGraphKernelNodeSetAttribute");
  node->n_attrs++;
  node->last_attr = attr;
  node->last_attr_val = *value;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                   const cudaGraphNode_t *deps, size_t n_deps,
                                   const struct cudaMemsetParams *p)
{
  FAIL_IF("cudaGraphAddMemsetNode");
  struct CUgraphNode_st *n = add(graph, FC_MEMSET, deps, n_deps);
  n->dst = p->dst;
  n->count = p->width;
  *node = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *node, cudaGraph_t graph,
                                     const cudaGraphNode_t *deps, size_t n_deps, void *dst,
                                     const void *src, size_t count, enum cudaMemcpyKind kind)
{
  FAIL_IF("cudaGraphAddMemcpyNode1D");
  struct CUgraphNode_st *n = add(graph, FC_MEMCPY, deps, n_deps);
  n->dst = dst;
  n->src = src;
  n->count = count;
  n->copy_kind = kind;
  *node = n;
  return cudaSuccess;
}

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                  const cudaGraphNode_t *deps, size_t n_deps)
{
  FAIL_IF("cudaGraphAddEmptyNode");
  *node = add(graph, FC_EMPTY, deps, n_deps);
  return cudaSuccess;
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                        const cudaGraphNode_t *deps, size_t n_deps,
                                        cudaEvent_t event)
{
  (void)event;
  FAIL_IF("cudaGraphAddEventRecordNode");
  *node = add(graph, FC_RECORD, deps, n_deps);
  return cudaSuccess;
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                      const cudaGraphNode_t *deps, size_t n_deps,
                                      cudaEvent_t event)
{
  (void)event;
  FAIL_IF("cudaGraphAddEventWaitNode");
  *node = add(graph, FC_WAIT, deps, n_deps);
  return cudaSuccess;
}

cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from,
                                     const cudaGraphNode_t *to, const cudaGraphEdgeData *edges,
                                     size_t n)
{
  (void)graph;
  (void)from;
  FAIL_IF("cudaGraphAddDependencies");
  for (size_t k = 0; k < n; k++)
    to[k]->n_programmatic += edges && edges[k].type == cudaGraphDependencyTypeProgrammatic;
  return cudaSuccess;
}

int fcuda_dot_prints;
char *fcuda_last_dot_path;

cudaError_t cudaGraphDebugDotPrint(cudaGraph_t graph, const char *path, unsigned int flags)
{
  (void)graph;
  (void)flags;
  FAIL_IF("cudaGraphDebugDotPrint");
  fcuda_dot_prints++;
  free(fcuda_last_dot_path);
  fcuda_last_dot_path = strdup(path);
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph, unsigned long long flags)
{
  (void)flags;
  FAIL_IF("cudaGraphInstantiate");
  *exec = calloc(1, sizeof **exec);
  (*exec)->graph = graph;
  fcuda_live_execs++;
  return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
  fails("cudaGraphExecDestroy");
  free(exec);
  fcuda_live_execs--;
  return cudaSuccess;
}

cudaError_t cudaGraphExecUpdate(cudaGraphExec_t exec, cudaGraph_t graph,
                                cudaGraphExecUpdateResultInfo *info)
{
  (void)exec;
  (void)graph;
  (void)info;
  fails("cudaGraphExecUpdate");
  return cudaErrorGraphExecUpdateFailure;     /* never in place here */
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
  (void)flags;
  FAIL_IF("cudaEventCreateWithFlags");
  *event = calloc(1, sizeof **event);
  fcuda_live_events++;
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
  fails("cudaEventDestroy");
  free(event);
  fcuda_live_events--;
  return cudaSuccess;
}

cudaError_t cudaLibraryLoadData(cudaLibrary_t *library, const void *code,
                                enum cudaJitOption *jit_options, void **jit_values,
                                unsigned int n_jit, enum cudaLibraryOption *lib_options,
                                void **lib_values, unsigned int n_lib)
{
  (void)jit_options, (void)jit_values, (void)n_jit;
  (void)lib_options, (void)lib_values, (void)n_lib;
  fcuda_last_library_code = code;
  FAIL_IF("cudaLibraryLoadData");
  fcuda_library_loads++;
  *library = (cudaLibrary_t)(unsigned long)0x11b;
  return cudaSuccess;
}

cudaError_t cudaLibraryUnload(cudaLibrary_t library)
{
  (void)library;
  fcuda_library_unloads++;
  return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func)
{
  (void)func;
  FAIL_IF("cudaFuncGetAttributes");
  memset(attr, 0, sizeof *attr);
  return cudaSuccess;
}

cudaError_t cudaLibraryGetKernel(cudaKernel_t *kernel, cudaLibrary_t library, const char *name)
{
  (void)library;
  FAIL_IF("cudaLibraryGetKernel");
  *kernel = !strcmp(name, "pygraph_while_condition")    ? FCUDA_CONDITION_KERNEL
            : !strcmp(name, "pygraph_while_after_copy") ? FCUDA_AFTER_COPY_KERNEL
            : !strcmp(name, "pygraph_while_condition_clauses") ? FCUDA_CLAUSES_KERNEL
            : !strcmp(name, "pygraph_while_after_copy_clauses") ? FCUDA_AFTER_COPY_CLAUSES_KERNEL
                                                                 : FCUDA_LOADER_KERNEL;
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void)
{
  return cudaSuccess;
}

/* ---- stream capture (a library op's child graph, library_capture.c) ---- */

cudaError_t cudaGetDevice(int *device)
{
  FAIL_IF("cudaGetDevice");
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
  FAIL_IF("cudaStreamCreateWithFlags");
  if (flags != cudaStreamNonBlocking)
    return cudaErrorNotSupported;      /* all the runtime makes */
  *stream = (cudaStream_t)(unsigned long)(0x5700 + ++fcuda_streams_made);
  return cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
  FAIL_IF("cudaStreamBeginCapture");
  if (fcuda_capturing)
    return cudaErrorIllegalState;      /* one capture at a time here */
  fcuda_capturing = stream;
  fcuda_capture_mode = mode;
  fcuda_captures_begun++;
  return cudaSuccess;
}

/* Hands out a new graph (the captured work: empty here), counted live. */
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph)
{
  *graph = NULL;
  if (stream != fcuda_capturing)
    return cudaErrorIllegalState;
  fcuda_capturing = NULL;
  fcuda_captures_ended++;
  FAIL_IF("cudaStreamEndCapture");
  if (fcuda_capture_invalidated)
    return cudaErrorStreamCaptureInvalidated;
  *graph = fcuda_last_captured = new_graph(NULL);
  fcuda_live_graphs++;
  return cudaSuccess;
}

cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *node, cudaGraph_t graph,
                                       const cudaGraphNode_t *deps, size_t n_deps,
                                       cudaGraph_t child)
{
  FAIL_IF("cudaGraphAddChildGraphNode");
  struct CUgraphNode_st *n = add(graph, FC_CHILD, deps, n_deps);
  n->child = child;
  *node = n;
  return cudaSuccess;
}

/* Never called by the building this test runs; present to link. */
#define UNUSED_CALL(decl) \
  decl                    \
  {                       \
    abort();              \
  }
UNUSED_CALL(cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t e, cudaGraphNode_t n,
                                                         const struct cudaKernelNodeParams *p))
UNUSED_CALL(cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t e, cudaGraphNode_t n,
                                                         const struct cudaMemsetParams *p))
UNUSED_CALL(cudaError_t cudaGraphExecMemcpyNodeSetParams1D(cudaGraphExec_t e, cudaGraphNode_t n,
                                                           void *dst, const void *src, size_t c,
                                                           enum cudaMemcpyKind k))
UNUSED_CALL(cudaError_t cudaGraphExecEventRecordNodeSetEvent(cudaGraphExec_t e, cudaGraphNode_t n,
                                                             cudaEvent_t ev))
UNUSED_CALL(cudaError_t cudaGraphExecEventWaitNodeSetEvent(cudaGraphExec_t e, cudaGraphNode_t n,
                                                           cudaEvent_t ev))
UNUSED_CALL(cudaError_t cudaGraphLaunch(cudaGraphExec_t e, cudaStream_t s))
UNUSED_CALL(cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s))
UNUSED_CALL(cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned int f))
UNUSED_CALL(cudaError_t cudaStreamSynchronize(cudaStream_t s))

/* ---- driver entry points (fake_cudart.h) ---- */

int fcuda_driver_launches, fcuda_driver_updates;
int fcuda_driver_launch_param0, fcuda_driver_update_param0;
unsigned fcuda_driver_launch_attrs;
CUcontext fcuda_current_ctx, fcuda_stream_ctx;

#define DRIVER_FAIL_IF(name) \
  if (fails(name))           \
  return CUDA_ERROR_INVALID_VALUE

static CUresult f_add_kernel_node(CUgraphNode *node, CUgraph graph, const CUgraphNode *deps,
                                  size_t n_deps, const CUDA_KERNEL_NODE_PARAMS *p)
{
  DRIVER_FAIL_IF("cuGraphAddKernelNode");
  struct CUgraphNode_st *n = add(graph, FC_KERNEL, deps, n_deps);
  n->driver = 1;
  n->func = p->func;
  n->grid = (dim3){p->gridDimX, p->gridDimY, p->gridDimZ};
  n->block = (dim3){p->blockDimX, p->blockDimY, p->blockDimZ};
  for (int k = 0; k < 2 && p->kernelParams && p->kernelParams[k]; k++)
    memcpy(&n->param[k], p->kernelParams[k], sizeof n->param[k]);
  *node = n;
  return CUDA_SUCCESS;
}

static CUresult f_node_set_attribute(CUgraphNode node, CUkernelNodeAttrID attr,
                                     const CUkernelNodeAttrValue *value)
{
  DRIVER_FAIL_IF("cuGraphKernelNodeSetAttribute");
  node->n_attrs++;
  node->last_attr = (cudaLaunchAttributeID)attr;
  memcpy(&node->last_attr_val, value, sizeof node->last_attr_val);
  return CUDA_SUCCESS;
}

static CUresult f_exec_set_params(CUgraphExec exec, CUgraphNode node,
                                  const CUDA_KERNEL_NODE_PARAMS *p)
{
  DRIVER_FAIL_IF("cuGraphExecKernelNodeSetParams");
  fcuda_driver_updates++;
  memcpy(&fcuda_driver_update_param0, p->kernelParams[0], sizeof fcuda_driver_update_param0);
  return CUDA_SUCCESS;
}

static CUresult f_launch(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                         unsigned by, unsigned bz, unsigned shmem, CUstream stream, void **params,
                         void **extra)
{
  DRIVER_FAIL_IF("cuLaunchKernel");
  fcuda_driver_launches++;
  memcpy(&fcuda_driver_launch_param0, params[0], sizeof fcuda_driver_launch_param0);
  return CUDA_SUCCESS;
}

static CUresult f_launch_ex(const CUlaunchConfig *config, CUfunction f, void **params,
                            void **extra)
{
  DRIVER_FAIL_IF("cuLaunchKernelEx");
  fcuda_driver_launches++;
  fcuda_driver_launch_attrs = config->numAttrs;
  memcpy(&fcuda_driver_launch_param0, params[0], sizeof fcuda_driver_launch_param0);
  return CUDA_SUCCESS;
}

static CUresult f_ctx_current(CUcontext *ctx)
{
  *ctx = fcuda_current_ctx;
  return CUDA_SUCCESS;
}

static CUresult f_stream_ctx(CUstream stream, CUcontext *ctx)
{
  *ctx = fcuda_stream_ctx;
  return CUDA_SUCCESS;
}

cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned int version,
                                             unsigned long long flags,
                                             enum cudaDriverEntryPointQueryResult *status)
{
  static const struct {
    const char *name;
    void *fn;
  } known[] = {
      {"cuGraphAddKernelNode", (void *)f_add_kernel_node},
      {"cuGraphKernelNodeSetAttribute", (void *)f_node_set_attribute},
      {"cuGraphExecKernelNodeSetParams", (void *)f_exec_set_params},
      {"cuLaunchKernel", (void *)f_launch},
      {"cuLaunchKernelEx", (void *)f_launch_ex},
      {"cuCtxGetCurrent", (void *)f_ctx_current},
      {"cuStreamGetCtx", (void *)f_stream_ctx},
  };
  *fn = NULL;
  *status = cudaDriverEntryPointSymbolNotFound;
  for (size_t k = 0; k < sizeof known / sizeof known[0]; k++)
    if (strcmp(symbol, known[k].name) == 0) {
      *fn = known[k].fn;
      *status = cudaDriverEntryPointSuccess;
    }
  return cudaSuccess;
}

/* ---- the rest of the CUDA layer that graph_realise.c reaches ---- */

static int every_event_times(cudaEvent_t event)
{
  (void)event;
  return 1;
}

static int synchronized(void *graph)
{
  (void)graph;
  return 1;
}

const struct pygraph_backend pygraph_cuda_backend = {.event_times = every_event_times,
                                                     .graph_synchronize = synchronized};

int pygraph_cuda_stream_captured(cudaStream_t stream)
{
  (void)stream;
  return 0;
}

struct pygraph_param_layout *fcuda_two_param_layout(void)
{
  struct pygraph_param_layout *l = pygraph_param_layout_alloc(2);
  l->params[0].offset = 0;
  l->params[0].size = 4;
  l->params[1].offset = 8;
  l->params[1].size = 8;
  l->total_size = 16;
  return l;
}
