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
  PYGRAPH_OP_HOST_BYTES,                 /* bytes taken from the host at the call,
                                            written to device memory (host_bytes.h) */
  PYGRAPH_OP_LIBRARY                     /* a library call (cuBLAS, NCCL): its adapter's thunk
                                            and the call's arguments (below) */
};

/* A library call's adapter (cuda/cublas_entry_points.c, cuda/nccl_calls.c):
 * what the op runs.
 * `run` makes the call from `args` (the adapter's argument struct, as the
 * op list holds it): with capture_stream NULL on the library's handle as
 * it is (eager), else into that stream, which the caller is capturing (the
 * handle set to it for the call and restored after).  It returns the
 * library's status, 0 for success.  One per library function: the pointer
 * is the function's identity in signatures. */
struct pygraph_library_fn {
  const char *name;                      /* "cublasSgemm_v2" */
  int (*run)(const void *args, cudaStream_t capture_stream);
  const char *(*status_name)(int status);   /* "CUBLAS_STATUS_INVALID_VALUE" */
  /* 1 for a collective (NCCL): whether its launch is graph-captured must be
   * the same on every process taking part (segment.h,
   * pygraph_segment_note_collective). */
  int collective;
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
  /* func is a CUfunction the program launched through the driver API
   * (cuLaunchKernel, cuLaunchKernelEx: abi/record.h): its layout, its eager
   * run, its node and the node's updates go through the driver.  It has no
   * indirect twin (the program loaded it itself: the plugin never saw its
   * device code), so its node is always direct; no occupancy is asked of
   * it.  Signature, like func. */
  int driver;
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

  /* PYGRAPH_OP_LIBRARY: the call's arguments, library_size bytes, are
   * copied into the list's arena at args_offset (op_list.h) and hashed
   * into library_hash.  The arguments are signature, all of them: a graph
   * captured from the library holds them as it chose to (kernels,
   * parameters, splits), so a call with other arguments is another graph,
   * never a node update.  Its stream is the handle's at the call. */
  const struct pygraph_library_fn *library;
  size_t library_size;
  unsigned long long library_hash;
  const void *library_args;              /* valid after pygraph_op_list_materialize
                                            (before: the adapter's struct) */

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
