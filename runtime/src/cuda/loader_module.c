/* loader_module.c - loads the argument loaders' PTX once per process. */
#include "cuda/loader_module.h"

#include <pthread.h>

#include "graphs/arg_loader.h"

static pthread_once_t loader_once = PTHREAD_ONCE_INIT;
static cudaError_t loader_error = cudaErrorNotReady;
static cudaKernel_t loader_kernels[PYGRAPH_LOADER_CLASSES];

static void load_loaders(void)
{
  cudaLibrary_t lib;
  cudaError_t err = cudaLibraryLoadData(&lib, pygraph_loader_ptx, NULL, NULL, 0, NULL, NULL, 0);
  for (unsigned c = 0; err == cudaSuccess && c < PYGRAPH_LOADER_CLASSES; c++)
    err = cudaLibraryGetKernel(&loader_kernels[c], lib, pygraph_loader_class_name(c));
  if (err != cudaSuccess)
    (void)cudaGetLastError();          /* not the user's error: indirection stays off */
  loader_error = err;                  /* the library stays loaded for the process */
}

cudaError_t pygraph_cuda_loaders_ready(void)
{
  pthread_once(&loader_once, load_loaders);
  return loader_error;
}

cudaKernel_t pygraph_cuda_loader_kernel(unsigned cls)
{
  return loader_kernels[cls];
}
