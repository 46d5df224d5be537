/* loader_module.h - the argument loader kernels (graphs/arg_loader.h: PTX
 * built into the runtime), loaded once per process with
 * cudaLibraryLoadData.  Loading is a module load, which CUDA deems unsafe
 * while a program captures a stream: callers are port entries that run in
 * relaxed capture mode (backend_cuda.c). */
#ifndef PYGRAPH_LOADER_MODULE_H
#define PYGRAPH_LOADER_MODULE_H

#include <cuda_runtime_api.h>

/* Loads the loaders on the first call; cudaSuccess when they are usable,
 * else the load's error, the same for the rest of the process (the error
 * is cleared: it is not the program's). */
cudaError_t pygraph_cuda_loaders_ready(void);

/* The loader kernel of parameter-size class `cls` (< PYGRAPH_LOADER_CLASSES);
 * only after pygraph_cuda_loaders_ready returned cudaSuccess. */
cudaKernel_t pygraph_cuda_loader_kernel(unsigned cls);

#endif /* PYGRAPH_LOADER_MODULE_H */
