/* record.c - deferral rules for each kind of routed op. */
#include "abi/record.h"

#include <limits.h>

#include "abi/capture_check.h"
#include "abi/devices.h"
#include "pygraph_abi.h"
#include "recording/param_cache.h"
#include "abi/region_stack.h"
#include "abi/whole_loop.h"

cudaStream_t pygraph_normalize_stream(cudaStream_t stream, int per_thread_default)
{
  if (stream)
    return stream;
  return per_thread_default ? cudaStreamPerThread : cudaStreamLegacy;
}

enum pygraph_record_result pygraph_record_undeferrable(struct pygraph_segment *seg,
                                                       const char *reason)
{
  pygraph_stop_live(seg, reason);
  return PYGRAPH_RUN_NOW;
}

/* Does this op go straight to CUDA (the caller makes the call)?  When a
 * probe only counts it (segment.h: before any query), and when the program
 * is capturing `stream` (capture_check.h): then what was recorded so far
 * runs now, in order, and this op and the rest of the iteration go
 * straight to CUDA, into the program's capture - no allocation, event,
 * query or synchronization of pygraph's own in this iteration. */
static int goes_to_cuda(struct pygraph_segment *seg, cudaStream_t stream)
{
  if (pygraph_segment_counts_only(seg))
    return 1;
  if (!pygraph_stream_captured(pygraph_segment_backend(seg), stream))
    return 0;
  pygraph_yield_live(seg);
  return 1;
}

/* PYGRAPH_MAX_OPS: memory stays bounded, and huge graphs do not pay. */
static int over_cap(struct pygraph_segment *seg)
{
  return pygraph_segment_over_cap(seg);
}

/* `args`: a kernel's arguments as the caller passed them (else NULL). */
static enum pygraph_record_result append(struct pygraph_segment *seg, const struct pygraph_op *op,
                                         void **args)
{
  const char *refused = pygraph_segment_append(seg, op, args);
  return refused ? pygraph_record_undeferrable(seg, refused) : PYGRAPH_DEFERRED;
}

/* Launch attributes valid for graph kernel nodes as they are for launches
 * (driver_types.h), which a node reproduces exactly.  Not: the cooperative
 * launch (the table keeps cudaLaunchCooperativeKernel a barrier too), the
 * programmatic ones (pygraph's own edges), completion events, device
 * updatable nodes, the carveout (valid for launches only). */
static int node_attribute(cudaLaunchAttributeID id)
{
  switch (id) {
  case cudaLaunchAttributeAccessPolicyWindow:
  case cudaLaunchAttributeClusterDimension:
  case cudaLaunchAttributeClusterSchedulingPolicyPreference:
  case cudaLaunchAttributePriority:
  case cudaLaunchAttributeMemSyncDomainMap:
  case cudaLaunchAttributeMemSyncDomain:
  case cudaLaunchAttributePreferredClusterDimension:
    return 1;
  default:
    return 0;
  }
}

/* FNV-1a over the attributes' bytes: their stand-in in signatures. */
static unsigned long long attrs_hash(const cudaLaunchAttribute *attrs, unsigned n)
{
  const unsigned char *b = (const unsigned char *)attrs;
  unsigned long long h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n * sizeof *attrs; i++)
    h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

enum pygraph_record_result pygraph_record_kernel(struct pygraph_segment *seg,
                                                 const pygraph_site *site, const void *func,
                                                 dim3 grid, dim3 block, size_t shmem,
                                                 cudaStream_t stream, void **args)
{
  return pygraph_record_kernel_attrs(seg, site, func, grid, block, shmem, stream, args, NULL, 0);
}

/* The layout of op's kernel: last iteration's op at this position usually
 * is this very kernel, launched the same way (its layout, no lock). */
