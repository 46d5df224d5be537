/* library_capture.c - a library op run eagerly, or captured into one
 * child-graph node (library_capture.h). */
#include "cuda/library_capture.h"

#include <pthread.h>
#include <stdlib.h>

#include "abi/library_calls.h"
#include "common/grow.h"

cudaError_t pygraph_cuda_library_execute(const struct pygraph_op *op)
{
  int status = op->library->run(op->library_args, NULL);
  if (status == 0)
    return cudaSuccess;
  pygraph_library_failed(op, status);
  return cudaErrorUnknown;
}

/* The capture streams, one per device ordinal (NULL: not made yet); the
 * lock is held from a stream's lookup to the end of its capture, so two
 * threads' builds never capture on one stream at once. */
static pthread_mutex_t capture_lock = PTHREAD_MUTEX_INITIALIZER;
static cudaStream_t *capture_streams;
static size_t n_capture_streams, cap_capture_streams;

/* The current device's capture stream (capture_lock held). */
static cudaError_t capture_stream(cudaStream_t *out)
{
  int device;
  cudaError_t err = cudaGetDevice(&device);
  if (err != cudaSuccess)
    return err;
  size_t d = (size_t)device;
  if (d >= n_capture_streams) {
    if (pygraph_grow((void **)&capture_streams, &cap_capture_streams, d + 1,
                     sizeof *capture_streams))
      return cudaErrorMemoryAllocation;
    for (size_t i = n_capture_streams; i <= d; i++)
      capture_streams[i] = NULL;
    n_capture_streams = d + 1;
  }
  if (!capture_streams[d] &&
      (err = cudaStreamCreateWithFlags(&capture_streams[d], cudaStreamNonBlocking)) != cudaSuccess) {
    capture_streams[d] = NULL;
    return err;
  }
  *out = capture_streams[d];
  return cudaSuccess;
}

/* The op's call captured on the capture stream into *captured (NULL on
 * any error).  The capture is ended whatever happened in it. */
static cudaError_t capture_call(const struct pygraph_op *op, cudaGraph_t *captured)
{
  cudaStream_t stream;
  *captured = NULL;
  pthread_mutex_lock(&capture_lock);
  cudaError_t err = capture_stream(&stream);
  if (err == cudaSuccess)
    err = cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal);
  if (err == cudaSuccess) {
    int status = op->library->run(op->library_args, stream);
    cudaError_t end = cudaStreamEndCapture(stream, captured);
    err = status != 0 ? cudaErrorUnknown : end;
  }
  pthread_mutex_unlock(&capture_lock);
  if (err != cudaSuccess && *captured) {
    (void)cudaGraphDestroy(*captured);
    *captured = NULL;
  }
  return err;
}

cudaError_t pygraph_cuda_library_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                      const cudaGraphNode_t *deps, size_t n_deps,
                                      const struct pygraph_op *op)
{
  cudaGraph_t captured;
  cudaError_t err = capture_call(op, &captured);
  if (err != cudaSuccess)
    return err;
  /* The node holds a copy of the captured graph (CUDA: the child graph is
   * cloned into the node), so ours goes at once. */
  err = cudaGraphAddChildGraphNode(node, graph, deps, n_deps, captured);
  (void)cudaGraphDestroy(captured);
  return err;
}
