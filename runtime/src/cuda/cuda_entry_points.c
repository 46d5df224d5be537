/* cuda_entry_points.c - the ABI functions the compiler pass calls.
 *
 * Fast path: no recording segment on this thread -> straight to CUDA with
 * the caller's arguments.  Otherwise the op is deferred into the segment,
 * or (when it cannot be) the segment flushes and the call goes to CUDA. */
#include "pygraph_rt.h"

#include <pthread.h>

#include "common/settings.h"
#include "cuda/backend_cuda.h"
#include "cuda/cuda_ptsz.h"
#include "cuda/driver_api.h"
#include "cuda/driver_launch.h"
#include "recording/event_kinds.h"
#include "abi/launch_counter.h"
#include "abi/record.h"
#include "abi/kernel_pointers.h"
#include "abi/region_stack.h"
#include "abi/whole_loop.h"
#include "port/fault_inject.h"
#include "segment/alloc_pool.h"

#define PYGRAPH_EXPORT __attribute__((visibility("default")))

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

static const struct pygraph_backend *process_backend_ptr;
static pthread_once_t process_backend_once = PTHREAD_ONCE_INIT;

/* The CUDA backend, or its PYGRAPH_FAULT decorator when faults are asked for. */
static void choose_backend(void)
{
  process_backend_ptr = pygraph_fault_install(&pygraph_cuda_backend, pygraph_settings()->fault_at);
}

static const struct pygraph_backend *process_backend(void)
{
  pthread_once(&process_backend_once, choose_backend);
  return process_backend_ptr;
}

PYGRAPH_EXPORT void __pygraph_region_begin(pygraph_region *r, unsigned segment)
{
  pygraph_region_begin_with(process_backend(), r, segment);
}

PYGRAPH_EXPORT void __pygraph_region_end(pygraph_region *r)
{
  pygraph_region_end_impl(r);
}

PYGRAPH_EXPORT void __pygraph_region_loop_enter(pygraph_region *r, long long trips)
{
  pygraph_region_loop_enter_impl(process_backend(), r, trips);
}

PYGRAPH_EXPORT void __pygraph_region_exit(pygraph_region *r)
{
  pygraph_region_exit_impl(r);
}

PYGRAPH_EXPORT void __pygraph_external_call(pygraph_region *r, unsigned segment,
                                            const void *aware)
{
  if (UNLIKELY(pygraph_open_region_depth() != 0))   /* before every such call: keep it cheap */
    pygraph_external_call_impl(process_backend(), r, segment, aware);
}

PYGRAPH_EXPORT void __pygraph_kernel_pointer_call(pygraph_region *r, unsigned segment,
                                                  const void *fn, const void *const *stubs,
                                                  unsigned n)
{
  if (UNLIKELY(pygraph_open_region_depth() != 0))   /* before every such launch */
    pygraph_kernel_pointer_call_impl(process_backend(), r, segment, fn, stubs, n);
}

PYGRAPH_EXPORT void __pygraph_throw_point(void)
{
  if (UNLIKELY(pygraph_open_region_depth() != 0))   /* on a throw path only */
    pygraph_region_close_live();
}

PYGRAPH_EXPORT void __pygraph_barrier_point(void)
{
  if (UNLIKELY(pygraph_recording_segment() != NULL))   /* before every barrier: keep it cheap */
    pygraph_barrier_point_impl(process_backend());
}

PYGRAPH_EXPORT void __pygraph_whole_loop_enter(pygraph_region *r, const pygraph_whole_loop *wl,
                                               const unsigned long long *invariants)
{
  pygraph_whole_loop_enter_with(process_backend(), r, wl, invariants);
}

PYGRAPH_EXPORT int __pygraph_whole_loop_try(pygraph_region *r, const pygraph_whole_loop *wl,
                                            unsigned long long *left_in)
{
  return pygraph_whole_loop_try_with(process_backend(), r, wl, left_in);
}