static const struct pygraph_param_layout *kernel_layout(struct pygraph_segment *seg,
                                                        const struct pygraph_op *op)
{
  const struct pygraph_op_list *cur = pygraph_segment_recorded(seg);
  const struct pygraph_op_list *ref = pygraph_segment_hint(seg);
  const struct pygraph_op *hint = ref && cur->n_ops < ref->n_ops ? &ref->ops[cur->n_ops] : NULL;
  if (hint && (hint->kind != PYGRAPH_OP_KERNEL || hint->driver != op->driver))
    hint = NULL;
  return pygraph_param_layout_lookup(pygraph_segment_backend(seg), op->func, op->driver,
                                     op->site ? op->site->arg_slots : 0,
                                     hint ? hint->func : NULL, hint ? hint->layout : NULL);
}

/* A kernel op (kind, stream, func, driver, site, grid, block and shmem
 * set) with its launch attributes and the caller's arguments, on a stream
 * found not captured (goes_to_cuda asked already). */
static enum pygraph_record_result kernel_op(struct pygraph_segment *seg, struct pygraph_op *op,
                                            void **args, const cudaLaunchAttribute *attrs,
                                            unsigned n_attrs)
{
  for (unsigned i = 0; i < n_attrs; i++)
    if (!node_attribute(attrs[i].id))
      return pygraph_record_undeferrable(seg, "a launch attribute with no graph-node form");
  if (over_cap(seg))
    return pygraph_record_undeferrable(seg, "iteration too long");
  op->layout = kernel_layout(seg, op);
  if (!op->layout)
    return pygraph_record_undeferrable(seg, "kernel parameter layout unavailable");
  if (op->layout->n_params > 0 && !args)
    return pygraph_record_undeferrable(seg, "kernel arguments missing");
  if (op->shmem > UINT_MAX)
    return pygraph_record_undeferrable(seg, "dynamic shared memory too large for a graph node");
  op->wait_link = -1;
  op->n_attrs = n_attrs;
  op->attrs = n_attrs ? attrs : NULL;
  op->attrs_hash = n_attrs ? attrs_hash(attrs, n_attrs) : 0;
  return append(seg, op, args);
}

enum pygraph_record_result pygraph_record_kernel_attrs(
    struct pygraph_segment *seg, const pygraph_site *site, const void *func, dim3 grid, dim3 block,
    size_t shmem, cudaStream_t stream, void **args, const cudaLaunchAttribute *attrs,
    unsigned n_attrs)
{
  if (goes_to_cuda(seg, stream))
    return PYGRAPH_RUN_NOW;
  struct pygraph_op op = {
      .kind = PYGRAPH_OP_KERNEL, .stream = stream, .func = func, .site = site,
      .grid = grid, .block = block, .shmem = shmem,
  };
  return kernel_op(seg, &op, args, attrs, n_attrs);
}

/* Flush reasons of driver-API launches that are not deferred (record.h). */
static const char kDriverExtra[] = "driver launch with its parameters in `extra`";
static const char kDriverContext[] = "driver launch outside the current context";

enum pygraph_record_result pygraph_record_driver_kernel(
    struct pygraph_segment *seg, const pygraph_site *site, const void *func, dim3 grid,
    dim3 block, size_t shmem, cudaStream_t stream, void **params, void **extra,
    const cudaLaunchAttribute *attrs, unsigned n_attrs)
{
  if (goes_to_cuda(seg, stream))
    return PYGRAPH_RUN_NOW;
  if (extra)
    return pygraph_record_undeferrable(seg, kDriverExtra);
  if (n_attrs && !attrs)
    return pygraph_record_undeferrable(seg, "launch configuration missing");
  const struct pygraph_backend *backend = pygraph_segment_backend(seg);
  if (!backend->driver_context_ok || !backend->driver_context_ok(stream))
    return pygraph_record_undeferrable(seg, kDriverContext);
  struct pygraph_op op = {
      .kind = PYGRAPH_OP_KERNEL, .stream = stream, .func = func, .driver = 1, .site = site,
      .grid = grid, .block = block, .shmem = shmem,
  };
  return kernel_op(seg, &op, params, attrs, n_attrs);
}

/* Flush reasons (the report's last_flush) of the synchronous forms. */
static const char kSyncMemsetNotDevice[] = "synchronous memset of non-device memory";
static const char kSyncMemcpyNotDevice[] = "synchronous memcpy of non-device memory";

