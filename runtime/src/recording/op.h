/* op.h - one deferred CUDA stream operation, as recorded inside a region.
 *
 * Only CUDA *types* are used here: the pure logic (state machine, signature
 * matching) must build and be unit-tested without calling CUDA. */
#ifndef PYGRAPH_OP_H
#define PYGRAPH_OP_H

#include <stddef.h>
#include <cuda_runtime_api.h>

struct pygraph_site;                     /* pygraph_rt.h */

enum pygraph_op_kind {
  PYGRAPH_OP_KERNEL,
  PYGRAPH_OP_MEMSET,
  PYGRAPH_OP_MEMCPY,
  PYGRAPH_OP_EVENT_RECORD,
  PYGRAPH_OP_EVENT_WAIT,
  PYGRAPH_OP_HOST_BYTES                  /* bytes taken from the host at the call,
                                            written to device memory (host_bytes.h) */
};

/* Where each kernel parameter lives in the kernel's parameter buffer.
 * Obtained once per kernel from the backend, cached for the process. */
struct pygraph_param_layout {
  size_t n_params;
  size_t total_size;                     /* max(offset + size) */
  struct { size_t offset, size; } params[];
};

struct pygraph_op {
  enum pygraph_op_kind kind;
  cudaStream_t stream;                   /* normalised: never 0 */

  /* PYGRAPH_OP_KERNEL */
  const void *func;
  const struct pygraph_site *site;       /* the launch site, NULL if unknown; its
                                            indirect_twin is not signature */
  const struct pygraph_param_layout *layout;
  dim3 grid, block;
  size_t shmem;
  size_t args_offset;                    /* argument block in the list's arena (also
                                            a PYGRAPH_OP_HOST_BYTES op's bytes) */
  void **arg_ptrs;                       /* valid after pygraph_op_list_materialize */
  /* Launch attributes of a cudaLaunchKernelExC a kernel node holds too
   * (abi/record.c says which): n_attrs of them, copied into the list's
   * arena at attrs_offset; attrs_hash stands for them in signatures. */
  unsigned n_attrs;
  size_t attrs_offset;
  unsigned long long attrs_hash;
  const cudaLaunchAttribute *attrs;      /* valid after pygraph_op_list_materialize
                                            (before: the caller's array, or NULL) */

  /* PYGRAPH_OP_MEMSET / PYGRAPH_OP_MEMCPY / PYGRAPH_OP_HOST_BYTES (dst, src,
   * count).  A HOST_BYTES op's src is the caller's host memory, read only
   * while the call lasts; in an op list it is the list's copy of those
   * bytes once materialized (op_list.h), padded with zeroes to the copy
   * kernel's class; neither is signature nor parameter, the bytes are. */
  void *dst;
  const void *src;
  int value;
  size_t count;
  enum cudaMemcpyKind memcpy_kind;

  /* PYGRAPH_OP_EVENT_RECORD / PYGRAPH_OP_EVENT_WAIT */
  cudaEvent_t event;
  unsigned wait_flags;
  long wait_link;                        /* a wait: index of the record op it
                                            joins, -1 = event recorded before
                                            the iteration (external wait); a
                                            record: index of the previous
                                            record of its event, -1 = none */
};

#endif /* PYGRAPH_OP_H */
