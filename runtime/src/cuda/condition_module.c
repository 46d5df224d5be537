/* condition_module.c - loads the condition kernel's PTX once per process. */
#include "cuda/condition_module.h"

#include <pthread.h>

#include "graphs/while_condition.h"

static pthread_once_t condition_once = PTHREAD_ONCE_INIT;
static cudaError_t condition_error = cudaErrorNotReady;
static cudaKernel_t condition_kernel;

static void load_condition(void)
{
  cudaLibrary_t lib;
  cudaError_t err =
      cudaLibraryLoadData(&lib, pygraph_while_condition_ptx, NULL, NULL, 0, NULL, NULL, 0);
  if (err == cudaSuccess)
    err = cudaLibraryGetKernel(&condition_kernel, lib, PYGRAPH_WHILE_CONDITION_KERNEL);
  if (err != cudaSuccess)
    (void)cudaGetLastError();          /* not the user's error: no WHILE graphs */
  condition_error = err;               /* the library stays loaded for the process */
}

cudaError_t pygraph_cuda_condition_kernel(cudaKernel_t *kernel)
{
  pthread_once(&condition_once, load_condition);
  *kernel = condition_kernel;
  return condition_error;
}