/* Does the host wait for a synchronous memset or copy of these pointers?
 * Not on plain device memory (record.h); the port answers for pinned host,
 * managed, pageable and unknown memory alike: not device memory. */
static int device_memory(struct pygraph_segment *seg, void *dst, const void *src)
{
  return pygraph_segment_backend(seg)->both_device_memory(dst, src);
}

static enum pygraph_record_result record_memset(struct pygraph_segment *seg, void *dst, int value,
                                                size_t count, cudaStream_t stream,
                                                int synchronous)
{
  if (goes_to_cuda(seg, stream))
    return PYGRAPH_RUN_NOW;
  if (count == 0)
    return pygraph_record_undeferrable(seg, "zero-size memset");
  if (synchronous && !device_memory(seg, dst, dst))
    return pygraph_record_undeferrable(seg, kSyncMemsetNotDevice);
  struct pygraph_op op = {
      .kind = PYGRAPH_OP_MEMSET, .stream = stream, .dst = dst, .value = value,
      .count = count, .wait_link = -1,
  };
  return append(seg, &op, NULL);
}

enum pygraph_record_result pygraph_record_memset(struct pygraph_segment *seg, void *dst,
                                                 int value, size_t count, cudaStream_t stream)
{
  return record_memset(seg, dst, value, count, stream, 0);
}

enum pygraph_record_result pygraph_record_sync_memset(struct pygraph_segment *seg, void *dst,
                                                      int value, size_t count,
                                                      cudaStream_t stream)
{
  return record_memset(seg, dst, value, count, stream, 1);
}

/* Host memory in a graph would be read/written at launch rather than at
 * the call, so only device-to-device copies are deferred.  An asynchronous
 * copy is taken at its word; a synchronous one also makes the host wait
 * when it touches managed memory, so its pointers are checked whatever its
 * kind says. */
static int copies_device_to_device(struct pygraph_segment *seg, void *dst, const void *src,
                                   enum cudaMemcpyKind kind, int synchronous)
{
  if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
    return 0;
  return (kind == cudaMemcpyDeviceToDevice && !synchronous) || device_memory(seg, dst, src);
}

/* Flush reasons of several devices (abi/devices.h). */
static const char kPeerCopy[] = "copy of another device's memory (peer copy)";
static const char kEventOfTwoDevices[] = "event used by two devices in the iteration";

/* Is either pointer another device's memory than the one the iteration is
 * on?  Asked only once the process changed devices: a peer copy's graph
 * node would run in one device's graph, unordered with the other's. */
static int peer_memory(struct pygraph_segment *seg, void *dst, const void *src)
{
  int current = pygraph_devices_current();
  const struct pygraph_backend *backend = pygraph_segment_backend(seg);
  if (current < 0 || !backend->pointer_device)
    return 0;
  int d = backend->pointer_device(dst), s = backend->pointer_device(src);
  return (d >= 0 && d != current) || (s >= 0 && s != current);
}

/* A copy on a stream found not captured (goes_to_cuda asked already). */
static enum pygraph_record_result memcpy_op(struct pygraph_segment *seg, void *dst,
                                            const void *src, size_t count,
                                            enum cudaMemcpyKind kind, cudaStream_t stream,
                                            int synchronous)
{
  if (!copies_device_to_device(seg, dst, src, kind, synchronous))
    return pygraph_record_undeferrable(seg, synchronous ? kSyncMemcpyNotDevice
                                                        : "memcpy not device-to-device");
  if (count == 0)
    return pygraph_record_undeferrable(seg, "zero-size memcpy");
  if (peer_memory(seg, dst, src))
    return pygraph_record_undeferrable(seg, kPeerCopy);
  struct pygraph_op op = {
      .kind = PYGRAPH_OP_MEMCPY, .stream = stream, .dst = dst, .src = src,
      .count = count, .memcpy_kind = kind, .wait_link = -1,
  };
  return append(seg, &op, NULL);
}

enum pygraph_record_result pygraph_record_memcpy(struct pygraph_segment *seg, void *dst,
                                                 const void *src, size_t count,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream)
{
  if (goes_to_cuda(seg, stream))
    return PYGRAPH_RUN_NOW;
  return memcpy_op(seg, dst, src, count, kind, stream, 0);
}

