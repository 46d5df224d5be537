/* cuda_ops.c - eager execution and the queries the logic asks of CUDA. */
#include "cuda/cuda_ops.h"

#include <stdlib.h>
#include <time.h>

#include "cuda/driver_api.h"
#include "cuda/driver_launch.h"
#include "cuda/host_bytes.h"
#include "cuda/library_capture.h"
#include "recording/event_kinds.h"
#include "cuda/loader_module.h"
#include "recording/op.h"
#include "recording/param_cache.h"

int pygraph_cuda_stream_captured(cudaStream_t stream)
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

/* A kernel op made by cudaLaunchKernelExC with attributes (op.h). */
static cudaError_t launch_with_attrs(const struct pygraph_op *op)
{
  cudaLaunchConfig_t config = {.gridDim = op->grid, .blockDim = op->block,
                               .dynamicSmemBytes = op->shmem, .stream = op->stream,
                               .attrs = (cudaLaunchAttribute *)op->attrs,
                               .numAttrs = op->n_attrs};
  return cudaLaunchKernelExC(&config, op->func, op->arg_ptrs);
}

cudaError_t pygraph_cuda_execute(const struct pygraph_op *op)
{
  switch (op->kind) {
  case PYGRAPH_OP_KERNEL:
    if (op->driver)
      return pygraph_cuda_driver_execute(op);
    if (op->n_attrs)
      return launch_with_attrs(op);
    return cudaLaunchKernel(op->func, op->grid, op->block, op->arg_ptrs, op->shmem, op->stream);
  case PYGRAPH_OP_MEMSET:
    return cudaMemsetAsync(op->dst, op->value, op->count, op->stream);
  case PYGRAPH_OP_MEMCPY:
    return cudaMemcpyAsync(op->dst, op->src, op->count, op->memcpy_kind, op->stream);
  case PYGRAPH_OP_EVENT_RECORD:
    return cudaEventRecord(op->event, op->stream);
  case PYGRAPH_OP_EVENT_WAIT:
    return cudaStreamWaitEvent(op->stream, op->event, op->wait_flags);
  case PYGRAPH_OP_HOST_BYTES:
    return pygraph_cuda_host_bytes_launch(op);
  case PYGRAPH_OP_LIBRARY:
    return pygraph_cuda_library_execute(op);
  }
  return cudaErrorInvalidValue;
}

/* How many parameters f has.  With arg_slots (the launch's argument array
 * as the pass saw it: one entry per parameter, at least one) the driver is
 * asked about exactly those; without, it is probed until an index is out of
 * range, which fails a driver call that compute-sanitizer reports.  -1 when
 * the driver cannot tell. */
static long long param_count(pygraph_pfn_cuFuncGetParamInfo get_info, CUfunction f,
                             unsigned arg_slots)
{
  size_t offset, size, limit = arg_slots ? arg_slots : (size_t)65536;
  for (size_t n = 0; n < limit; n++) {
    CUresult r = get_info(f, n, &offset, &size);
    if (r == CUDA_ERROR_INVALID_VALUE)
      return (long long)n;   /* a kernel without parameters, or an array larger than used */
    if (r != CUDA_SUCCESS)
      return -1;
  }
  return arg_slots ? (long long)arg_slots : -1;
}

struct pygraph_param_layout *pygraph_cuda_param_layout(const void *func, unsigned arg_slots)
{
  cudaFunction_t f;
  if (cudaGetFuncBySymbol(&f, func) != cudaSuccess) {
    (void)cudaGetLastError();        /* the launch itself will report a bad func */
    return NULL;
  }
  return pygraph_cuda_function_layout((CUfunction)f, arg_slots);
}

/* A driver-API launch's CUfunction is asked as it is. */
struct pygraph_param_layout *pygraph_cuda_driver_param_layout(const void *func,
                                                              unsigned arg_slots)
{
  return pygraph_cuda_function_layout((CUfunction)func, arg_slots);
}

