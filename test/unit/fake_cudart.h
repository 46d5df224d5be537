/* fake_cudart.h - a stand-in for the CUDA runtime's graph API, linked in
 * place of cudart into the test of the CUDA layer's graph building
 * (test_while_realise.c: cuda/while_graph.c and cuda/graph_realise.c run
 * as they are, on the CPU; test_library_realise.c: a library op's child
 * graph node, cuda/library_capture.c).  Graphs and nodes are kept as built so the
 * test can read their structure; every call is counted and any one can
 * be made to fail; live objects (top-level graphs, executables, events,
 * conditional handles) are counted so a failing build can be shown to
 * leave nothing behind. */
#ifndef PYGRAPH_TEST_FAKE_CUDART_H
#define PYGRAPH_TEST_FAKE_CUDART_H

#include <stddef.h>

#include <cuda.h>
#include <cuda_runtime_api.h>

/* The kinds of node the fake records. */
enum fcuda_kind { FC_KERNEL, FC_MEMCPY, FC_MEMSET, FC_EMPTY, FC_RECORD, FC_WAIT, FC_CONDITIONAL,
                  FC_CHILD };

struct CUgraphNode_st {
  enum fcuda_kind kind;
  struct CUgraph_st *graph;          /* the graph holding it */
  struct CUgraphNode_st **deps;      /* full edges into it, as added */
  size_t n_deps;
  size_t n_programmatic;             /* programmatic edges into it */
  /* kernels: the function, launch shape and the first two parameters'
   * first 8 bytes (0 where there is none) */
  const void *func;
  int driver;                        /* added by the driver's cuGraphAddKernelNode */
  dim3 grid, block;
  unsigned shared;                   /* dynamic shared memory bytes */
  unsigned long long param[3];   /* the first kernel parameters, 8 bytes each */
  /* launch attributes set on a kernel node: how many, and the last one */
  unsigned n_attrs;
  cudaLaunchAttributeID last_attr;
  cudaLaunchAttributeValue last_attr_val;
  /* copies and memsets */
  void *dst;
  const void *src;
  size_t count;
  enum cudaMemcpyKind copy_kind;
  /* conditional nodes */
  cudaGraphConditionalHandle handle;
  enum cudaGraphConditionalNodeType cond_type;
  unsigned cond_size;
  struct CUgraph_st *body;           /* owned by the node */
  /* child-graph nodes: the graph given (cloned by CUDA: the caller may
   * destroy it at once; only its address is kept, never read) */
  const struct CUgraph_st *child;
};

struct CUgraph_st {
  struct CUgraphNode_st **nodes;     /* in the order added */
  size_t n_nodes;
  struct CUgraphNode_st *owner;      /* a conditional node's body: that node */
};

/* A conditional handle's creation. */
struct fcuda_handle {
  cudaGraphConditionalHandle handle;
  struct CUgraph_st *graph;
  unsigned default_value, flags;
};

/* The kernels cudaLibraryGetKernel hands out: the condition kernel, the
 * after-copy kernel, the step over a compiled loop, and the argument
 * loaders (any other name). */
#define FCUDA_CONDITION_KERNEL ((cudaKernel_t)(unsigned long)0xc0de)
#define FCUDA_CLAUSES_KERNEL ((cudaKernel_t)(unsigned long)0xc1a5)
#define FCUDA_AFTER_COPY_CLAUSES_KERNEL ((cudaKernel_t)(unsigned long)0xaf7c)
#define FCUDA_AFTER_COPY_KERNEL ((cudaKernel_t)(unsigned long)0xaf7e)
#define FCUDA_LOADER_KERNEL ((cudaKernel_t)(unsigned long)0x10ad)

/* Calls so far, all functions together (each fake call counts one). */
extern unsigned long fcuda_calls;
/* The fcuda_fail_at-th call (1-based, all functions together; 0: none)
 * fails with cudaErrorInvalidValue and names its function here. */
extern unsigned long fcuda_fail_at;
extern const char *fcuda_failed;
/* Every call of the function of this name fails so too (NULL: none). */
extern const char *fcuda_fail_all;
/* The name of call k (1-based) of the last fcuda_reset window; NULL past
 * the calls made (at most FCUDA_TRACE are kept). */
#define FCUDA_TRACE 256
const char *fcuda_call_name(unsigned long k);
/* Live top-level graphs, executables and events; library loads. */
extern int fcuda_live_graphs, fcuda_live_execs, fcuda_live_events;
/* cudaGraphDebugDotPrint: how many times called, and the last path (malloc'd). */
extern int fcuda_dot_prints;
extern char *fcuda_last_dot_path;
extern int fcuda_library_loads;
/* The image the last cudaLibraryLoadData was given (failed or not); the
 * libraries unloaded. */
extern const void *fcuda_last_library_code;
extern int fcuda_library_unloads;
/* The last top-level graph created; the last conditional handle created
 * and how many were; the first FCUDA_HANDLES of them in creation order
 * (fcuda_handles[k] for k < fcuda_n_handles and k < FCUDA_HANDLES). */
extern struct CUgraph_st *fcuda_last_graph;
extern struct fcuda_handle fcuda_last_handle;
extern unsigned fcuda_n_handles;
#define FCUDA_HANDLES 8
extern struct fcuda_handle fcuda_handles[FCUDA_HANDLES];

/* Stream capture (library_capture.c): streams made; the stream being
 * captured (NULL: none) and its mode; captures begun and ended; the graph
 * the last end handed out.  With fcuda_capture_invalidated the end fails
 * (cudaErrorStreamCaptureInvalidated) and hands out none. */
extern int fcuda_streams_made, fcuda_captures_begun, fcuda_captures_ended;
extern cudaStream_t fcuda_capturing;
extern enum cudaStreamCaptureMode fcuda_capture_mode;
extern int fcuda_capture_invalidated;
extern struct CUgraph_st *fcuda_last_captured;

/* The driver entry points cudaGetDriverEntryPointByVersion hands out
 * (driver launches recorded, cuda/driver_launch.c): cuGraphAddKernelNode
 * (a kernel node marked driver), cuGraphKernelNodeSetAttribute,
 * cuGraphExecKernelNodeSetParams (counted, the node's first parameter
 * kept in fcuda_driver_update_param0), cuLaunchKernel / cuLaunchKernelEx
 * (counted, the first parameter's first 4 bytes and the attributes
 * given kept; the call fails with CUDA_ERROR_INVALID_VALUE when it is
 * fcuda_fail_at's), cuCtxGetCurrent (fcuda_current_ctx) and
 * cuStreamGetCtx (fcuda_stream_ctx for every stream).  Each counts as a
 * call and may be made to fail. */
extern int fcuda_driver_launches, fcuda_driver_updates;
extern int fcuda_driver_launch_param0, fcuda_driver_update_param0;
extern unsigned fcuda_driver_launch_attrs;
extern CUcontext fcuda_current_ctx, fcuda_stream_ctx;

void fcuda_reset(void);

struct pygraph_param_layout;

/* The parameter layout the CUDA-layer tests give their kernels: an int at
 * offset 0 and a long long at 8, 16 bytes (the caller frees it). */
struct pygraph_param_layout *fcuda_two_param_layout(void);

#endif /* PYGRAPH_TEST_FAKE_CUDART_H */
