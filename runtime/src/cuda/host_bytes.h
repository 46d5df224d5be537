/* host_bytes.h - the CUDA side of PYGRAPH_OP_HOST_BYTES
 * (recording/host_bytes.h): the port's host_bytes_source, device_range
 * and symbol_range entries and the op's eager run (its kernel and node
 * parameters: host_bytes_module.h). */
#ifndef PYGRAPH_CUDA_HOST_BYTES_H
#define PYGRAPH_CUDA_HOST_BYTES_H

#include <cuda_runtime_api.h>

#include "recording/op.h"

/* The port's entries (port/backend.h).  None makes a call CUDA deems
 * unsafe during a program's capture outside relaxed capture mode: the
 * module load (once per process) and a symbol's first lookup (which may
 * load the program's module lazily) relax it themselves, so the calls on
 * the recording path pay nothing for it. */
int pygraph_cuda_host_bytes_source(const void *src);
int pygraph_cuda_host_only_memory(const void *p);
int pygraph_cuda_device_range(const void *dst, size_t count);
int pygraph_cuda_symbol_range(const void *symbol, void **address, size_t *size);

/* The op run now: its copy kernel launched on op->stream. */
cudaError_t pygraph_cuda_host_bytes_launch(const struct pygraph_op *op);

#endif /* PYGRAPH_CUDA_HOST_BYTES_H */
