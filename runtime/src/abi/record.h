/* record.h - turning a routed call into a deferred op, or refusing to.
 *
 * Callers hold the recording segment (pygraph_recording_segment() != NULL)
 * and pass streams already normalised (pygraph_normalize_stream).  A
 * PYGRAPH_RUN_NOW result means the segment flushed: the ops recorded so far
 * have run, recording is off for the rest of the iteration, and the caller
 * must make the original CUDA call itself, now (also what an op a probe only
 * counts gets: segment.h, pygraph_segment_counts_only). */
#ifndef PYGRAPH_RECORD_H
#define PYGRAPH_RECORD_H

#include "segment/segment.h"

enum pygraph_record_result {
  PYGRAPH_DEFERRED,             /* taken: deferred, or (a shadowed iteration)
                                   already run by the runtime */
  PYGRAPH_RUN_NOW
};

/* Stream 0 means the legacy default stream for ordinary entry points and
 * the per-thread stream for _ptsz ones; make that explicit so ops can be
 * compared and replayed from any entry point. */
cudaStream_t pygraph_normalize_stream(cudaStream_t stream, int per_thread_default);

/* `site` (may be NULL) is kept with the op: its indirect twin may run the
 * kernel in the graph (indirect.h). */
enum pygraph_record_result pygraph_record_kernel(struct pygraph_segment *seg,
                                                 const pygraph_site *site, const void *func,
                                                 dim3 grid, dim3 block, size_t shmem,
                                                 cudaStream_t stream, void **args);
/* The same with the launch attributes of a cudaLaunchKernelExC: those a
 * graph kernel node holds too are kept with the op (record.c's list);
 * any other makes the segment flush. */
enum pygraph_record_result pygraph_record_kernel_attrs(
    struct pygraph_segment *seg, const pygraph_site *site, const void *func, dim3 grid, dim3 block,
    size_t shmem, cudaStream_t stream, void **args, const cudaLaunchAttribute *attrs,
    unsigned n_attrs);
/* A driver-API launch (cuLaunchKernel, cuLaunchKernelEx and their _ptsz
 * forms) of CUfunction `func`, recorded like a kernel of the runtime API
 * (recording/op.h, `driver`): deferred, signature by function, grid,
 * block, shared memory, stream and attributes, its parameter bytes copied
 * now (params[i] points to parameter i, as cuLaunchKernel's kernelParams;
 * the caller may reuse that memory once the call returns), a graph kernel
 * node updated when only they change, run eagerly by the same driver call.
 * cuLaunchKernelEx's attributes come as cudaLaunchAttribute (the entry
 * point's conversion says why it may) and are taken as above.  The segment
 * flushes instead (PYGRAPH_RUN_NOW) for parameters given in `extra` (a
 * buffer whose layout the call does not describe), when the port says the
 * launch is not in the current context (driver_context_ok), and, as above,
 * for a layout the driver cannot describe or an attribute a node cannot
 * hold. */
enum pygraph_record_result pygraph_record_driver_kernel(
    struct pygraph_segment *seg, const pygraph_site *site, const void *func, dim3 grid,
    dim3 block, size_t shmem, cudaStream_t stream, void **params, void **extra,
    const cudaLaunchAttribute *attrs, unsigned n_attrs);
enum pygraph_record_result pygraph_record_memset(struct pygraph_segment *seg, void *dst,
                                                 int value, size_t count, cudaStream_t stream);
enum pygraph_record_result pygraph_record_memcpy(struct pygraph_segment *seg, void *dst,
                                                 const void *src, size_t count,
                                                 enum cudaMemcpyKind kind, cudaStream_t stream);
/* The synchronous cudaMemset / cudaMemcpy (and _ptds forms), on the stream
 * they use (normalised stream 0).  CUDA's runtime API reference, "API
 * synchronization behavior": a synchronous memset does not make the host
 * wait unless its target is pinned host memory or managed (Unified Memory);
 * a synchronous copy from device memory to device memory performs no
 * host-side synchronization.  Then each is the asynchronous form on that
 * stream, and is recorded as one.  The pointers are asked of the port at
 * every call (a host-to-device copy is judged as below, any other kind but
 * device-to-device and default is refused outright): when one is not plain
 * device memory the segment flushes and the caller makes the real,
 * synchronous call (PYGRAPH_RUN_NOW). */