struct pygraph_param_layout *pygraph_cuda_function_layout(CUfunction f, unsigned arg_slots)
{
  pygraph_pfn_cuFuncGetParamInfo get_info = pygraph_driver_cuFuncGetParamInfo();
  if (!get_info)
    return NULL;
  long long n = param_count(get_info, f, arg_slots);
  struct pygraph_param_layout *layout = n < 0 ? NULL : pygraph_param_layout_alloc((size_t)n);
  if (!layout)
    return NULL;
  for (size_t i = 0; i < (size_t)n; i++) {
    size_t offset, size;
    if (get_info(f, i, &offset, &size) != CUDA_SUCCESS) {
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

int pygraph_cuda_both_device_memory(const void *dst, const void *src)
{
  return is_device_memory(dst) && is_device_memory(src);
}

int pygraph_cuda_func_attribute_holds(const void *func, int attr, int value)
{
  struct cudaFuncAttributes a;
  if (cudaFuncGetAttributes(&a, func) != cudaSuccess) {
    (void)cudaGetLastError();           /* the program's own call reports its error */
    return 0;
  }
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize)
    return a.maxDynamicSharedSizeBytes == value;
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout)
    return a.preferredShmemCarveout == value;
  return 0;
}

/* ---- parameter indirection --------------------------------------------- */

const char *pygraph_cuda_twin_check(const void *twin, struct pygraph_twin_info *info)
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
  /* Twins take (pointer, tag): two slots (an older plugin's, one: then
   * the second query fails, once per twin). */
  struct pygraph_param_layout *layout = pygraph_cuda_param_layout(twin, 2);
  int shape_ok = !layout || (layout->n_params >= 1 && layout->n_params <= 2 &&
                             layout->params[0].size == sizeof(void *));
  info->layout_tag = layout && layout->n_params == 2 ? (unsigned)layout->params[1].size : 0;
  free(layout);
  if (!shape_ok)
    return "twin does not take (pointer, layout tag)";
  /* Without the loaders there is no way to fill the argument block. */
  if (pygraph_cuda_loaders_ready() != cudaSuccess)
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
cudaError_t pygraph_cuda_resident_blocks(const void *func, unsigned threads, size_t smem,
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

cudaError_t pygraph_cuda_device_alloc(void **ptr, size_t size)
{
  return cudaMalloc(ptr, size);
}

void pygraph_cuda_device_free(void *ptr)
{
  (void)cudaFree(ptr);
}

/* ---- events -------------------------------------------------------------- */

/* Known from the program's routed event creations (event_kinds.h): no
 * CUDA call, so nothing for a pending error of the program's to meet. */
int pygraph_cuda_event_times(cudaEvent_t event)
{
  return pygraph_event_kinds_times(event);
}

void pygraph_cuda_event_destroy(cudaEvent_t event)
{
  (void)cudaEventDestroy(event);
}

cudaError_t pygraph_cuda_timing_event_create(cudaEvent_t *event)
{
  return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t pygraph_cuda_event_record(cudaEvent_t event, cudaStream_t stream)
{
  return cudaEventRecord(event, stream);
}

/* Timing events are recorded only on streams found not captured
 * (capture_check.h), so relaxed mode allows querying them. */
cudaError_t pygraph_cuda_event_query(cudaEvent_t event)
{
  return cudaEventQuery(event);
}

cudaError_t pygraph_cuda_event_elapsed_ms(float *ms, cudaEvent_t start, cudaEvent_t end)
{
  return cudaEventElapsedTime(ms, start, end);
}

/* ---- host clock and errors ---------------------------------------------- */

double pygraph_cuda_now_us(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

void pygraph_cuda_clear_error(void)
{
  (void)cudaGetLastError();
}

const char *pygraph_cuda_error_name(cudaError_t err)
{
  return cudaGetErrorName(err);
}

cudaError_t pygraph_cuda_get_device(int *device)
{
  return cudaGetDevice(device);
}

cudaError_t pygraph_cuda_set_device(int device)
{
  return cudaSetDevice(device);
}

int pygraph_cuda_pointer_device(const void *ptr)
{
  struct cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, ptr) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  return a.type == cudaMemoryTypeDevice ? a.device : -1;
}
