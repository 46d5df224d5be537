/* cuda_api_table.c - the one table that classifies CUDA API calls.
 *
 * A graph region may hold LAUNCH and STREAM_OP calls; the runtime defers the
 * routed ones, those runtime/include/pygraph_abi.def lists.  A STREAM_OP
 * that CUDA could capture but the runtime does not route yet must still end
 * a region: executing it immediately while the launches before it are
 * deferred would reorder the stream.  Any cuda... or cu... symbol missing
 * from this table is treated as a barrier.  Calls of the libraries pygraph
 * knows (cuBLAS) have their own table, library_api_table.c, which
 * pg_api_lookup consults last: one lookup answers for both.
 * _ptsz variants are what -fgpu-default-stream=per-thread (or
 * CUDA_API_PER_THREAD_DEFAULT_STREAM) calls; for the synchronous memset and
 * copy it calls _ptds variants instead (cuda_runtime_api.h).
 */
#include "cuda_api_table.h"
#include "library_api_table.h"

#include <stdlib.h>
#include <string.h>

/* The CUDA symbols the runtime provides "__pygraph_<symbol>" for. */
static const char *const kRouted[] = {
#define PYGRAPH_ROUTED_CALL(ret, symbol, ...) #symbol,
#include "pygraph_abi.def"
};

#define PTSZ(name, cls, why) {name, cls, 0, why, 0}, {name "_ptsz", cls, 0, why, 0}
#define PTDS(name, cls, why) {name, cls, 0, why, 0}, {name "_ptds", cls, 0, why, 0}
/* Driver API launches take a CUfunction, whose kernel is only known at run
 * time. */
#define DRIVER_PTSZ(name, cls, why) {name, cls, 1, why, 0}, {name "_ptsz", cls, 1, why, 0}
/* The program's own stream capture and graphs: barriers, and the capture
 * begin/end calls bound the code that is never a pygraph region. */
#define OWN(name, edge, why)                                                   \
  {name, PG_API_OWN_CAPTURE, 0, why, edge}, {name "_ptsz", PG_API_OWN_CAPTURE, 0, why, edge}
#define BEGINS PG_CAPTURE_BEGINS
#define ENDS PG_CAPTURE_ENDS

