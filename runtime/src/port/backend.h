/* backend.h - everything the runtime asks of CUDA, behind one small table.
 *
 * The state machine only talks to this interface, so unit tests can run it
 * against a fake that logs calls and fails on demand.  backend_cuda.c is
 * the real one.  A graph handle is opaque to the logic; it owns the CUDA
 * graph, its executable form and one node slot per op, in op order
 * (empty where the plan gives the op no node). */
#ifndef PYGRAPH_BACKEND_H
#define PYGRAPH_BACKEND_H

#include <stddef.h>

#include <cuda_runtime_api.h>

/* The port knows the logic's types only by name (it is below them). */
struct pygraph_op;
struct pygraph_op_list;
struct pygraph_param_layout;
struct pygraph_indirect_graph;
struct pygraph_graph_plan;
struct pygraph_arg_block;
struct pygraph_while_spec;

/* What the runtime needs to know about an indirect twin (indirect.h). */
struct pygraph_twin_info {
  int max_threads_per_block;
  int max_dynamic_smem;                  /* cudaFuncAttributeMaxDynamicSharedMemorySize */
  unsigned layout_tag;                   /* size of its layout-tag parameter (0: none) */
  int waits;                             /* compiled for sm_90+: lets its successor start
                                            early and waits for its predecessors
                                            (griddepcontrol), so it may be the target of a
                                            programmatic edge */
};

struct pygraph_backend {
  /* Run one recorded op now, on its stream (a PYGRAPH_OP_HOST_BYTES op: its
   * copy kernel, the bytes at op->src as its parameters).  The return value
   * is the CUDA error; the runtime does not swallow it (it stays CUDA's
   * last error). */
  cudaError_t (*execute)(const struct pygraph_op *op);

  /* Parameter layout of a kernel (host stub), malloc'ed with
   * pygraph_param_layout_alloc (recording/param_cache.h); NULL when it cannot be determined.
   * arg_slots: the entries of the launch's argument array when the pass
   * could tell (pygraph_site.arg_slots), else 0. */
  struct pygraph_param_layout *(*param_layout)(const void *func, unsigned arg_slots);

  /* The parameter layout of a CUfunction the program launches through the
   * driver API (recording/op.h, `driver`), asked of the driver
   * (cuFuncGetParamInfo) as param_layout asks it of a kernel's CUfunction;
   * arg_slots as there.  NULL, or a NULL answer: the launch is not
   * deferred (the segment flushes, the call is made as it is). */
  struct pygraph_param_layout *(*driver_param_layout)(const void *func, unsigned arg_slots);

  /* May a driver-API launch on `stream` (normalised) be recorded: is a
   * context current on the calling thread, the one the runtime API's graph
   * calls then use, and is `stream` (the legacy or per-thread stream, or a
   * stream of that context) of it?  Asked at every such launch; leaves no
   * error behind.  NULL: never. */
  int (*driver_context_ok)(cudaStream_t stream);

  /* Are both pointers plain device memory (cudaMemoryTypeDevice: not
   * pinned host, managed, pageable or unknown memory)?  For
   * cudaMemcpyDefault and the synchronous memset (dst twice) and copy. */
  int (*both_device_memory)(const void *dst, const void *src);

  /* Does kernel `func` already hold attribute `attr` (enum
   * cudaFuncAttribute) at `value`?  1 only when known (the maximum dynamic
   * shared memory and the shared memory carveout, through
   * cudaFuncGetAttributes); 0 otherwise, errors included (left cleared). */
  int (*func_attribute_holds)(const void *func, int attr, int value);
  /* May the bytes at `src` be read at a synchronous host-to-device copy's
   * call and delivered by the copy kernel of PYGRAPH_OP_HOST_BYTES
   * (recording/host_bytes.h), as such a copy delivers them: is `src` host
   * memory CUDA does not know (pageable: neither pinned, registered,
   * managed nor device memory, so no kernel writes it), and are the copy
   * kernels loaded (at the first call, in relaxed capture mode)?  Leaves no
   * error behind for the program.  NULL: never. */
  int (*host_bytes_source)(const void *src);

  /* Is p host memory CUDA does not know (pageable: neither pinned,
   * registered, managed nor device memory), which no kernel writes?  For
   * a library call's host scalar in a whole loop, read once when the call
   * is captured.  Leaves no error behind.  NULL: never. */
  int (*host_only_memory)(const void *p);

