/* cuda_api_table.h - what each CUDA runtime/driver call means to a graph. */
#ifndef PYGRAPH_CUDA_API_TABLE_H
#define PYGRAPH_CUDA_API_TABLE_H

typedef enum pg_api_class {
  PG_API_LAUNCH,         /* a kernel launch */
  PG_API_STREAM_OP,      /* asynchronous stream work a graph can hold */
  PG_API_SYNC,           /* waits for, or reads results of, device work */
  PG_API_MAYBE_DEFERRED, /* synchronous in name, but the host waits for it only
                            when it touches host or managed memory: deferred
                            (routed), the runtime checking the pointers */
  PG_API_POOLED,         /* cudaMalloc / cudaFree: routed, inside a recording
                            iteration answered from the runtime's pool with no
                            CUDA call (runtime segment/alloc_pool.h) */
  PG_API_FUNC_SETTING,   /* cudaFuncSetAttribute / cudaFuncSetCacheConfig: routed,
                            made at once; the runtime flushes first only when
                            a launch of the kernel deferred before it would
                            see a changed setting (runtime abi/record.h) */
  PG_API_DEVICE_SET,     /* cudaSetDevice: routed, made at once; the runtime records the
                            new device's ops in a state of that device (runtime
                            abi/devices.h); a loop holding one neither batches nor
                            runs whole */
  PG_API_LIBRARY,        /* a library call the runtime records (cuBLAS: one graph node, a
                            graph captured from the library; library_api_table.h) */
  PG_API_LIBRARY_OTHER,  /* any other call of that library: a barrier (handle, stream and
                            mode management, copies, results the host reads) */
  PG_API_UNCAPTURABLE,   /* allocation, stream/event/device management, ... */
  PG_API_OWN_CAPTURE,    /* the program's own stream capture or graphs */
  PG_API_HARMLESS        /* touches no stream: error queries, launch protocol */
} pg_api_class;

typedef enum pg_capture_edge {
  PG_CAPTURE_NONE = 0,
  PG_CAPTURE_BEGINS = 1, /* cudaStreamBeginCapture*, cuStreamBeginCapture* */
  PG_CAPTURE_ENDS = 2    /* cudaStreamEndCapture, cuStreamEndCapture */
} pg_capture_edge;

typedef struct pg_api_entry {
  const char *name;      /* symbol as it appears in IR */
  pg_api_class cls;
  int driver;            /* driver API (cu*): launches take a CUfunction */
  const char *why;       /* short reason shown in remarks */
  pg_capture_edge capture;
} pg_api_entry;

/* NULL when `name` is not a CUDA API call pygraph knows (exact names first,
 * then the API families known by prefix) nor a call of a library it knows
 * (library_api_table.h). */
const pg_api_entry *pg_api_lookup(const char *name);
/* 1 when the runtime defers the call: __pygraph_<name> exists
 * (runtime/include/pygraph_abi.def). */
int pg_api_routed(const pg_api_entry *e);
/* 1 when the call stays a barrier but the runtime observes it:
 * __pygraph_<name> exists for an UNCAPTURABLE row (event creation, which
 * tells the runtime which events cannot time) or a LIBRARY_OTHER one (a
 * cuBLAS handle's workspace, stream and end). */
int pg_api_observed(const pg_api_entry *e);
/* 1 for symbols that look like CUDA API (cuda*, cu[A-Z]*, __cuda*). */
int pg_api_looks_like_cuda(const char *name);
const char *pg_api_class_name(pg_api_class c);

#endif