PYGRAPH_EXPORT void __pygraph_whole_loop_exit(pygraph_region *r, const pygraph_whole_loop *wl,
                                              unsigned long long tests)
{
  pygraph_whole_loop_exit_impl(r, wl, tests);
}

/* ---- what a whole loop being checked sees (abi/whole_loop.h) ---------- */

/* A stream operation of an observed loop, before it is recorded or run. */
#define OBSERVE_OP(...)                                                      \
  do {                                                                       \
    if (UNLIKELY(pygraph_whole_loop_observing())) {                          \
      struct pygraph_op op_ = {__VA_ARGS__, .wait_link = -1};                \
      pygraph_whole_loop_observe(process_backend(), &op_, NULL);             \
    }                                                                        \
  } while (0)

/* One a whole loop cannot hold. */
#define OBSERVE_OTHER(what)                                                  \
  do {                                                                       \
    if (UNLIKELY(pygraph_whole_loop_observing()))                            \
      pygraph_whole_loop_observe_other(what);                                \
  } while (0)

/* ---- kernel launches (runtime API) ---------------------------------- */

static int defer_kernel(const pygraph_site *site, const void *func, dim3 grid, dim3 block,
                        void **args, size_t shmem, cudaStream_t stream, int ptsz)
{
  if (UNLIKELY(pygraph_whole_loop_observing())) {
    struct pygraph_op op = {.kind = PYGRAPH_OP_KERNEL, .stream = pygraph_normalize_stream(stream, ptsz),
                            .func = func, .site = site, .grid = grid, .block = block,
                            .shmem = shmem, .wait_link = -1};
    pygraph_whole_loop_observe(process_backend(), &op, args);
  }
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (LIKELY(!seg))
    return 0;
  return pygraph_record_kernel(seg, site, func, grid, block, shmem,
                               pygraph_normalize_stream(stream, ptsz), args) == PYGRAPH_DEFERRED;
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaLaunchKernel(const pygraph_site *site, const void *func,
                                                      dim3 grid, dim3 block, void **args,
                                                      size_t shmem, cudaStream_t stream)
{
  pygraph_count_launch();
  if (defer_kernel(site, func, grid, block, args, shmem, stream, 0))
    return cudaSuccess;
  return cudaLaunchKernel(func, grid, block, args, shmem, stream);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaLaunchKernel_ptsz(const pygraph_site *site,
                                                           const void *func, dim3 grid,
                                                           dim3 block, void **args, size_t shmem,
                                                           cudaStream_t stream)
{
  pygraph_count_launch();
  if (defer_kernel(site, func, grid, block, args, shmem, stream, 1))
    return cudaSuccess;
  return cudaLaunchKernel_ptsz(func, grid, block, args, shmem, stream);
}

/* Launch attributes a kernel node holds too go with the op (record.h); a
 * whole loop holds none. */
static int defer_kernel_ex(const pygraph_site *site, const cudaLaunchConfig_t *config,
                           const void *func, void **args, int ptsz)
{
  if (config && config->numAttrs == 0)
    return defer_kernel(site, func, config->gridDim, config->blockDim, args,
                        config->dynamicSmemBytes, config->stream, ptsz);
  OBSERVE_OTHER("a launch with attributes");
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (LIKELY(!seg))
    return 0;
  if (!config || !config->attrs) {
    pygraph_record_undeferrable(seg, "launch configuration missing");
    return 0;
  }
  return pygraph_record_kernel_attrs(seg, site, func, config->gridDim, config->blockDim,
                                     config->dynamicSmemBytes,
                                     pygraph_normalize_stream(config->stream, ptsz), args,
                                     config->attrs, config->numAttrs) == PYGRAPH_DEFERRED;
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaLaunchKernelExC(const pygraph_site *site,
                                                         const cudaLaunchConfig_t *config,
                                                         const void *func, void **args)
{
  pygraph_count_launch();
  if (defer_kernel_ex(site, config, func, args, 0))
    return cudaSuccess;
  return cudaLaunchKernelExC(config, func, args);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaLaunchKernelExC_ptsz(const pygraph_site *site,
                                                              const cudaLaunchConfig_t *config,
                                                              const void *func, void **args)
{
  pygraph_count_launch();
  if (defer_kernel_ex(site, config, func, args, 1))
    return cudaSuccess;
  return cudaLaunchKernelExC_ptsz(config, func, args);
}

/* ---- kernel launches (driver API; record.h, pygraph_record_driver_kernel) */

/* Recorded (1) or to be made by the caller now (0).  A whole loop holds
 * none: the observed execution stops checking there. */
static int defer_driver(const pygraph_site *site, CUfunction f, dim3 grid, dim3 block,
                        unsigned shmem, CUstream stream, int ptsz, void **params, void **extra,
                        const CUlaunchAttribute *attrs, unsigned n_attrs)
{
  OBSERVE_OTHER("a driver API launch");
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (LIKELY(!seg))
    return 0;
  return pygraph_record_driver_kernel(seg, site, f, grid, block, shmem,
                                      pygraph_normalize_stream((cudaStream_t)stream, ptsz),
                                      params, extra, pygraph_cuda_driver_attrs(attrs),
                                      n_attrs) == PYGRAPH_DEFERRED;
}

static CUresult driver_launch(const pygraph_site *site, int ptsz, CUfunction f, unsigned gx,
                              unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                              unsigned shmem, CUstream stream, void **params, void **extra)
{
  pygraph_count_launch();
  if (defer_driver(site, f, (dim3){gx, gy, gz}, (dim3){bx, by, bz}, shmem, stream, ptsz, params,
                   extra, NULL, 0))
    return CUDA_SUCCESS;
  pygraph_pfn_cuLaunchKernel launch = pygraph_driver_cuLaunchKernel(ptsz);
  if (!launch)
    return CUDA_ERROR_NOT_FOUND;
  return launch(f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra);
}

PYGRAPH_EXPORT CUresult __pygraph_cuLaunchKernel(const pygraph_site *site, CUfunction f,
                                                 unsigned gx, unsigned gy, unsigned gz,
                                                 unsigned bx, unsigned by, unsigned bz,
                                                 unsigned shmem, CUstream stream,
                                                 void **params, void **extra)
{
  return driver_launch(site, 0, f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra);
}

PYGRAPH_EXPORT CUresult __pygraph_cuLaunchKernel_ptsz(const pygraph_site *site, CUfunction f,
                                                      unsigned gx, unsigned gy, unsigned gz,
                                                      unsigned bx, unsigned by, unsigned bz,
                                                      unsigned shmem, CUstream stream,
                                                      void **params, void **extra)
{
  return driver_launch(site, 1, f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra);
}

/* cuLaunchKernelEx: its configuration read now (the caller may reuse it). */
static int defer_driver_ex(const pygraph_site *site, int ptsz, const CUlaunchConfig *c,
                           CUfunction f, void **params, void **extra)
{
  if (c)
    return defer_driver(site, f, (dim3){c->gridDimX, c->gridDimY, c->gridDimZ},
                        (dim3){c->blockDimX, c->blockDimY, c->blockDimZ}, c->sharedMemBytes,
                        c->hStream, ptsz, params, extra, c->attrs, c->numAttrs);
  OBSERVE_OTHER("a driver API launch");
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (seg)
    pygraph_record_undeferrable(seg, "launch configuration missing");
  return 0;
}

static CUresult driver_launch_ex(const pygraph_site *site, int ptsz, const CUlaunchConfig *config,
                                 CUfunction f, void **params, void **extra)
{
  pygraph_count_launch();
  if (defer_driver_ex(site, ptsz, config, f, params, extra))
    return CUDA_SUCCESS;
  pygraph_pfn_cuLaunchKernelEx launch = pygraph_driver_cuLaunchKernelEx(ptsz);
  if (!launch)
    return CUDA_ERROR_NOT_FOUND;
  return launch(config, f, params, extra);
}

PYGRAPH_EXPORT CUresult __pygraph_cuLaunchKernelEx(const pygraph_site *site,
                                                   const CUlaunchConfig *config, CUfunction f,
                                                   void **params, void **extra)
{
  return driver_launch_ex(site, 0, config, f, params, extra);
}

PYGRAPH_EXPORT CUresult __pygraph_cuLaunchKernelEx_ptsz(const pygraph_site *site,
                                                        const CUlaunchConfig *config,
                                                        CUfunction f, void **params,
                                                        void **extra)
{
  return driver_launch_ex(site, 1, config, f, params, extra);
}

/* ---- other stream operations ----------------------------------------- */

#define DEFERRED_OR_RUN(record_call)                                         \
  do {                                                                       \
    struct pygraph_segment *seg = pygraph_recording_segment();               \
    if (UNLIKELY(seg != NULL) && (record_call) == PYGRAPH_DEFERRED)          \
      return cudaSuccess;                                                    \
  } while (0)

PYGRAPH_EXPORT cudaError_t __pygraph_cudaMemsetAsync(const pygraph_site *site, void *dst,
                                                     int value, size_t count,
                                                     cudaStream_t stream)
{
  (void)site;
  OBSERVE_OP(.kind = PYGRAPH_OP_MEMSET, .stream = pygraph_normalize_stream(stream, 0),
             .dst = dst, .value = value, .count = count);
  DEFERRED_OR_RUN(pygraph_record_memset(seg, dst, value, count,
                                        pygraph_normalize_stream(stream, 0)));
  return cudaMemsetAsync(dst, value, count, stream);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaMemsetAsync_ptsz(const pygraph_site *site, void *dst,
                                                          int value, size_t count,
                                                          cudaStream_t stream)
{
  (void)site;
  OBSERVE_OP(.kind = PYGRAPH_OP_MEMSET, .stream = pygraph_normalize_stream(stream, 1),
             .dst = dst, .value = value, .count = count);
  DEFERRED_OR_RUN(pygraph_record_memset(seg, dst, value, count,
                                        pygraph_normalize_stream(stream, 1)));
  return cudaMemsetAsync_ptsz(dst, value, count, stream);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaMemcpyAsync(const pygraph_site *site, void *dst,
                                                     const void *src, size_t count,
                                                     enum cudaMemcpyKind kind,
                                                     cudaStream_t stream)
{
  (void)site;
  OBSERVE_OP(.kind = PYGRAPH_OP_MEMCPY, .stream = pygraph_normalize_stream(stream, 0),
             .dst = dst, .src = src, .count = count, .memcpy_kind = kind);
  DEFERRED_OR_RUN(pygraph_record_memcpy(seg, dst, src, count, kind,
                                        pygraph_normalize_stream(stream, 0)));
  return cudaMemcpyAsync(dst, src, count, kind, stream);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaMemcpyAsync_ptsz(const pygraph_site *site, void *dst,
                                                          const void *src, size_t count,
                                                          enum cudaMemcpyKind kind,
                                                          cudaStream_t stream)
{
  (void)site;
  OBSERVE_OP(.kind = PYGRAPH_OP_MEMCPY, .stream = pygraph_normalize_stream(stream, 1),
             .dst = dst, .src = src, .count = count, .memcpy_kind = kind);
  DEFERRED_OR_RUN(pygraph_record_memcpy(seg, dst, src, count, kind,
                                        pygraph_normalize_stream(stream, 1)));
  return cudaMemcpyAsync_ptsz(dst, src, count, kind, stream);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaEventRecord(const pygraph_site *site,
                                                     cudaEvent_t event, cudaStream_t stream)
{
  (void)site;
  OBSERVE_OTHER("an event record");
  DEFERRED_OR_RUN(pygraph_record_event_record(seg, event, pygraph_normalize_stream(stream, 0)));
  return cudaEventRecord(event, stream);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaEventRecord_ptsz(const pygraph_site *site,
                                                          cudaEvent_t event,
                                                          cudaStream_t stream)
{
  (void)site;
  OBSERVE_OTHER("an event record");
  DEFERRED_OR_RUN(pygraph_record_event_record(seg, event, pygraph_normalize_stream(stream, 1)));
  return cudaEventRecord_ptsz(event, stream);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaStreamWaitEvent(const pygraph_site *site,
                                                         cudaStream_t stream, cudaEvent_t event,
                                                         unsigned int flags)
{
  (void)site;
  OBSERVE_OTHER("an event wait");
  DEFERRED_OR_RUN(
      pygraph_record_event_wait(seg, pygraph_normalize_stream(stream, 0), event, flags));
  return cudaStreamWaitEvent(stream, event, flags);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaStreamWaitEvent_ptsz(const pygraph_site *site,
                                                              cudaStream_t stream,
                                                              cudaEvent_t event,
                                                              unsigned int flags)
{
  (void)site;
  OBSERVE_OTHER("an event wait");
  DEFERRED_OR_RUN(
      pygraph_record_event_wait(seg, pygraph_normalize_stream(stream, 1), event, flags));
  return cudaStreamWaitEvent_ptsz(stream, event, flags);
}

/* ---- event management: observed, never deferred ----------------------- */
/* The pass ends regions before these (they are barriers); the runtime only
 * notes which events cannot time (event_kinds.h). */

PYGRAPH_EXPORT cudaError_t __pygraph_cudaEventCreate(const pygraph_site *site, cudaEvent_t *event)
{
  (void)site;
  cudaError_t err = cudaEventCreate(event);
  if (err == cudaSuccess)
    pygraph_event_kinds_created(*event, cudaEventDefault);
  return err;
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaEventCreateWithFlags(const pygraph_site *site,
                                                              cudaEvent_t *event,
                                                              unsigned int flags)
{
  (void)site;
  cudaError_t err = cudaEventCreateWithFlags(event, flags);
  if (err == cudaSuccess)
    pygraph_event_kinds_created(*event, flags);
  return err;
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaEventDestroy(const pygraph_site *site, cudaEvent_t event)
{
  (void)site;
  /* Forgotten first: once destroyed, another thread may get the handle. */
  pygraph_event_kinds_destroyed(event);
  return cudaEventDestroy(event);
}

/* ---- synchronous memset and copy (record.h: deferred on device memory, a
 * small host-to-device copy as the bytes read at the call) ------------- */

PYGRAPH_EXPORT cudaError_t __pygraph_cudaMemset(const pygraph_site *site, void *dst, int value,
                                                size_t count)
{
  (void)site;
  OBSERVE_OP(.kind = PYGRAPH_OP_MEMSET, .stream = pygraph_normalize_stream(NULL, 0),
             .dst = dst, .value = value, .count = count);
  DEFERRED_OR_RUN(pygraph_record_sync_memset(seg, dst, value, count,
                                             pygraph_normalize_stream(NULL, 0)));
  return cudaMemset(dst, value, count);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaMemset_ptds(const pygraph_site *site, void *dst,
                                                     int value, size_t count)
{
  (void)site;
  OBSERVE_OP(.kind = PYGRAPH_OP_MEMSET, .stream = pygraph_normalize_stream(NULL, 1),
             .dst = dst, .value = value, .count = count);
  DEFERRED_OR_RUN(pygraph_record_sync_memset(seg, dst, value, count,
                                             pygraph_normalize_stream(NULL, 1)));
  return cudaMemset_ptds(dst, value, count);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaMemcpy(const pygraph_site *site, void *dst,
                                                const void *src, size_t count,
                                                enum cudaMemcpyKind kind)
{
  (void)site;
  OBSERVE_OP(.kind = PYGRAPH_OP_MEMCPY, .stream = pygraph_normalize_stream(NULL, 0),
             .dst = dst, .src = src, .count = count, .memcpy_kind = kind);
  DEFERRED_OR_RUN(pygraph_record_sync_memcpy(seg, dst, src, count, kind,
                                             pygraph_normalize_stream(NULL, 0)));
  return cudaMemcpy(dst, src, count, kind);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaMemcpy_ptds(const pygraph_site *site, void *dst,
                                                     const void *src, size_t count,
                                                     enum cudaMemcpyKind kind)
{
  (void)site;
  OBSERVE_OP(.kind = PYGRAPH_OP_MEMCPY, .stream = pygraph_normalize_stream(NULL, 1),
             .dst = dst, .src = src, .count = count, .memcpy_kind = kind);
  DEFERRED_OR_RUN(pygraph_record_sync_memcpy(seg, dst, src, count, kind,
                                             pygraph_normalize_stream(NULL, 1)));
  return cudaMemcpy_ptds(dst, src, count, kind);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaMemcpyToSymbol(const pygraph_site *site,
                                                        const void *symbol, const void *src,
                                                        size_t count, size_t offset,
                                                        enum cudaMemcpyKind kind)
{
  (void)site;
  OBSERVE_OTHER("a copy to a symbol");
  DEFERRED_OR_RUN(pygraph_record_sync_to_symbol(seg, symbol, src, count, offset, kind,
                                                pygraph_normalize_stream(NULL, 0)));
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaMemcpyToSymbol_ptds(const pygraph_site *site,
                                                             const void *symbol, const void *src,
                                                             size_t count, size_t offset,
                                                             enum cudaMemcpyKind kind)
{
  (void)site;
  OBSERVE_OTHER("a copy to a symbol");
  DEFERRED_OR_RUN(pygraph_record_sync_to_symbol(seg, symbol, src, count, offset, kind,
                                                pygraph_normalize_stream(NULL, 1)));
  return cudaMemcpyToSymbol_ptds(symbol, src, count, offset, kind);
}

/* ---- allocation (record.h: served from the segment's pool) ----------- */

PYGRAPH_EXPORT cudaError_t __pygraph_cudaMalloc(const pygraph_site *site, void **devPtr,
                                                size_t size)
{
  (void)site;
  OBSERVE_OTHER("an allocation");
  DEFERRED_OR_RUN(pygraph_record_malloc(seg, devPtr, size));
  cudaError_t err = cudaMalloc(devPtr, size);
  /* Idle pool blocks must never be why the program runs out of memory. */
  if (err == cudaErrorMemoryAllocation && pygraph_alloc_pools_release_idle() > 0) {
    (void)cudaGetLastError();
    err = cudaMalloc(devPtr, size);
  }
  return err;
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaFree(const pygraph_site *site, void *devPtr)
{
  (void)site;
  OBSERVE_OTHER("an allocation");
  DEFERRED_OR_RUN(pygraph_record_free(seg, devPtr));
  return cudaFree(devPtr);
}

/* ---- kernel settings (record.h: made at once, a flush first if needed) */

PYGRAPH_EXPORT cudaError_t __pygraph_cudaFuncSetAttribute(const pygraph_site *site,
                                                          const void *func,
                                                          enum cudaFuncAttribute attr, int value)
{
  (void)site;
  OBSERVE_OTHER("a kernel setting");
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (UNLIKELY(seg != NULL))
    pygraph_record_func_setting(seg, func, (int)attr, value);
  return cudaFuncSetAttribute(func, attr, value);
}

PYGRAPH_EXPORT cudaError_t __pygraph_cudaFuncSetCacheConfig(const pygraph_site *site,
                                                            const void *func,
                                                            enum cudaFuncCache cacheConfig)
{
  (void)site;
  OBSERVE_OTHER("a kernel setting");
  struct pygraph_segment *seg = pygraph_recording_segment();
  if (UNLIKELY(seg != NULL))
    pygraph_record_func_setting(seg, func, -1, (int)cacheConfig);
  return cudaFuncSetCacheConfig(func, cacheConfig);
}

/* ---- the current device (abi/devices.h) -------------------------------- */

PYGRAPH_EXPORT cudaError_t __pygraph_cudaSetDevice(const pygraph_site *site, int device)
{
  (void)site;
  OBSERVE_OTHER("cudaSetDevice");
  return pygraph_region_set_device(process_backend(), device);
}
