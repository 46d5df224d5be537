/* host_bytes.cu - the copy kernels of host-to-device copies snapshotted at
 * the call (src/recording/host_bytes.h says what they do and why their
 * parameters hold the bytes).  One block; each kernel copies `count` bytes
 * of its parameter `src` to `dst` in the widest words both allow.  Built to
 * PTX when the runtime is built and embedded in it as
 * pygraph_host_bytes_ptx (runtime/CMakeLists.txt); the runtime loads it
 * with cudaLibraryLoadData (src/cuda/host_bytes.c). */
#include "recording/host_bytes.h"

template <unsigned B> struct pygraph_bytes {
  alignas(16) unsigned char b[B];
};

/* Words of type W (its size divides both dst's address and count): the
 * parameter's bytes are read where they are (the parameter space), 16-byte
 * aligned. */
template <typename W, unsigned B>
static __device__ void copy_words(unsigned char *dst, unsigned count, const pygraph_bytes<B> &src)
{
  W *to = reinterpret_cast<W *>(dst);
  const W *from = reinterpret_cast<const W *>(src.b);
  for (unsigned i = threadIdx.x; i < count / sizeof(W); i += blockDim.x)
    to[i] = from[i];
}

template <unsigned B>
static __device__ void copy_bytes(unsigned char *dst, unsigned count, const pygraph_bytes<B> &src)
{
  unsigned long long both = reinterpret_cast<unsigned long long>(dst) | count;
  if ((both & 15) == 0)
    copy_words<uint4>(dst, count, src);
  else if ((both & 3) == 0)
    copy_words<unsigned>(dst, count, src);
  else
    copy_words<unsigned char>(dst, count, src);
}

#define PYGRAPH_HOST_BYTES_KERNEL(B)                                                            \
  extern "C" __global__ void pygraph_host_bytes_##B(unsigned char *dst, unsigned count,         \
                                                    pygraph_bytes<B> src)                       \
  {                                                                                             \
    copy_bytes(dst, count, src);                                                                \
  }
PYGRAPH_HOST_BYTES_CLASS_LIST(PYGRAPH_HOST_BYTES_KERNEL)
