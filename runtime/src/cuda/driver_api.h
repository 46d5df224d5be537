/* driver_api.h - driver functions reached without linking libcuda.
 *
 * The runtime only needs a few driver entry points (parameter layouts,
 * routed cuLaunchKernel* calls run and made graph nodes, verify mode's
 * pointer ranges); they are fetched through cudaGetDriverEntryPointByVersion on
 * first use and cached. */
#ifndef PYGRAPH_DRIVER_API_H
#define PYGRAPH_DRIVER_API_H

#include <cuda.h>

typedef CUresult (*pygraph_pfn_cuFuncGetParamInfo)(CUfunction, size_t, size_t *, size_t *);
typedef CUresult (*pygraph_pfn_cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned,
                                               unsigned, unsigned, unsigned, unsigned,
                                               CUstream, void **, void **);
typedef CUresult (*pygraph_pfn_cuLaunchKernelEx)(const CUlaunchConfig *, CUfunction, void **,
                                                 void **);
typedef CUresult (*pygraph_pfn_cuGraphAddKernelNode)(CUgraphNode *, CUgraph, const CUgraphNode *,
                                                     size_t, const CUDA_KERNEL_NODE_PARAMS *);
typedef CUresult (*pygraph_pfn_cuGraphExecKernelNodeSetParams)(CUgraphExec, CUgraphNode,
                                                               const CUDA_KERNEL_NODE_PARAMS *);
typedef CUresult (*pygraph_pfn_cuGraphKernelNodeSetAttribute)(CUgraphNode, CUkernelNodeAttrID,
                                                              const CUkernelNodeAttrValue *);
typedef CUresult (*pygraph_pfn_cuCtxGetCurrent)(CUcontext *);
typedef CUresult (*pygraph_pfn_cuStreamGetCtx)(CUstream, CUcontext *);
typedef CUresult (*pygraph_pfn_cuPointerGetAttributes)(unsigned, CUpointer_attribute *, void **,
                                                       CUdeviceptr);
typedef CUresult (*pygraph_pfn_cuMemGetAddressRange)(CUdeviceptr *, size_t *, CUdeviceptr);

/* NULL when the driver does not provide the function. */
pygraph_pfn_cuFuncGetParamInfo pygraph_driver_cuFuncGetParamInfo(void);
pygraph_pfn_cuLaunchKernel pygraph_driver_cuLaunchKernel(int per_thread_default);
pygraph_pfn_cuLaunchKernelEx pygraph_driver_cuLaunchKernelEx(int per_thread_default);
/* The program's driver-API launches recorded (cuda/driver_launch.c): their
 * kernel nodes, node updates and node attributes, and the context checks. */
pygraph_pfn_cuGraphAddKernelNode pygraph_driver_cuGraphAddKernelNode(void);
pygraph_pfn_cuGraphExecKernelNodeSetParams pygraph_driver_cuGraphExecKernelNodeSetParams(void);
pygraph_pfn_cuGraphKernelNodeSetAttribute pygraph_driver_cuGraphKernelNodeSetAttribute(void);
pygraph_pfn_cuCtxGetCurrent pygraph_driver_cuCtxGetCurrent(void);
pygraph_pfn_cuStreamGetCtx pygraph_driver_cuStreamGetCtx(void);
/* Pointer queries: verify mode (cuda/verify_ops.c), the host-to-device copies
 * snapshotted at the call (cuda/host_bytes.c). */
pygraph_pfn_cuPointerGetAttributes pygraph_driver_cuPointerGetAttributes(void);
pygraph_pfn_cuMemGetAddressRange pygraph_driver_cuMemGetAddressRange(void);

#endif /* PYGRAPH_DRIVER_API_H */
