/* condition_module.c - loads the condition kernels' PTX once per process. */
#include "cuda/condition_module.h"

#include <pthread.h>

#include "cuda/device_code.h"
#include "graphs/while_clauses.h"

static pthread_once_t condition_once = PTHREAD_ONCE_INIT;
static cudaError_t condition_error = cudaErrorNotReady;
static struct pygraph_condition_kernels condition_kernels;

static void load_condition(void)
{
  cudaLibrary_t lib;
  cudaError_t err = pygraph_cuda_load_device_code(&lib, pygraph_while_condition_ptx_fatbin,
                                                  pygraph_while_condition_ptx_fatbin_size,
                                                  pygraph_while_condition_ptx,
                                                  PYGRAPH_WHILE_CONDITION_KERNEL);
  if (err == cudaSuccess)
    err = cudaLibraryGetKernel(&condition_kernels.step, lib, PYGRAPH_WHILE_CONDITION_KERNEL);
  if (err == cudaSuccess)
    err = cudaLibraryGetKernel(&condition_kernels.after_copy, lib,
                               PYGRAPH_WHILE_AFTER_COPY_KERNEL);
  if (err == cudaSuccess)
    err = cudaLibraryGetKernel(&condition_kernels.clauses, lib,
                               PYGRAPH_WHILE_CLAUSES_KERNEL);
  if (err == cudaSuccess)
    err = cudaLibraryGetKernel(&condition_kernels.after_copy_clauses, lib,
                               PYGRAPH_WHILE_AFTER_COPY_CLAUSES_KERNEL);
  if (err != cudaSuccess)
    (void)cudaGetLastError();          /* not the user's error: no WHILE graphs */
  condition_error = err;               /* the library stays loaded for the process */
}

cudaError_t pygraph_cuda_condition_kernels(struct pygraph_condition_kernels *kernels)
{
  pthread_once(&condition_once, load_condition);
  *kernels = condition_kernels;
  return condition_error;
}