  /* Does [dst, dst + count) lie inside one allocation of plain device
   * memory (not managed, not host)?  Leaves no error behind. */
  int (*device_range)(const void *dst, size_t count);

  /* The device address and size of a __device__ or __constant__ variable,
   * given its host shadow as cudaMemcpyToSymbol is (cudaGetSymbolAddress,
   * cudaGetSymbolSize), cached per symbol: 1, or 0 when it has none or is
   * __managed__ memory.  Leaves no error behind.  NULL: no symbols. */
  int (*symbol_range)(const void *symbol, void **address, size_t *size);

  /* Create the graph `plan` describes (graph_plan.h, made from `ops`, which
   * are materialized): per op a node of the plan's form with the plan's
   * dependencies, programmatic where the plan says so (a
   * PYGRAPH_OP_HOST_BYTES op's: a kernel node of its copy kernel, its bytes
   * the parameters); the plan's
   * after-graph records made after each launch, on the launch stream.  The
   * backend adds nothing and decides nothing about the shape.  With `ind`
   * (NULL or no nodes: none) the graph also gets one loader kernel node per
   * chunk of the argument block (arg_loader.h), with the host image as
   * parameters, on which every root node depends; each indirect op becomes
   * a kernel node running its twin with one parameter, the device address
   * of its slice.  The plan is the caller's (only read during the call). */
  cudaError_t (*graph_build)(const struct pygraph_op_list *ops,
                             const struct pygraph_graph_plan *plan,
                             const struct pygraph_indirect_graph *ind, void **graph);

  /* Make `graph` launchable.  When `previous` (a launchable graph of this
   * segment, or NULL) can be updated in place to the new topology that is
   * preferred; either way `previous` is consumed (destroyed) on success and
   * left untouched on failure. */
  cudaError_t (*graph_instantiate)(void *graph, void *previous);

  /* Apply op's parameters to node `index` of the executable graph (a
   * PYGRAPH_OP_HOST_BYTES node takes the bytes at op->src, copied by the
   * call).  For a
   * record the plan made after the graph: its new event, which must not
   * time either (event_times), else cudaErrorNotSupported. */
  cudaError_t (*graph_update_node)(void *graph, size_t index, const struct pygraph_op *op);

  /* Launch on the stream of the first op, joining the other streams the ops
   * used.  *ran tells whether the graph was enqueued (so its work must not
   * be executed again) even when an error is returned. */
  cudaError_t (*graph_launch)(void *graph, int *ran);

  void (*graph_destroy)(void *graph);

  /* A whole loop as one graph (graphs/while_graph.h says its shape): the
   * argument loaders of `ind` (as graph_build adds them), then a
   * conditional WHILE node whose handle is 1 at each launch, its body the
   * plan's nodes of `ops` (programmatic edges made full), the status copy
   * spec->status_op made a device-to-device copy into spec->status, and
   * last the condition kernel (spec->state, the handle) after every body
   * node no other depends on; with spec->split_after_copy, the ops after
   * the status copy in an IF node's body between an after-copy kernel
   * and the condition kernel (graphs/while_graph.h).  The result is a graph like graph_build's:
   * graph_instantiate (never in place: `previous` is destroyed),
   * graph_set_args, graph_launch, graph_synchronize and graph_destroy
   * take it; node updates of its body are not promised.  On failure
   * nothing stays allocated, *graph is NULL and *step names the failing
   * step (a static string).  NULL: the backend has no WHILE graphs. */
  cudaError_t (*while_graph_build)(const struct pygraph_op_list *ops,
                                   const struct pygraph_graph_plan *plan,
                                   const struct pygraph_indirect_graph *ind,
                                   const struct pygraph_while_spec *spec, void **graph,
                                   const char **step);

  /* ---- parameter indirection (indirect.h, arg_loader.h) ---- */

  /* Is `twin` launchable?  NULL = yes, with *info filled; else why not
   * (a static string).  The runtime caches the answer per twin. */
  const char *(*twin_check)(const void *twin, struct pygraph_twin_info *info);

  cudaError_t (*device_alloc)(void **ptr, size_t size);
  void (*device_free)(void *ptr);

  /* The loaders take args->host (the block the graph was built with, same
   * layout) as their new parameters: one kernel-node update per chunk. */
  cudaError_t (*graph_set_args)(void *graph, const struct pygraph_arg_block *args);

  /* Wait for the graph's launches (before freeing what they read; errors
   * ignored).  Returns 0 when it could not wait because the program is
   * capturing the graph's launch stream (synchronizing it would invalidate
   * that capture): the caller then keeps what the launches may read. */
  int (*graph_synchronize)(void *graph);