/* Flush reasons of a host-to-device copy whose bytes are not read at the
 * call. */
static const char kHostBytesTooLarge[] = "host-to-device copy too large to snapshot";
static const char kHostBytesNotPageable[] =
    "host-to-device copy not from pageable host memory to device memory";

/* record.h: the bytes are read now, the op owns them (op_list.h).  The
 * destination is asked of the port unless `dst_in_device_memory` (a
 * symbol's range, checked by the caller); goes_to_cuda asked already. */
static enum pygraph_record_result host_bytes_op(struct pygraph_segment *seg, void *dst,
                                                const void *src, size_t count,
                                                cudaStream_t stream, int dst_in_device_memory)
{
  if (count == 0)
    return pygraph_record_undeferrable(seg, "zero-size memcpy");
  if (count > PYGRAPH_HOST_BYTES_MAX)
    return pygraph_record_undeferrable(seg, kHostBytesTooLarge);
  const struct pygraph_backend *backend = pygraph_segment_backend(seg);
  if (!backend->host_bytes_source || !backend->host_bytes_source(src) ||
      (!dst_in_device_memory && !backend->device_range(dst, count)))
    return pygraph_record_undeferrable(seg, kHostBytesNotPageable);
  struct pygraph_op op = {
      .kind = PYGRAPH_OP_HOST_BYTES, .stream = stream, .dst = dst, .src = src,
      .count = count, .wait_link = -1,
  };
  return append(seg, &op, NULL);
}

enum pygraph_record_result pygraph_record_sync_memcpy(struct pygraph_segment *seg, void *dst,
                                                      const void *src, size_t count,
                                                      enum cudaMemcpyKind kind,
                                                      cudaStream_t stream)
{
  if (goes_to_cuda(seg, stream))
    return PYGRAPH_RUN_NOW;
  if (kind == cudaMemcpyHostToDevice)
    return host_bytes_op(seg, dst, src, count, stream, 0);
  return memcpy_op(seg, dst, src, count, kind, stream, 1);
}

enum pygraph_record_result pygraph_record_sync_to_symbol(struct pygraph_segment *seg,
                                                         const void *symbol, const void *src,
                                                         size_t count, size_t offset,
                                                         enum cudaMemcpyKind kind,
                                                         cudaStream_t stream)
{
  if (goes_to_cuda(seg, stream))
    return PYGRAPH_RUN_NOW;
  const struct pygraph_backend *backend = pygraph_segment_backend(seg);
  void *base = NULL;
  size_t size = 0;
  if (!backend->symbol_range || !backend->symbol_range(symbol, &base, &size))
    return pygraph_record_undeferrable(seg, "symbol not in device memory");
  if (offset > size || count > size - offset)
    return pygraph_record_undeferrable(seg, "copy past the end of the symbol");
  void *dst = (unsigned char *)base + offset;
  if (kind == cudaMemcpyHostToDevice)
    return host_bytes_op(seg, dst, src, count, stream, 1);
  return memcpy_op(seg, dst, src, count, kind, stream, 1);
}

/* The last record of `event` in this iteration so far, or -1. */
static long last_record_of(const struct pygraph_op_list *cur, cudaEvent_t event)
{
  for (size_t i = cur->n_ops; i-- > 0;)
    if (cur->ops[i].kind == PYGRAPH_OP_EVENT_RECORD && cur->ops[i].event == event)
      return (long)i;
  return -1;
}