enum pygraph_record_result pygraph_record_sync_memset(struct pygraph_segment *seg, void *dst,
                                                      int value, size_t count,
                                                      cudaStream_t stream);
enum pygraph_record_result pygraph_record_sync_memcpy(struct pygraph_segment *seg, void *dst,
                                                      const void *src, size_t count,
                                                      enum cudaMemcpyKind kind,
                                                      cudaStream_t stream);
/* cudaFuncSetAttribute (attr >= 0) / cudaFuncSetCacheConfig (attr < 0) of
 * `func`, which the caller then makes itself, at once: a kernel setting
 * touches no stream and holds for the launches that follow.  Launches of
 * func this iteration deferred before it must still run with the setting
 * they were made under: unless the kernel already holds the value
 * (backend func_attribute_holds), the segment flushes first. */
void pygraph_record_func_setting(struct pygraph_segment *seg, const void *func, int attr,
                                 int value);
/* A synchronous copy of kind cudaMemcpyHostToDevice (above) reads its
 * source before it returns, so the host may overwrite it at once; the copy
 * itself happens in stream order (CUDA, "API synchronization behavior":
 * from pageable memory a stream sync comes first and the call returns once
 * the bytes are staged, before they reach the device).  Without a host
 * that reads device results (the pass keeps these copies barriers in a
 * file that makes host memory kernels can write), only the bytes and
 * their place in the stream are seen.  So up to PYGRAPH_HOST_BYTES_MAX
 * bytes are read at the call into the op (PYGRAPH_OP_HOST_BYTES) and
 * delivered by a copy kernel whose parameters they are, eagerly or as a
 * graph node (recording/host_bytes.h), when the port says the source is
 * pageable (host_bytes_source) and the destination lies in device memory
 * (device_range); otherwise the segment flushes and the caller makes the
 * real call.  cudaMemcpyToSymbol (and _ptds): the same copy, any kind, to
 * the symbol's device address plus `offset`, which must lie in the
 * symbol's device memory (the port's symbol_range: not __managed__). */
enum pygraph_record_result pygraph_record_sync_to_symbol(struct pygraph_segment *seg,
                                                         const void *symbol, const void *src,
                                                         size_t count, size_t offset,
                                                         enum cudaMemcpyKind kind,
                                                         cudaStream_t stream);
/* cudaMalloc / cudaFree (segment.h, pygraph_segment_allocate): DEFERRED
 * when the segment's pool answered (for cudaMalloc *ptr is set); else the
 * caller makes the real call, a cudaFree after a flush. */
enum pygraph_record_result pygraph_record_malloc(struct pygraph_segment *seg, void **ptr,
                                                 size_t size);
enum pygraph_record_result pygraph_record_free(struct pygraph_segment *seg, void *ptr);
enum pygraph_record_result pygraph_record_event_record(struct pygraph_segment *seg,
                                                       cudaEvent_t event, cudaStream_t stream);
enum pygraph_record_result pygraph_record_event_wait(struct pygraph_segment *seg,
                                                     cudaStream_t stream, cudaEvent_t event,
                                                     unsigned flags);

/* A library call (PYGRAPH_OP_LIBRARY, recording/op.h) made by its adapter
 * (cuda/cublas_entry_points.c) on `stream`, the library handle's stream
 * (normalised): fn's thunk and the call's arguments, `size` bytes at
 * `args`, which the recording copies.  The adapter has read what the
 * library reads at the call (host scalars) into `args`, and refused the
 * calls that write host memory (a result in host pointer mode); the run
 * makes the call later, in stream order with the ops around it, eagerly
 * or as one node of a graph captured from it.  `site` names the call in
 * messages. */
enum pygraph_record_result pygraph_record_library(struct pygraph_segment *seg,
                                                  const pygraph_site *site,
                                                  const struct pygraph_library_fn *fn,
                                                  const void *args, size_t size,
                                                  cudaStream_t stream);

/* For ops the runtime never defers (e.g. a launch configuration missing). */
enum pygraph_record_result pygraph_record_undeferrable(struct pygraph_segment *seg,
                                                       const char *reason);

#endif /* PYGRAPH_RECORD_H */
