/* verify_ops.h - the CUDA calls behind verify mode's port entries
 * (port/backend.h): which allocation a pointer-sized value points into,
 * copies between device and host memory, stream synchronization.  Raw
 * calls: the port table (backend_cuda.c) runs them in relaxed capture
 * mode. */
#ifndef PYGRAPH_VERIFY_OPS_H
#define PYGRAPH_VERIFY_OPS_H

#include "port/backend.h"

int pygraph_cuda_allocation_of(const void *ptr, void **base, size_t *size);
cudaError_t pygraph_cuda_memory_copy(void *dst, const void *src, size_t size,
                                     cudaStream_t stream);
cudaError_t pygraph_cuda_stream_synchronize(cudaStream_t stream);

#endif /* PYGRAPH_VERIFY_OPS_H */
