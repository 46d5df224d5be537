/* condition_module.h - the WHILE graph's condition kernels
 * (graphs/while_condition.h: PTX built into the runtime), loaded once per
 * process with cudaLibraryLoadData.  Loading is a module load, which CUDA
 * deems unsafe while a program captures a stream: callers are port
 * entries that run in relaxed capture mode (backend_cuda.c). */
#ifndef PYGRAPH_CONDITION_MODULE_H
#define PYGRAPH_CONDITION_MODULE_H

#include <cuda_runtime_api.h>

/* The module's kernels (graphs/while_condition.h). */
struct pygraph_condition_kernels {
  cudaKernel_t step;             /* pygraph_while_condition: the body's last node */
  cudaKernel_t after_copy;       /* pygraph_while_after_copy: a split body's test right
                                    after the status copy, answering its IF node */
  cudaKernel_t clauses;          /* pygraph_while_condition_clauses: the step over a
                                    loop's compiled form (graphs/while_clauses.h) */
  cudaKernel_t after_copy_clauses;   /* pygraph_while_after_copy_clauses: the after-copy
                                        test over it */
};

/* The kernels (loaded on the first call): cudaSuccess and *kernels, else
 * the load's error, the same for the rest of the process (the error is
 * cleared: it is not the program's). */
cudaError_t pygraph_cuda_condition_kernels(struct pygraph_condition_kernels *kernels);

#endif /* PYGRAPH_CONDITION_MODULE_H */