enum pygraph_record_result pygraph_record_event_record(struct pygraph_segment *seg,
                                                       cudaEvent_t event, cudaStream_t stream)
{
  if (goes_to_cuda(seg, stream))
    return PYGRAPH_RUN_NOW;
  if (pygraph_devices_several() && pygraph_devices_event_elsewhere(seg, event))
    return pygraph_record_undeferrable(seg, kEventOfTwoDevices);
  /* An external wait node samples the event at graph launch; re-recording
   * the event inside the same graph would change what it sees. */
  const struct pygraph_op_list *cur = pygraph_segment_recorded(seg);
  for (size_t i = 0; i < cur->n_ops; i++)
    if (cur->ops[i].kind == PYGRAPH_OP_EVENT_WAIT && cur->ops[i].wait_link < 0 &&
        cur->ops[i].event == event)
      return pygraph_record_undeferrable(seg, "event recorded after an external wait on it");
  /* Records of one event stay in order in the graph (graph_plan.c); which
   * earlier record it follows is part of the signature. */
  struct pygraph_op op = {
      .kind = PYGRAPH_OP_EVENT_RECORD, .stream = stream, .event = event,
      .wait_link = last_record_of(cur, event),
  };
  return append(seg, &op, NULL);
}

enum pygraph_record_result pygraph_record_event_wait(struct pygraph_segment *seg,
                                                     cudaStream_t stream, cudaEvent_t event,
                                                     unsigned flags)
{
  if (goes_to_cuda(seg, stream))
    return PYGRAPH_RUN_NOW;
  if (flags != 0)
    return pygraph_record_undeferrable(seg, "cudaStreamWaitEvent flags");
  if (pygraph_devices_several() && pygraph_devices_event_elsewhere(seg, event))
    return pygraph_record_undeferrable(seg, kEventOfTwoDevices);
  /* Waiting on a record made earlier in this iteration is an edge of the
   * graph; otherwise it waits for work from before the region (wait node). */
  struct pygraph_op op = {
      .kind = PYGRAPH_OP_EVENT_WAIT, .stream = stream, .event = event, .wait_flags = flags,
      .wait_link = last_record_of(pygraph_segment_recorded(seg), event),
  };
  return append(seg, &op, NULL);
}

/* A kernel op of `func` (or with func as the site's original) among the
 * ops deferred so far. */
static int launched_this_iteration(const struct pygraph_segment *seg, const void *func)
{
  const struct pygraph_op_list *cur = pygraph_segment_recorded(seg);
  for (size_t i = 0; i < cur->n_ops; i++)
    if (cur->ops[i].kind == PYGRAPH_OP_KERNEL && !cur->ops[i].driver && cur->ops[i].func == func)
      return 1;
  return 0;
}

void pygraph_record_func_setting(struct pygraph_segment *seg, const void *func, int attr,
                                 int value)
{
  if (!launched_this_iteration(seg, func))
    return;
  const struct pygraph_backend *backend = pygraph_segment_backend(seg);
  if (attr >= 0 && backend->func_attribute_holds &&
      backend->func_attribute_holds(func, attr, value))
    return;
  (void)pygraph_record_undeferrable(seg, "kernel setting changed after a launch of the kernel");
}

enum pygraph_record_result pygraph_record_malloc(struct pygraph_segment *seg, void **ptr,
                                                 size_t size)
{
  /* An allocation touches no stream: nothing recorded needs to run first. */
  return pygraph_segment_allocate(seg, size, ptr) ? PYGRAPH_DEFERRED : PYGRAPH_RUN_NOW;
}

enum pygraph_record_result pygraph_record_free(struct pygraph_segment *seg, void *ptr)
{
  if (pygraph_segment_free(seg, ptr))
    return PYGRAPH_DEFERRED;
  /* Deferred ops may still use the memory: they run before it is freed. */
  return pygraph_record_undeferrable(seg, "cudaFree of memory not allocated in the iteration");
}

enum pygraph_record_result pygraph_record_library(struct pygraph_segment *seg,
                                                  const pygraph_site *site,
                                                  const struct pygraph_library_fn *fn,
                                                  const void *args, size_t size,
                                                  cudaStream_t stream)
{
  struct pygraph_op op = {
      .kind = PYGRAPH_OP_LIBRARY, .stream = stream, .site = site, .library = fn,
      .library_args = args, .library_size = size, .wait_link = -1,
  };
  if (pygraph_whole_loop_observing())    /* the arguments as the adapter made them */
    pygraph_whole_loop_observe_library(pygraph_segment_backend(seg), &op);
  if (goes_to_cuda(seg, stream))
    return PYGRAPH_RUN_NOW;
  return append(seg, &op, NULL);
}
