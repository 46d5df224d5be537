/* op_list.h - the ops of one region iteration, with by-value copies of the
 * kernel arguments.  Buffers are kept across iterations (reset, not freed),
 * so steady-state recording does not allocate. */
#ifndef PYGRAPH_OP_LIST_H
#define PYGRAPH_OP_LIST_H

#include "recording/op.h"

struct pygraph_op_list {
  struct pygraph_op *ops;
  size_t n_ops, cap_ops;
  unsigned char *arg_bytes;              /* kernel argument blocks */
  size_t n_arg_bytes, cap_arg_bytes;
  void **arg_ptrs;                       /* per-parameter pointers into arg_bytes */
  size_t n_arg_ptrs, cap_arg_ptrs;       /* reserved at copy time, filled later */
  size_t n_kernels;
  size_t n_library;                      /* PYGRAPH_OP_LIBRARY ops */
};

void pygraph_op_list_reset(struct pygraph_op_list *list);
void pygraph_op_list_free(struct pygraph_op_list *list);

/* Appends a copy of *op; returns its slot or NULL when out of memory. */
struct pygraph_op *pygraph_op_list_append(struct pygraph_op_list *list,
                                          const struct pygraph_op *op);

/* Copies a kernel's arguments (args[i] points to parameter i) into the
 * arena and sets op->args_offset.  Returns 0, or -1 when out of memory. */
int pygraph_op_list_copy_args(struct pygraph_op_list *list, struct pygraph_op *op,
                              void **args);

/* Copies op->attrs (op->n_attrs of them) into the arena and sets
 * op->attrs_offset.  Returns 0, or -1 when out of memory. */
int pygraph_op_list_copy_attrs(struct pygraph_op_list *list, struct pygraph_op *op);

/* Copies the `count` bytes at op->src (a PYGRAPH_OP_HOST_BYTES op's host
 * memory, count <= PYGRAPH_HOST_BYTES_MAX) into the arena, zero-padded to
 * the copy kernel's class (host_bytes.h), and sets op->args_offset.
 * Returns 0, or -1 when out of memory. */
int pygraph_op_list_copy_bytes(struct pygraph_op_list *list, struct pygraph_op *op);

/* Copies a PYGRAPH_OP_LIBRARY op's arguments (op->library_size bytes at
 * op->library_args) into the arena, sets op->args_offset and hashes them
 * into op->library_hash.  Returns 0, or -1 when out of memory. */
int pygraph_op_list_copy_library(struct pygraph_op_list *list, struct pygraph_op *op);

/* The argument block of a kernel op (layout->total_size bytes), the bytes
 * of a PYGRAPH_OP_HOST_BYTES op, or a PYGRAPH_OP_LIBRARY op's arguments. */
const unsigned char *pygraph_op_args(const struct pygraph_op_list *list,
                                     const struct pygraph_op *op);

/* Fills op->arg_ptrs (and op->attrs) of every kernel op, points op->src
 * of every PYGRAPH_OP_HOST_BYTES op at its bytes and op->library_args of
 * every PYGRAPH_OP_LIBRARY op at its arguments.  Must run after the last append
 * and before ops are executed, because the arena may move while growing.
 * Cannot fail: copy_args reserved the room. */
void pygraph_op_list_materialize(struct pygraph_op_list *list);

#endif /* PYGRAPH_OP_LIST_H */
