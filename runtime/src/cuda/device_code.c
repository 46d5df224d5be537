/* device_code.c - the runtime's own device modules loaded (device_code.h). */
#include "cuda/device_code.h"

cudaError_t pygraph_cuda_load_device_code(cudaLibrary_t *lib, const unsigned char *fatbin,
                                          unsigned long fatbin_size, const char *ptx)
{
  cudaError_t err = cudaErrorInvalidKernelImage;
  if (fatbin_size)
    err = cudaLibraryLoadData(lib, fatbin, NULL, NULL, 0, NULL, NULL, 0);
  if (err != cudaSuccess) {
    (void)cudaGetLastError();          /* the fat binary's failure is not the program's */
    err = cudaLibraryLoadData(lib, ptx, NULL, NULL, 0, NULL, NULL, 0);
  }
  if (err != cudaSuccess)
    (void)cudaGetLastError();
  return err;
}