static const pg_api_entry kTable[] = {
    /* kernel launches */
    PTSZ("cudaLaunchKernel", PG_API_LAUNCH, "kernel launch"),
    PTSZ("cudaLaunchKernelExC", PG_API_LAUNCH, "kernel launch"),
    DRIVER_PTSZ("cuLaunchKernel", PG_API_LAUNCH, "driver kernel launch"),
    DRIVER_PTSZ("cuLaunchKernelEx", PG_API_LAUNCH, "driver kernel launch"),
    PTSZ("cudaLaunchCooperativeKernel", PG_API_UNCAPTURABLE, "cooperative launch"),
    /* stream work a graph can hold */
    PTSZ("cudaMemsetAsync", PG_API_STREAM_OP, "asynchronous memset"),
    PTSZ("cudaMemcpyAsync", PG_API_STREAM_OP, "asynchronous copy"),
    PTSZ("cudaEventRecord", PG_API_STREAM_OP, "event record"),
    PTSZ("cudaStreamWaitEvent", PG_API_STREAM_OP, "stream wait"),
    PTSZ("cudaEventRecordWithFlags", PG_API_STREAM_OP, "event record with flags"),
    PTSZ("cudaLaunchHostFunc", PG_API_STREAM_OP, "host function node"),
    PTSZ("cudaMemset2DAsync", PG_API_STREAM_OP, "2-D memset"),
    PTSZ("cudaMemcpy2DAsync", PG_API_STREAM_OP, "2-D copy"),
    PTSZ("cudaMemcpy3DAsync", PG_API_STREAM_OP, "3-D copy"),
    PTSZ("cudaMemcpyToSymbolAsync", PG_API_STREAM_OP, "copy to symbol"),
    PTSZ("cudaMemcpyFromSymbolAsync", PG_API_STREAM_OP, "copy from symbol"),
    PTSZ("cudaMallocAsync", PG_API_STREAM_OP, "stream-ordered allocation"),
    PTSZ("cudaFreeAsync", PG_API_STREAM_OP, "stream-ordered free"),
    /* Synchronous in name only, on device memory.  CUDA's runtime API
     * reference ("API synchronization behavior", cuda-runtime-api/
     * api-sync-behavior.html) says a synchronous memset does not make the
     * host wait unless its target is pinned host memory or managed (Unified
     * Memory), and a synchronous copy from device memory to device memory
     * performs no host-side synchronization; either is then ordered like
     * the asynchronous form on the stream it uses (the legacy default
     * stream, the per-thread one for _ptds).  So both are routed: the
     * runtime checks the pointers at each call and defers the call on plain
     * device memory, and otherwise flushes and makes the real call.  A
     * host-to-device copy (cudaMemcpy's, and cudaMemcpyToSymbol, whose
     * kind says it by default) reads its source before returning and only
     * waits for its stream: it is deferred with the bytes the runtime reads
     * at the call, up to PYGRAPH_HOST_BYTES_MAX.  A copy to the host, a
     * cudaMemcpy whose kind is no constant, a host-to-device copy of a
     * constant size over that, or one in a file that makes host memory
     * kernels can write, stays a barrier (sync_copies.h). */
    PTDS("cudaMemset", PG_API_MAYBE_DEFERRED, "synchronizes"),
    PTDS("cudaMemcpy", PG_API_MAYBE_DEFERRED, "synchronizes"),
    PTDS("cudaMemcpyToSymbol", PG_API_MAYBE_DEFERRED, "synchronizes"),
    /* synchronizing */
    PTDS("cudaMemcpy2D", PG_API_SYNC, "synchronizes"),
    PTDS("cudaMemcpy3D", PG_API_SYNC, "synchronizes"),
    PTDS("cudaMemcpyFromSymbol", PG_API_SYNC, "synchronizes"),
    {"cudaDeviceSynchronize", PG_API_SYNC, 0, "synchronizes", 0},
    PTSZ("cudaStreamSynchronize", PG_API_SYNC, "synchronizes"),
    {"cudaEventSynchronize", PG_API_SYNC, 0, "synchronizes", 0},
    PTSZ("cudaStreamQuery", PG_API_SYNC, "queries device progress"),
    {"cudaEventQuery", PG_API_SYNC, 0, "queries device progress", 0},
    {"cudaEventElapsedTime", PG_API_SYNC, 0, "reads event times", 0},
    {"cudaDeviceReset", PG_API_SYNC, 0, "resets the device", 0},
    {"cuCtxSynchronize", PG_API_SYNC, 0, "synchronizes", 0},
    {"cuStreamSynchronize", PG_API_SYNC, 0, "synchronizes", 0},
    {"cuMemcpyDtoH_v2", PG_API_SYNC, 0, "synchronizes", 0},
    {"cuMemcpyHtoD_v2", PG_API_SYNC, 0, "synchronizes", 0},
    /* Allocation inside a loop: the runtime answers cudaMalloc from a pool
     * of blocks that the loop's cudaFree gives back, so each iteration gets
     * the same addresses and makes no call (runtime segment/alloc_pool.h).
     * cudaFree's own synchronization is one the CUDA documentation only
     * says it "may" perform; a file that makes host memory kernels can
     * write keeps it a barrier (call_classifier.c). */
    {"cudaMalloc", PG_API_POOLED, 0, "allocates", 0},
    {"cudaFree", PG_API_POOLED, 0, "frees (and may synchronize)", 0},
    /* A kernel setting touches no stream and holds for the launches after
     * it: made at once inside a region (a launch of that kernel deferred
     * before it flushes first, unless the kernel already holds the value). */
    {"cudaFuncSetAttribute", PG_API_FUNC_SETTING, 0, "changes a kernel attribute", 0},
    {"cudaFuncSetCacheConfig", PG_API_FUNC_SETTING, 0, "changes a kernel attribute", 0},
    /* cannot be captured */
    {"cudaMallocManaged", PG_API_UNCAPTURABLE, 0, "allocates", 0},
    {"cudaMallocPitch", PG_API_UNCAPTURABLE, 0, "allocates", 0},
    {"cudaMallocHost", PG_API_UNCAPTURABLE, 0, "allocates", 0},
    {"cudaHostAlloc", PG_API_UNCAPTURABLE, 0, "allocates", 0},
    {"cudaFreeHost", PG_API_UNCAPTURABLE, 0, "frees (and synchronizes)", 0},
    {"cudaDestroyTextureObject", PG_API_UNCAPTURABLE, 0,
     "destroys a texture object (launches deferred before it may read it)", 0},
    {"cudaDestroySurfaceObject", PG_API_UNCAPTURABLE, 0,
     "destroys a surface object (launches deferred before it may use it)", 0},
    {"cudaStreamCreate", PG_API_UNCAPTURABLE, 0, "creates a stream", 0},
    {"cudaStreamCreateWithFlags", PG_API_UNCAPTURABLE, 0, "creates a stream", 0},
    {"cudaStreamCreateWithPriority", PG_API_UNCAPTURABLE, 0, "creates a stream", 0},
    {"cudaStreamDestroy", PG_API_UNCAPTURABLE, 0, "destroys a stream", 0},
    {"cudaEventCreate", PG_API_UNCAPTURABLE, 0, "creates an event", 0},
    {"cudaEventCreateWithFlags", PG_API_UNCAPTURABLE, 0, "creates an event", 0},
    {"cudaEventDestroy", PG_API_UNCAPTURABLE, 0, "destroys an event", 0},
    /* Several devices from one thread: the runtime keeps one graph state
     * per device (runtime abi/devices.h), so changing the device is no
     * barrier.  The driver's context calls stay barriers. */
    {"cudaSetDevice", PG_API_DEVICE_SET, 0, "changes the device", 0},
    {"cudaDeviceSetLimit", PG_API_UNCAPTURABLE, 0, "changes device limits", 0},
    /* the program's own stream capture (cudaGraph* / cuGraph*: kPrefixes) */
    OWN("cudaStreamBeginCapture", BEGINS, "begins the program's own stream capture"),
    OWN("cudaStreamBeginCaptureToGraph", BEGINS, "begins the program's own stream capture"),
    OWN("cudaStreamEndCapture", ENDS, "ends the program's own stream capture"),
    OWN("cudaStreamIsCapturing", 0, "asks about the program's own stream capture"),
    OWN("cudaStreamGetCaptureInfo", 0, "asks about the program's own stream capture"),
    OWN("cudaStreamGetCaptureInfo_v2", 0, "asks about the program's own stream capture"),
    OWN("cudaStreamGetCaptureInfo_v3", 0, "asks about the program's own stream capture"),
    OWN("cudaStreamUpdateCaptureDependencies", 0, "edits the program's own stream capture"),
    OWN("cudaStreamUpdateCaptureDependencies_v2", 0, "edits the program's own stream capture"),
    OWN("cudaGraphLaunch", 0, "launches a graph of the program's own"),
    OWN("cudaGraphUpload", 0, "uploads a graph of the program's own"),
    {"cudaThreadExchangeStreamCaptureMode", PG_API_OWN_CAPTURE, 0,
     "changes the thread's stream capture mode", 0},
    OWN("cuStreamBeginCapture", BEGINS, "begins the program's own stream capture"),
    OWN("cuStreamBeginCapture_v2", BEGINS, "begins the program's own stream capture"),
    OWN("cuStreamBeginCaptureToGraph", BEGINS, "begins the program's own stream capture"),
    OWN("cuStreamEndCapture", ENDS, "ends the program's own stream capture"),
    OWN("cuStreamIsCapturing", 0, "asks about the program's own stream capture"),
    OWN("cuStreamGetCaptureInfo", 0, "asks about the program's own stream capture"),
    OWN("cuStreamGetCaptureInfo_v2", 0, "asks about the program's own stream capture"),
    OWN("cuStreamGetCaptureInfo_v3", 0, "asks about the program's own stream capture"),
    OWN("cuStreamUpdateCaptureDependencies", 0, "edits the program's own stream capture"),
    OWN("cuStreamUpdateCaptureDependencies_v2", 0, "edits the program's own stream capture"),
    {"cuThreadExchangeStreamCaptureMode", PG_API_OWN_CAPTURE, 0,
     "changes the thread's stream capture mode", 0},
    /* no stream work: error queries and the <<<>>> protocol */
    {"cudaGetLastError", PG_API_HARMLESS, 0, "error query", 0},
    {"cudaPeekAtLastError", PG_API_HARMLESS, 0, "error query", 0},
    {"cudaGetErrorString", PG_API_HARMLESS, 0, "error text", 0},
    {"cudaGetErrorName", PG_API_HARMLESS, 0, "error text", 0},
    {"cudaGetDevice", PG_API_HARMLESS, 0, "device query", 0},
    {"cudaGetDeviceCount", PG_API_HARMLESS, 0, "device query", 0},
    {"cudaGetDeviceProperties", PG_API_HARMLESS, 0, "device query", 0},
    {"cudaGetDeviceProperties_v2", PG_API_HARMLESS, 0, "device query", 0},
    {"cudaDeviceGetAttribute", PG_API_HARMLESS, 0, "device query", 0},
    {"cudaFuncGetAttributes", PG_API_HARMLESS, 0, "kernel query", 0},
    /* Making a texture or surface object reads its descriptions during the
     * call and enqueues nothing; destroying one ends the region (below):
     * launches deferred before it may read the object. */
    {"cudaCreateTextureObject", PG_API_HARMLESS, 0, "creates a texture object", 0},
    {"cudaCreateSurfaceObject", PG_API_HARMLESS, 0, "creates a surface object", 0},
    /* occupancy queries: computed on the host from the kernel's attributes
     * (CUB's and Thrust's dispatch makes them before every launch) */
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessor", PG_API_HARMLESS, 0, "occupancy query", 0},
    {"cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", PG_API_HARMLESS, 0,
     "occupancy query", 0},
    {"cudaOccupancyAvailableDynamicSMemPerBlock", PG_API_HARMLESS, 0, "occupancy query", 0},
    {"cudaOccupancyMaxPotentialClusterSize", PG_API_HARMLESS, 0, "occupancy query", 0},
    {"cudaOccupancyMaxActiveClusters", PG_API_HARMLESS, 0, "occupancy query", 0},
    {"cuOccupancyMaxActiveBlocksPerMultiprocessor", PG_API_HARMLESS, 0, "occupancy query", 0},
    {"cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", PG_API_HARMLESS, 0,
     "occupancy query", 0},
    {"__cudaPushCallConfiguration", PG_API_HARMLESS, 0, "<<<>>> configuration", 0},
    {"__cudaPopCallConfiguration", PG_API_HARMLESS, 0, "<<<>>> configuration", 0},
};

