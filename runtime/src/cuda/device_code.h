/* device_code.h - loads one of the runtime's own device modules (the
 * condition kernels, the copy kernels): its fat binary, whose machine code
 * for this GPU needs no compile, else its PTX, which the driver compiles
 * (on every machine whose compile cache lacks it). */
#ifndef PYGRAPH_CUDA_DEVICE_CODE_H
#define PYGRAPH_CUDA_DEVICE_CODE_H

#include <cuda_runtime_api.h>

/* `fatbin` (`fatbin_size` bytes, 0: none was built) or, where that does not
 * load, `ptx`, into *lib.  The fat binary counts as loaded once its kernel
 * `probe` is resolved for this GPU (with lazy loading, a library's code is
 * loaded when a kernel is first needed: a fat binary without code this GPU
 * or driver can run would fail later, at a graph's node).  A failure
 * leaves no error behind: the callers run without the module. */
cudaError_t pygraph_cuda_load_device_code(cudaLibrary_t *lib, const unsigned char *fatbin,
                                          unsigned long fatbin_size, const char *ptx,
                                          const char *probe);

#endif /* PYGRAPH_CUDA_DEVICE_CODE_H */
