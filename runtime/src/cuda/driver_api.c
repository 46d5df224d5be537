/* driver_api.c - lazy driver entry point lookup.  Racing first calls may
 * both look a symbol up; they store the same pointer, so no lock. */
#include "cuda/driver_api.h"

#include <cuda_runtime_api.h>

/* Asking for the CUDA_VERSION the typedefs were written against gives the
 * ABI those typedefs describe, or the closest older one the driver has. */

/* A cached "not available" must differ from "not looked up yet". */
#define MISSING ((void *)1)

static void *lookup(void **cache, const char *symbol, unsigned version, unsigned long long flags)
{
  void *fn = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
  if (!fn) {
    enum cudaDriverEntryPointQueryResult status = cudaDriverEntryPointSymbolNotFound;
    if (cudaGetDriverEntryPointByVersion(symbol, &fn, version, flags, &status) != cudaSuccess ||
        status != cudaDriverEntryPointSuccess || !fn) {
      (void)cudaGetLastError();      /* a failed lookup is not the user's error */
      fn = MISSING;
    }
    __atomic_store_n(cache, fn, __ATOMIC_RELEASE);
  }
  return fn == MISSING ? NULL : fn;
}

pygraph_pfn_cuFuncGetParamInfo pygraph_driver_cuFuncGetParamInfo(void)
{
  static void *cache;
  return (pygraph_pfn_cuFuncGetParamInfo)lookup(&cache, "cuFuncGetParamInfo", CUDA_VERSION,
                                                cudaEnableDefault);
}

pygraph_pfn_cuLaunchKernel pygraph_driver_cuLaunchKernel(int per_thread_default)
{
  static void *cache[2];
  return (pygraph_pfn_cuLaunchKernel)lookup(
      &cache[per_thread_default != 0], "cuLaunchKernel", CUDA_VERSION,
      per_thread_default ? cudaEnablePerThreadDefaultStream : cudaEnableLegacyStream);
}

pygraph_pfn_cuLaunchKernelEx pygraph_driver_cuLaunchKernelEx(int per_thread_default)
{
  static void *cache[2];
  return (pygraph_pfn_cuLaunchKernelEx)lookup(
      &cache[per_thread_default != 0], "cuLaunchKernelEx", CUDA_VERSION,
      per_thread_default ? cudaEnablePerThreadDefaultStream : cudaEnableLegacyStream);
}

pygraph_pfn_cuPointerGetAttributes pygraph_driver_cuPointerGetAttributes(void)
{
  static void *cache;
  return (pygraph_pfn_cuPointerGetAttributes)lookup(&cache, "cuPointerGetAttributes",
                                                    CUDA_VERSION, cudaEnableDefault);
}

pygraph_pfn_cuMemGetAddressRange pygraph_driver_cuMemGetAddressRange(void)
{
  static void *cache;
  return (pygraph_pfn_cuMemGetAddressRange)lookup(&cache, "cuMemGetAddressRange", CUDA_VERSION,
                                                  cudaEnableDefault);
}

pygraph_pfn_cuGraphAddKernelNode pygraph_driver_cuGraphAddKernelNode(void)
{
  static void *cache;       /* CUDA_VERSION: the CUDA_KERNEL_NODE_PARAMS_v2 form */
  return (pygraph_pfn_cuGraphAddKernelNode)lookup(&cache, "cuGraphAddKernelNode", CUDA_VERSION,
                                                  cudaEnableDefault);
}

pygraph_pfn_cuGraphExecKernelNodeSetParams pygraph_driver_cuGraphExecKernelNodeSetParams(void)
{
  static void *cache;
  return (pygraph_pfn_cuGraphExecKernelNodeSetParams)lookup(
      &cache, "cuGraphExecKernelNodeSetParams", CUDA_VERSION, cudaEnableDefault);
}

pygraph_pfn_cuGraphKernelNodeSetAttribute pygraph_driver_cuGraphKernelNodeSetAttribute(void)
{
  static void *cache;
  return (pygraph_pfn_cuGraphKernelNodeSetAttribute)lookup(
      &cache, "cuGraphKernelNodeSetAttribute", CUDA_VERSION, cudaEnableDefault);
}

pygraph_pfn_cuCtxGetCurrent pygraph_driver_cuCtxGetCurrent(void)
{
  static void *cache;
  return (pygraph_pfn_cuCtxGetCurrent)lookup(&cache, "cuCtxGetCurrent", CUDA_VERSION,
                                             cudaEnableDefault);
}

pygraph_pfn_cuStreamGetCtx pygraph_driver_cuStreamGetCtx(void)
{
  static void *cache;
  /* 9020: the (stream, context) form; from 12050 on the symbol takes a
   * green context too (cudaTypedefs.h, PFN_cuStreamGetCtx_v12050). */
  return (pygraph_pfn_cuStreamGetCtx)lookup(&cache, "cuStreamGetCtx", 9020, cudaEnableDefault);
}