/* Whole API families: every graph call (create, add node, instantiate,
 * exec update, set params, launch, upload, destroy, ...), _ptsz included. */
static const pg_api_entry kPrefixes[] = {
    {"cudaGraph", PG_API_OWN_CAPTURE, 0, "uses a graph of the program's own", 0},
    {"cuGraph", PG_API_OWN_CAPTURE, 0, "uses a graph of the program's own", 0},
};

const pg_api_entry *pg_api_lookup(const char *name) {
  for (size_t i = 0; i < sizeof kTable / sizeof kTable[0]; ++i)
    if (strcmp(kTable[i].name, name) == 0)
      return &kTable[i];
  for (size_t i = 0; i < sizeof kPrefixes / sizeof kPrefixes[0]; ++i)
    if (strncmp(kPrefixes[i].name, name, strlen(kPrefixes[i].name)) == 0)
      return &kPrefixes[i];
  return pg_library_lookup(name);
}

/* Does the runtime provide __pygraph_<name>? */
static int has_entry_point(const char *name) {
  for (size_t i = 0; i < sizeof kRouted / sizeof kRouted[0]; ++i)
    if (strcmp(kRouted[i], name) == 0)
      return 1;
  return 0;
}

/* A library row is routed by being one: the runtime implements every
 * PG_API_LIBRARY row from the list the table is made of. */
