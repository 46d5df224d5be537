/* driver_launch.h - the program's driver-API launches (cuLaunchKernel,
 * cuLaunchKernelEx) as recorded kernel ops (recording/op.h, `driver`):
 * their layouts, the context check, their eager run, their kernel nodes
 * and node updates, all through driver entry points (driver_api.h).
 *
 * Why the driver for nodes too: the runtime API's kernel node takes a
 * __global__ function's host stub or a cudaKernel_t cast to void *
 * (cuda_runtime_api.h, cudaGraphAddKernelNode and its \note_cudaKernel_t),
 * not a CUfunction; cuGraphAddKernelNode takes one (CUDA_KERNEL_NODE_PARAMS
 * .func), into the same graph (a cudaGraph_t is a CUgraph). */
#ifndef PYGRAPH_CUDA_DRIVER_LAUNCH_H
#define PYGRAPH_CUDA_DRIVER_LAUNCH_H

#include <cuda.h>

#include "port/backend.h"

/* The port's driver_context_ok (port/backend.h; its driver_param_layout
 * is cuda_ops.c's). */
int pygraph_cuda_driver_context_ok(cudaStream_t stream);

/* Runs a driver op now: cuLaunchKernel, or cuLaunchKernelEx with its
 * attributes.  Its call returned CUDA_SUCCESS when it was recorded, and a
 * driver error never reaches the runtime API's last error: the first
 * failure is said on stderr (every one is returned). */
cudaError_t pygraph_cuda_driver_execute(const struct pygraph_op *op);

/* A kernel node of a driver op in `graph` with its attributes; the node's
 * parameters replaced by op's (arguments, grid, block, shared memory). */
cudaError_t pygraph_cuda_driver_node_add(cudaGraphNode_t *node, cudaGraph_t graph,
                                         const cudaGraphNode_t *deps, size_t n_deps,
                                         const struct pygraph_op *op);
cudaError_t pygraph_cuda_driver_node_update(cudaGraphExec_t exec, cudaGraphNode_t node,
                                            const struct pygraph_op *op);

/* cuLaunchKernelEx's attributes as the runtime API's type, the one the
 * recording keeps (the same layout and, for those a node holds, the same
 * ids: asserted where this is defined). */
const cudaLaunchAttribute *pygraph_cuda_driver_attrs(const CUlaunchAttribute *attrs);

#endif /* PYGRAPH_CUDA_DRIVER_LAUNCH_H */
