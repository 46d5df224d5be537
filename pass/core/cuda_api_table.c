/* cuda_api_table.c - the one table that classifies CUDA API calls.
 *
 * A graph region may hold LAUNCH and STREAM_OP calls; the runtime defers the
 * `routed` ones.  A STREAM_OP that CUDA could capture but the runtime does
 * not route yet must still end a region: executing it immediately while the
 * launches before it are deferred would reorder the stream.  Any cuda... or cu...
 * symbol missing from this table is treated as a barrier.
 * _ptsz variants are what -fgpu-default-stream=per-thread (or
 * CUDA_API_PER_THREAD_DEFAULT_STREAM) calls.
 */
#include "cuda_api_table.h"

#include <stdlib.h>
#include <string.h>

#define PTSZ(name, cls, routed, why) {name, cls, routed, why}, {name "_ptsz", cls, routed, why}

static const pg_api_entry kTable[] = {
    /* kernel launches */
    PTSZ("cudaLaunchKernel", PG_API_LAUNCH, 1, "kernel launch"),
    PTSZ("cudaLaunchKernelExC", PG_API_LAUNCH, 1, "kernel launch"),
    PTSZ("cuLaunchKernel", PG_API_LAUNCH, 1, "driver kernel launch"),
    PTSZ("cuLaunchKernelEx", PG_API_LAUNCH, 1, "driver kernel launch"),
    PTSZ("cudaLaunchCooperativeKernel", PG_API_UNCAPTURABLE, 0, "cooperative launch"),
    /* stream work a graph can hold */
    PTSZ("cudaMemsetAsync", PG_API_STREAM_OP, 1, "asynchronous memset"),
    PTSZ("cudaMemcpyAsync", PG_API_STREAM_OP, 1, "asynchronous copy"),
    PTSZ("cudaEventRecord", PG_API_STREAM_OP, 1, "event record"),
    {"cudaStreamWaitEvent", PG_API_STREAM_OP, 1, "stream wait"},
    {"cudaStreamWaitEvent_ptsz", PG_API_STREAM_OP, 1, "stream wait"},
    PTSZ("cudaEventRecordWithFlags", PG_API_STREAM_OP, 0, "event record with flags"),
    PTSZ("cudaLaunchHostFunc", PG_API_STREAM_OP, 0, "host function node"),
    PTSZ("cudaMemset2DAsync", PG_API_STREAM_OP, 0, "2-D memset"),
    PTSZ("cudaMemcpy2DAsync", PG_API_STREAM_OP, 0, "2-D copy"),
    PTSZ("cudaMemcpy3DAsync", PG_API_STREAM_OP, 0, "3-D copy"),
    PTSZ("cudaMemcpyToSymbolAsync", PG_API_STREAM_OP, 0, "copy to symbol"),
    PTSZ("cudaMemcpyFromSymbolAsync", PG_API_STREAM_OP, 0, "copy from symbol"),
    PTSZ("cudaMallocAsync", PG_API_STREAM_OP, 0, "stream-ordered allocation"),
    PTSZ("cudaFreeAsync", PG_API_STREAM_OP, 0, "stream-ordered free"),
    PTSZ("cudaGraphLaunch", PG_API_STREAM_OP, 0, "launch of a user graph"),
    /* synchronizing */
    PTSZ("cudaMemcpy", PG_API_SYNC, 0, "synchronizes"),
    PTSZ("cudaMemset", PG_API_SYNC, 0, "synchronizes"),
    PTSZ("cudaMemcpy2D", PG_API_SYNC, 0, "synchronizes"),
    PTSZ("cudaMemcpy3D", PG_API_SYNC, 0, "synchronizes"),
    PTSZ("cudaMemcpyToSymbol", PG_API_SYNC, 0, "synchronizes"),
    PTSZ("cudaMemcpyFromSymbol", PG_API_SYNC, 0, "synchronizes"),
    {"cudaDeviceSynchronize", PG_API_SYNC, 0, "synchronizes"},
    PTSZ("cudaStreamSynchronize", PG_API_SYNC, 0, "synchronizes"),
    {"cudaEventSynchronize", PG_API_SYNC, 0, "synchronizes"},
    PTSZ("cudaStreamQuery", PG_API_SYNC, 0, "queries device progress"),
    {"cudaEventQuery", PG_API_SYNC, 0, "queries device progress"},
    {"cudaEventElapsedTime", PG_API_SYNC, 0, "reads event times"},
    {"cudaDeviceReset", PG_API_SYNC, 0, "resets the device"},
    {"cuCtxSynchronize", PG_API_SYNC, 0, "synchronizes"},
    {"cuStreamSynchronize", PG_API_SYNC, 0, "synchronizes"},
    {"cuMemcpyDtoH_v2", PG_API_SYNC, 0, "synchronizes"},
    {"cuMemcpyHtoD_v2", PG_API_SYNC, 0, "synchronizes"},
    /* cannot be captured */
    {"cudaMalloc", PG_API_UNCAPTURABLE, 0, "allocates"},
    {"cudaMallocManaged", PG_API_UNCAPTURABLE, 0, "allocates"},
    {"cudaMallocPitch", PG_API_UNCAPTURABLE, 0, "allocates"},
    {"cudaMallocHost", PG_API_UNCAPTURABLE, 0, "allocates"},
    {"cudaHostAlloc", PG_API_UNCAPTURABLE, 0, "allocates"},
    {"cudaFree", PG_API_UNCAPTURABLE, 0, "frees (and synchronizes)"},
    {"cudaFreeHost", PG_API_UNCAPTURABLE, 0, "frees (and synchronizes)"},
    {"cudaStreamCreate", PG_API_UNCAPTURABLE, 0, "creates a stream"},
    {"cudaStreamCreateWithFlags", PG_API_UNCAPTURABLE, 0, "creates a stream"},
    {"cudaStreamCreateWithPriority", PG_API_UNCAPTURABLE, 0, "creates a stream"},
    {"cudaStreamDestroy", PG_API_UNCAPTURABLE, 0, "destroys a stream"},
    {"cudaEventCreate", PG_API_UNCAPTURABLE, 0, "creates an event"},
    {"cudaEventCreateWithFlags", PG_API_UNCAPTURABLE, 0, "creates an event"},
    {"cudaEventDestroy", PG_API_UNCAPTURABLE, 0, "destroys an event"},
    {"cudaSetDevice", PG_API_UNCAPTURABLE, 0, "changes the device"},
    {"cudaDeviceSetLimit", PG_API_UNCAPTURABLE, 0, "changes device limits"},
    {"cudaFuncSetAttribute", PG_API_UNCAPTURABLE, 0, "changes a kernel attribute"},
    {"cudaFuncSetCacheConfig", PG_API_UNCAPTURABLE, 0, "changes a kernel attribute"},
    {"cudaStreamBeginCapture", PG_API_UNCAPTURABLE, 0, "user stream capture"},
    {"cudaStreamBeginCapture_ptsz", PG_API_UNCAPTURABLE, 0, "user stream capture"},
    {"cudaStreamEndCapture", PG_API_UNCAPTURABLE, 0, "user stream capture"},
    {"cudaStreamEndCapture_ptsz", PG_API_UNCAPTURABLE, 0, "user stream capture"},
    {"cudaGraphInstantiate", PG_API_UNCAPTURABLE, 0, "user graph"},
    {"cudaGraphExecKernelNodeSetParams", PG_API_UNCAPTURABLE, 0, "user graph"},
    {"cudaGraphExecUpdate", PG_API_UNCAPTURABLE, 0, "user graph"},
    /* no stream work: error queries and the <<<>>> protocol */
    {"cudaGetLastError", PG_API_HARMLESS, 0, "error query"},
    {"cudaPeekAtLastError", PG_API_HARMLESS, 0, "error query"},
    {"cudaGetErrorString", PG_API_HARMLESS, 0, "error text"},
    {"cudaGetErrorName", PG_API_HARMLESS, 0, "error text"},
    {"cudaGetDevice", PG_API_HARMLESS, 0, "device query"},
    {"cudaGetDeviceCount", PG_API_HARMLESS, 0, "device query"},
    {"cudaGetDeviceProperties", PG_API_HARMLESS, 0, "device query"},
    {"cudaGetDeviceProperties_v2", PG_API_HARMLESS, 0, "device query"},
    {"cudaDeviceGetAttribute", PG_API_HARMLESS, 0, "device query"},
    {"cudaFuncGetAttributes", PG_API_HARMLESS, 0, "kernel query"},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessor", PG_API_HARMLESS, 0, "occupancy query"},
    {"__cudaPushCallConfiguration", PG_API_HARMLESS, 0, "<<<>>> configuration"},
    {"__cudaPopCallConfiguration", PG_API_HARMLESS, 0, "<<<>>> configuration"},
};

const pg_api_entry *pg_api_lookup(const char *name) {
  for (size_t i = 0; i < sizeof kTable / sizeof kTable[0]; ++i)
    if (strcmp(kTable[i].name, name) == 0)
      return &kTable[i];
  return NULL;
}

int pg_api_looks_like_cuda(const char *name) {
  if (strncmp(name, "cuda", 4) == 0 || strncmp(name, "__cuda", 6) == 0)
    return 1;
  return name[0] == 'c' && name[1] == 'u' && name[2] >= 'A' && name[2] <= 'Z';
}

const char *pg_api_class_name(pg_api_class c) {
  switch (c) {
  case PG_API_LAUNCH: return "launch";
  case PG_API_STREAM_OP: return "stream operation";
  case PG_API_SYNC: return "synchronizing";
  case PG_API_UNCAPTURABLE: return "not capturable";
  case PG_API_HARMLESS: return "harmless";
  }
  return "?";
}