int pg_api_routed(const pg_api_entry *e) {
  if (e->cls == PG_API_LIBRARY)
    return 1;
  return (e->cls == PG_API_LAUNCH || e->cls == PG_API_STREAM_OP ||
          e->cls == PG_API_MAYBE_DEFERRED || e->cls == PG_API_POOLED ||
          e->cls == PG_API_FUNC_SETTING || e->cls == PG_API_DEVICE_SET) &&
         has_entry_point(e->name);
}

int pg_api_observed(const pg_api_entry *e) {
  if (e->cls == PG_API_LIBRARY_OTHER)
    return pg_library_observed(e->name);
  return e->cls == PG_API_UNCAPTURABLE && has_entry_point(e->name);
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
  case PG_API_MAYBE_DEFERRED: return "deferred on device memory";
  case PG_API_POOLED: return "served from a pool in a region";
  case PG_API_FUNC_SETTING: return "made at once in a region";
  case PG_API_DEVICE_SET: return "device change, recorded per device in a region";
  case PG_API_LIBRARY: return "library call recorded in a region";
  case PG_API_LIBRARY_OTHER: return "library call not recorded";
  case PG_API_UNCAPTURABLE: return "not capturable";
  case PG_API_OWN_CAPTURE: return "program's own stream capture";
  case PG_API_HARMLESS: return "harmless";
  }
  return "?";
}
