/* host_bytes.h - bytes a synchronous host-to-device copy (cudaMemcpy,
 * cudaMemcpyToSymbol) read from the host at its call, delivered to device
 * memory by a copy kernel whose parameters are those bytes
 * (PYGRAPH_OP_HOST_BYTES, recording/op.h).
 *
 * A kernel's parameters are copied when it is launched or when its graph
 * node's parameters are set, so the host may overwrite its buffer at once
 * (the call's contract) and a graph replay refreshes the bytes with one
 * kernel-node parameter update.  The kernels come in a few parameter sizes
 * (classes) so that a small copy launches and updates few bytes; the op
 * list keeps each op's bytes padded with zeroes to its class (op_list.h),
 * which is what the kernel's parameter reads.
 *
 * The kernels are runtime/device/host_bytes.cu, compiled to PTX when the
 * runtime is built and embedded as pygraph_host_bytes_ptx; this header is
 * read by that CUDA C++ too (the class list below instantiates them).
 * Each is
 *   pygraph_host_bytes_<bytes>(unsigned char *dst, unsigned count,
 *                              struct { align 16 unsigned char b[bytes]; } src)
 * and copies count (<= bytes) bytes from src to dst. */
#ifndef PYGRAPH_HOST_BYTES_H
#define PYGRAPH_HOST_BYTES_H

#include <stddef.h>

#include "pygraph_abi.h"

/* X(bytes) for each class, smallest first; the last holds
 * PYGRAPH_HOST_BYTES_MAX (pygraph_abi.h: the most bytes one copy may
 * deliver so). */
#define PYGRAPH_HOST_BYTES_CLASS_LIST(X) X(256) X(1024) X(4096)
#define PYGRAPH_HOST_BYTES_CLASSES 3u
#define PYGRAPH_HOST_BYTES_THREADS 256u

#ifdef __cplusplus
extern "C" {
#endif

extern const char pygraph_host_bytes_ptx[];
/* The same module as a fat binary (size 0: none was built, load the PTX). */
extern const unsigned char pygraph_host_bytes_ptx_fatbin[];
extern const unsigned long pygraph_host_bytes_ptx_fatbin_size;

/* Parameter bytes of class c (0 past the last), and its kernel's name. */
size_t pygraph_host_bytes_class_bytes(unsigned c);
const char *pygraph_host_bytes_class_name(unsigned c);

/* The smallest class holding `count` bytes (count <= PYGRAPH_HOST_BYTES_MAX). */
unsigned pygraph_host_bytes_class_of(size_t count);

#ifdef __cplusplus
}
#endif

#endif /* PYGRAPH_HOST_BYTES_H */
