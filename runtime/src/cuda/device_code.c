/* device_code.c - the runtime's own device modules loaded (device_code.h). */
#include "cuda/device_code.h"

/* The fat binary loaded and its kernel `probe` resolved for this GPU. */
static cudaError_t load_fatbin(cudaLibrary_t *lib, const unsigned char *fatbin, const char *probe)
{
  cudaError_t err = cudaLibraryLoadData(lib, fatbin, NULL, NULL, 0, NULL, NULL, 0);
  if (err != cudaSuccess)
    return err;
  cudaKernel_t kernel;
  struct cudaFuncAttributes attr;
  err = cudaLibraryGetKernel(&kernel, *lib, probe);
  if (err == cudaSuccess)
    err = cudaFuncGetAttributes(&attr, (const void *)kernel);
  if (err != cudaSuccess)
    (void)cudaLibraryUnload(*lib);
  return err;
}

cudaError_t pygraph_cuda_load_device_code(cudaLibrary_t *lib, const unsigned char *fatbin,
                                          unsigned long fatbin_size, const char *ptx,
                                          const char *probe)
{
  cudaError_t err = fatbin_size ? load_fatbin(lib, fatbin, probe) : cudaErrorInvalidKernelImage;
  if (err != cudaSuccess) {
    (void)cudaGetLastError();          /* the fat binary's failure is not the program's */
    err = cudaLibraryLoadData(lib, ptx, NULL, NULL, 0, NULL, NULL, 0);
  }
  if (err != cudaSuccess)
    (void)cudaGetLastError();
  return err;
}
