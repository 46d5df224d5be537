/* host_bytes_module.h - the copy kernels of PYGRAPH_OP_HOST_BYTES
 * (recording/host_bytes.h: PTX built into the runtime), loaded once per
 * process with cudaLibraryLoadData, and the launch parameters that carry
 * an op's bytes.  Loading is a module load, which CUDA deems unsafe while
 * a program captures a stream: the one caller that may load it
 * (host_bytes.c, the port's host_bytes_source) relaxes the capture mode
 * around its first call; a recorded op implies the module is loaded. */
#ifndef PYGRAPH_HOST_BYTES_MODULE_H
#define PYGRAPH_HOST_BYTES_MODULE_H

#include <cuda_runtime_api.h>

#include "recording/op.h"

/* Loads the module on the first call: cudaSuccess, else the load's error,
 * the same for the rest of the process (the error is cleared: it is not
 * the program's). */
cudaError_t pygraph_cuda_host_bytes_kernels_ready(void);

/* The copy kernel launch of `op` (its count bytes at op->src, padded to
 * its class as an op list holds them): `params` (3 entries), `dst` and
 * `count` must outlive the call that takes the result (launches and node
 * calls copy the parameters).  func is NULL when the module is not loaded. */
struct cudaKernelNodeParams pygraph_cuda_host_bytes_node(const struct pygraph_op *op,
                                                         void **params, void **dst,
                                                         unsigned *count);

#endif /* PYGRAPH_HOST_BYTES_MODULE_H */
