/* host_bytes_module.c - the copy kernels' module and launch parameters
 * (host_bytes_module.h). */
#include "cuda/host_bytes_module.h"

#include <pthread.h>

#include "cuda/device_code.h"
#include "recording/host_bytes.h"

static pthread_once_t module_once = PTHREAD_ONCE_INIT;
static cudaError_t module_error = cudaErrorNotReady;
static cudaKernel_t kernels[PYGRAPH_HOST_BYTES_CLASSES];

static void load_module(void)
{
  cudaLibrary_t lib;
  cudaError_t err = pygraph_cuda_load_device_code(&lib, pygraph_host_bytes_ptx_fatbin,
                                                  pygraph_host_bytes_ptx_fatbin_size,
                                                  pygraph_host_bytes_ptx,
                                                  pygraph_host_bytes_class_name(0));
  for (unsigned c = 0; err == cudaSuccess && c < PYGRAPH_HOST_BYTES_CLASSES; c++)
    err = cudaLibraryGetKernel(&kernels[c], lib, pygraph_host_bytes_class_name(c));
  if (err != cudaSuccess)
    (void)cudaGetLastError();          /* not the program's error: the copies stay barriers */
  module_error = err;                  /* the library stays loaded for the process */
}

cudaError_t pygraph_cuda_host_bytes_kernels_ready(void)
{
  pthread_once(&module_once, load_module);
  return module_error;
}

struct cudaKernelNodeParams pygraph_cuda_host_bytes_node(const struct pygraph_op *op,
                                                         void **params, void **dst,
                                                         unsigned *count)
{
  struct cudaKernelNodeParams p = {0};
  if (pygraph_cuda_host_bytes_kernels_ready() != cudaSuccess)
    return p;
  *dst = op->dst;
  *count = (unsigned)op->count;        /* <= PYGRAPH_HOST_BYTES_MAX (abi/record.c) */
  params[0] = dst;
  params[1] = count;
  params[2] = (void *)op->src;
  /* a thread per 4-byte word at most: the kernel copies in words when the
   * destination and the count allow */
  unsigned words = (*count + 3) / 4, threads = (words + 31) / 32 * 32;
  p.func = (void *)kernels[pygraph_host_bytes_class_of(op->count)];
  p.gridDim = (dim3){1, 1, 1};
  p.blockDim = (dim3){threads < PYGRAPH_HOST_BYTES_THREADS ? threads : PYGRAPH_HOST_BYTES_THREADS,
                      1, 1};
  p.kernelParams = params;
  return p;
}
