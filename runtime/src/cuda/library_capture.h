/* library_capture.h - a library call (PYGRAPH_OP_LIBRARY, recording/op.h)
 * run eagerly, and made into one graph node.
 *
 * A library is no kernel pygraph can describe: cuBLAS picks its kernels,
 * their launch shapes and parameters, split-K and workspace use by the
 * call's arguments and the device, at the call.  Stream capture is the one
 * way to get those as a graph, and a child-graph node puts what was
 * captured into the graph the plan builds (graph_realise.c) as one node
 * with the plan's edges, without capturing the program's streams: the call
 * is captured alone, on a stream of pygraph's own. */
#ifndef PYGRAPH_LIBRARY_CAPTURE_H
#define PYGRAPH_LIBRARY_CAPTURE_H

#include <cuda_runtime_api.h>

#include "recording/op.h"

/* The op's call made now, on its library handle as it is (`run` with no
 * capture stream).  A failure is the library's status, which the program
 * never saw (its call returned success when it was recorded): said and
 * counted (abi/library_calls.h), returned as cudaErrorUnknown. */
cudaError_t pygraph_cuda_library_execute(const struct pygraph_op *op);

/* One child-graph node in `graph`, after `deps`, holding what the op's
 * call enqueues: its run into a non-blocking stream of pygraph's own (one
 * per device, made at its first use and kept), captured in thread-local
 * mode, so that other threads' calls, the program's captures included, do
 * not interfere.  Any error (the stream, the capture, a library status
 * other than success, the node) is returned with nothing left behind and
 * the capture ended: the caller's build fails and the iteration runs
 * eagerly (the capture ran nothing on the device). */
cudaError_t pygraph_cuda_library_node(cudaGraphNode_t *node, cudaGraph_t graph,
                                      const cudaGraphNode_t *deps, size_t n_deps,
                                      const struct pygraph_op *op);

#endif /* PYGRAPH_LIBRARY_CAPTURE_H */
