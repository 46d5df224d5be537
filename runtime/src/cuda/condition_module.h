/* condition_module.h - the WHILE graph's condition kernel
 * (graphs/while_condition.h: PTX built into the runtime), loaded once per
 * process with cudaLibraryLoadData.  Loading is a module load, which CUDA
 * deems unsafe while a program captures a stream: callers are port
 * entries that run in relaxed capture mode (backend_cuda.c). */
#ifndef PYGRAPH_CONDITION_MODULE_H
#define PYGRAPH_CONDITION_MODULE_H

#include <cuda_runtime_api.h>

/* The kernel (loaded on the first call): cudaSuccess and *kernel, else the
 * load's error, the same for the rest of the process (the error is
 * cleared: it is not the program's). */
cudaError_t pygraph_cuda_condition_kernel(cudaKernel_t *kernel);

#endif /* PYGRAPH_CONDITION_MODULE_H */
