/* cuda_ptsz.h - the per-thread-default-stream entry points of the CUDA
 * runtime (_ptsz for calls that take a stream, _ptds for synchronous ones).
 * cuda_runtime_api.h only names them through macros when a translation
 * unit is built with per-thread default streams, so they are declared here
 * to forward such calls to exactly the same symbol. */
#ifndef PYGRAPH_CUDA_PTSZ_H
#define PYGRAPH_CUDA_PTSZ_H

#include <cuda_runtime_api.h>

extern cudaError_t CUDARTAPI cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block,
                                                   void **args, size_t shmem,
                                                   cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
                                                      const void *func, void **args);
extern cudaError_t CUDARTAPI cudaMemsetAsync_ptsz(void *dst, int value, size_t count,
                                                  cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count,
                                                  enum cudaMemcpyKind kind,
                                                  cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream);
extern cudaError_t CUDARTAPI cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                                      unsigned int flags);
extern cudaError_t CUDARTAPI cudaMemset_ptds(void *dst, int value, size_t count);
extern cudaError_t CUDARTAPI cudaMemcpy_ptds(void *dst, const void *src, size_t count,
                                             enum cudaMemcpyKind kind);
extern cudaError_t CUDARTAPI cudaMemcpyToSymbol_ptds(const void *symbol, const void *src,
                                                     size_t count, size_t offset,
                                                     enum cudaMemcpyKind kind);

#endif /* PYGRAPH_CUDA_PTSZ_H */