  /* How many blocks of `func` (`threads` per block, `smem` bytes of dynamic
   * shared memory) the current device holds at once:
   * cudaOccupancyMaxActiveBlocksPerMultiprocessor x SM count.  Decides
   * whether a programmatic edge may leave a kernel node (indirect.h); the
   * runtime caches successful answers per (func, threads, smem).  NULL or
   * an error: no programmatic edge (the safe side). */
  cudaError_t (*resident_blocks)(const void *func, unsigned threads, size_t smem,
                                 long long *blocks);

  /* ---- verify mode (segment/verify.h) ---- */

  /* Does `ptr` (any pointer-sized value) point into device or managed
   * memory?  1 with the mapped range of the allocation holding it in *base,
   * *size; -1 when it points into host memory CUDA knows (pinned, mapped or
   * registered: kernels may write it); 0 for anything else (an unknown
   * address, a number).  Leaves no error behind for the program to see. */
  int (*allocation_of)(const void *ptr, void **base, size_t *size);

  /* cudaMemcpyAsync(dst, src, size, cudaMemcpyDefault, stream): device or
   * host memory on either side. */
  cudaError_t (*memory_copy)(void *dst, const void *src, size_t size, cudaStream_t stream);

  /* cudaStreamSynchronize: the stream's work is done (or its error). */
  cudaError_t (*stream_synchronize)(cudaStream_t stream);

  /* ---- measurement (selective deployment, measure.h) ---- */

  void (*event_destroy)(cudaEvent_t event);

  /* Can `event` time?  0 only when it is known to have been made with
   * cudaEventDisableTiming; 1 when it can, or when that is not known.  The graph
   * plan makes such an event's joined records after the graph (graph_plan.h).
   * NULL: every event times. */
  int (*event_times)(cudaEvent_t event);

  /* An event that can time (no cudaEventDisableTiming). */
  cudaError_t (*timing_event_create)(cudaEvent_t *event);

  /* cudaEventRecord(event, stream). */
  cudaError_t (*event_record)(cudaEvent_t event, cudaStream_t stream);

  /* cudaEventQuery: cudaSuccess (done), cudaErrorNotReady, or an error. */
  cudaError_t (*event_query)(cudaEvent_t event);

  /* cudaEventElapsedTime, both events done. */
  cudaError_t (*event_elapsed_ms)(float *ms, cudaEvent_t start, cudaEvent_t end);

  /* Host clock in microseconds (monotonic). */
  double (*now_us)(void);

  /* ---- the program's own stream captures (capture_check.h) ---- */

  /* Is the program capturing `stream` (cudaStreamGetCaptureInfo says active
   * or invalidated)?  Also 1 when the status cannot be told (e.g. the legacy
   * stream while a blocking stream captures): the runtime then stays out of
   * the way.  NULL: streams are never captured. */
  int (*stream_captured)(cudaStream_t stream);

  /* Clear a non-sticky error left behind by a failed graph call. */
  void (*clear_error)(void);

  const char *(*error_name)(cudaError_t err);

  /* ---- several devices in one region (abi/devices.h) ---- */

  /* cudaGetDevice / cudaSetDevice of the calling thread.  The runtime asks
   * only in a region whose iteration changed the device, and at the begin
   * of regions once the process changed devices: single-device programs
   * never call them.  NULL: one device (0), never changed. */
  cudaError_t (*get_device)(int *device);
  cudaError_t (*set_device)(int device);
  /* The device whose memory `ptr` points into (cudaMemoryTypeDevice), -1
   * for any other memory or an unknown pointer.  Leaves no error behind.
   * NULL: every pointer is the current device's. */
  int (*pointer_device)(const void *ptr);

  /* ---- the timeline (segment/ranges.h) ---- */

  /* Opens a range named `name` (a string that outlives the range) on the
   * calling thread's range stack, in colour `argb` (0: the tool's choice);
   * range_pop closes the thread's innermost one.  A profiling tool shows
   * them (NVTX); with none attached they do nothing.  NULL: no ranges. */
  void (*range_push)(const char *name, unsigned argb);
  void (*range_pop)(void);
  /* 1 when a tool records the ranges, 0 when none does (NVTX found none:
   * a segment then names no ranges and pushes none, a region's first
   * iteration formatting no names for nothing).  NULL: as 1. */
  int (*range_tool)(void);
};

#endif /* PYGRAPH_BACKEND_H */
