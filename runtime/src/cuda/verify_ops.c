/* verify_ops.c - verify mode's CUDA calls (verify_ops.h). */
#include "cuda/verify_ops.h"

#include "cuda/driver_api.h"

/* Driver calls only: their failures are return values and never become
 * the runtime's last error, so asking about a value that is no pointer at
 * all (a kernel's integer argument) leaves nothing behind for the
 * program.  cuPointerGetAttributes answers "not a CUDA pointer" with
 * CUDA_SUCCESS and zeroed attributes.  The range is cuMemGetAddressRange's,
 * the mapped allocation: CU_POINTER_ATTRIBUTE_RANGE_SIZE gives a whole
 * virtual reservation, parts of which may be unmapped (copying those would
 * fault). */
int pygraph_cuda_allocation_of(const void *ptr, void **base, size_t *size)
{
  pygraph_pfn_cuPointerGetAttributes get_attributes = pygraph_driver_cuPointerGetAttributes();
  pygraph_pfn_cuMemGetAddressRange get_range = pygraph_driver_cuMemGetAddressRange();
  if (!ptr || !get_attributes || !get_range)
    return 0;
  unsigned memory_type = 0, managed = 0;
  CUpointer_attribute which[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                 CU_POINTER_ATTRIBUTE_IS_MANAGED};
  void *data[] = {&memory_type, &managed};
  if (get_attributes(2, which, data, (CUdeviceptr)(unsigned long long)ptr) != CUDA_SUCCESS)
    return 0;
  if (memory_type == CU_MEMORYTYPE_HOST && !managed)
    return -1;                         /* pinned, mapped or registered host memory */
  if (memory_type != CU_MEMORYTYPE_DEVICE && !managed)
    return 0;                          /* not CUDA's */
  CUdeviceptr range_base = 0;
  size_t range_size = 0;
  if (get_range(&range_base, &range_size, (CUdeviceptr)(unsigned long long)ptr) != CUDA_SUCCESS ||
      range_size == 0)
    return 0;
  *base = (void *)(unsigned long long)range_base;
  *size = range_size;
  return 1;
}

cudaError_t pygraph_cuda_memory_copy(void *dst, const void *src, size_t size,
                                     cudaStream_t stream)
{
  return cudaMemcpyAsync(dst, src, size, cudaMemcpyDefault, stream);
}

cudaError_t pygraph_cuda_stream_synchronize(cudaStream_t stream)
{
  return cudaStreamSynchronize(stream);
}
