/* driver_launch.c - the program's driver-API launches, recorded: layouts,
 * context check, eager run, kernel nodes and their updates
 * (driver_launch.h). */
#include "cuda/driver_launch.h"

#include <stddef.h>
#include <stdio.h>

#include "abi/library_calls.h"
#include "cuda/driver_api.h"
#include "pygraph_rt.h"
#include "recording/op.h"

/* The recording keeps cuLaunchKernelEx's attributes as cudaLaunchAttribute
 * (abi/record.c judges them by id) and gives them back to the driver as
 * they came: the two types must be one layout, and the ids a node holds
 * the same numbers. */
_Static_assert(sizeof(CUlaunchAttribute) == sizeof(cudaLaunchAttribute) &&
                   offsetof(CUlaunchAttribute, value) == offsetof(cudaLaunchAttribute, val) &&
                   sizeof(CUlaunchAttributeValue) == sizeof(cudaLaunchAttributeValue),
               "driver and runtime launch attributes share their layout");
_Static_assert((int)CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW ==
                       (int)cudaLaunchAttributeAccessPolicyWindow &&
                   (int)CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION ==
                       (int)cudaLaunchAttributeClusterDimension &&
                   (int)CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE ==
                       (int)cudaLaunchAttributeClusterSchedulingPolicyPreference &&
                   (int)CU_LAUNCH_ATTRIBUTE_PRIORITY == (int)cudaLaunchAttributePriority &&
                   (int)CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP ==
                       (int)cudaLaunchAttributeMemSyncDomainMap &&
                   (int)CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN ==
                       (int)cudaLaunchAttributeMemSyncDomain &&
                   (int)CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION ==
                       (int)cudaLaunchAttributePreferredClusterDimension,
               "the attributes a node holds have the same ids in both APIs");

const cudaLaunchAttribute *pygraph_cuda_driver_attrs(const CUlaunchAttribute *attrs)
{
  return (const cudaLaunchAttribute *)(const void *)attrs;
}

/* The driver's codes and the runtime's share their values for the errors
 * these calls return (driver_types.h pairs each cudaError with its
 * CUDA_ERROR_); a missing entry point is cudaErrorNotSupported. */
static cudaError_t from_driver(CUresult r)
{
  return r == CUDA_SUCCESS ? cudaSuccess : (cudaError_t)r;
}

/* The runtime API's graph calls use the context current on the thread
 * (CUDA's "Interactions with the CUDA Driver API"); a driver launch's node
 * must be of that context, so its stream must be too.  The legacy and
 * per-thread streams are the current context's.  A CUfunction itself
 * cannot be asked its context: one of another context than its stream's
 * fails the program's own launch. */
int pygraph_cuda_driver_context_ok(cudaStream_t stream)
{
  pygraph_pfn_cuCtxGetCurrent get_current = pygraph_driver_cuCtxGetCurrent();
  CUcontext current = NULL;
  if (!get_current || get_current(&current) != CUDA_SUCCESS || !current)
    return 0;
  if (stream == cudaStreamLegacy || stream == cudaStreamPerThread)
    return 1;
  pygraph_pfn_cuStreamGetCtx stream_ctx = pygraph_driver_cuStreamGetCtx();
  CUcontext of_stream = NULL;
  return stream_ctx && stream_ctx((CUstream)stream, &of_stream) == CUDA_SUCCESS &&
         of_stream == current;
}

static CUresult launch_ex(const struct pygraph_op *op)
{
  pygraph_pfn_cuLaunchKernelEx launch = pygraph_driver_cuLaunchKernelEx(0);
  if (!launch)
    return CUDA_ERROR_NOT_SUPPORTED;
  CUlaunchConfig config = {
      .gridDimX = op->grid.x, .gridDimY = op->grid.y, .gridDimZ = op->grid.z,
      .blockDimX = op->block.x, .blockDimY = op->block.y, .blockDimZ = op->block.z,
      .sharedMemBytes = (unsigned)op->shmem, .hStream = (CUstream)op->stream,
      .attrs = (CUlaunchAttribute *)(const void *)op->attrs, .numAttrs = op->n_attrs};
  return launch(&config, (CUfunction)op->func, op->arg_ptrs, NULL);
}

/* The stream is normalised (never 0): the legacy form of the entry point
 * runs it on the stream it names. */
cudaError_t pygraph_cuda_driver_execute(const struct pygraph_op *op)
{
  CUresult r;
  if (op->n_attrs) {
    r = launch_ex(op);
  } else {
    pygraph_pfn_cuLaunchKernel launch = pygraph_driver_cuLaunchKernel(0);
    r = !launch ? CUDA_ERROR_NOT_SUPPORTED
                : launch((CUfunction)op->func, op->grid.x, op->grid.y, op->grid.z, op->block.x,
                         op->block.y, op->block.z, (unsigned)op->shmem, (CUstream)op->stream,
                         op->arg_ptrs, NULL);
  }
  if (r != CUDA_SUCCESS)
    pygraph_driver_launch_failed(op, (int)r);
  return from_driver(r);
}

static CUDA_KERNEL_NODE_PARAMS node_params(const struct pygraph_op *op)
{
  CUDA_KERNEL_NODE_PARAMS p = {
      .func = (CUfunction)op->func,
      .gridDimX = op->grid.x, .gridDimY = op->grid.y, .gridDimZ = op->grid.z,
      .blockDimX = op->block.x, .blockDimY = op->block.y, .blockDimZ = op->block.z,
      .sharedMemBytes = (unsigned)op->shmem,          /* range checked when recorded */
      .kernelParams = op->arg_ptrs,                   /* copied by the call */
  };
  return p;
}

static CUresult set_node_attrs(CUgraphNode node, const struct pygraph_op *op)
{
  pygraph_pfn_cuGraphKernelNodeSetAttribute set = pygraph_driver_cuGraphKernelNodeSetAttribute();
  if (op->n_attrs && !set)
    return CUDA_ERROR_NOT_SUPPORTED;
  CUresult r = CUDA_SUCCESS;
  const CUlaunchAttribute *attrs = (const CUlaunchAttribute *)(const void *)op->attrs;
  for (unsigned i = 0; r == CUDA_SUCCESS && i < op->n_attrs; i++)
    r = set(node, (CUkernelNodeAttrID)attrs[i].id, &attrs[i].value);
  return r;
}

cudaError_t pygraph_cuda_driver_node_add(cudaGraphNode_t *node, cudaGraph_t graph,
                                         const cudaGraphNode_t *deps, size_t n_deps,
                                         const struct pygraph_op *op)
{
  pygraph_pfn_cuGraphAddKernelNode add = pygraph_driver_cuGraphAddKernelNode();
  if (!add)
    return cudaErrorNotSupported;
  CUDA_KERNEL_NODE_PARAMS p = node_params(op);
  CUresult r = add(node, graph, deps, n_deps, &p);
  if (r == CUDA_SUCCESS)
    r = set_node_attrs(*node, op);
  return from_driver(r);
}

cudaError_t pygraph_cuda_driver_node_update(cudaGraphExec_t exec, cudaGraphNode_t node,
                                            const struct pygraph_op *op)
{
  pygraph_pfn_cuGraphExecKernelNodeSetParams set =
      pygraph_driver_cuGraphExecKernelNodeSetParams();
  if (!set)
    return cudaErrorNotSupported;
  CUDA_KERNEL_NODE_PARAMS p = node_params(op);
  return from_driver(set(exec, node, &p));
}
