/* op_list.c - growable, reusable storage for one iteration's ops. */
#include "common/grow.h"
#include "recording/host_bytes.h"
#include "recording/op_list.h"

#include <stdlib.h>
#include <string.h>

/* Argument blocks start on this boundary so that parameters keep the
 * alignment their offsets in the kernel's parameter buffer assume. */
#define ARG_BLOCK_ALIGN 16u

void pygraph_op_list_reset(struct pygraph_op_list *list)
{
  list->n_ops = 0;
  list->n_arg_bytes = 0;
  list->n_arg_ptrs = 0;
  list->n_kernels = 0;
  list->n_library = 0;
}

void pygraph_op_list_free(struct pygraph_op_list *list)
{
  free(list->ops);
  free(list->arg_bytes);
  free(list->arg_ptrs);
  memset(list, 0, sizeof *list);
}

struct pygraph_op *pygraph_op_list_append(struct pygraph_op_list *list,
                                          const struct pygraph_op *op)
{
  if (pygraph_grow((void **)&list->ops, &list->cap_ops, list->n_ops + 1, sizeof *op))
    return NULL;
  struct pygraph_op *slot = &list->ops[list->n_ops++];
  *slot = *op;
  slot->arg_ptrs = NULL;
  slot->library_args = NULL;             /* the caller's struct: set by materialize */
  if (op->kind == PYGRAPH_OP_KERNEL)
    list->n_kernels++;
  if (op->kind == PYGRAPH_OP_LIBRARY)
    list->n_library++;
  return slot;
}

/* Room for `size` more bytes at the next block boundary: its offset, or
 * (size_t)-1 when out of memory. */
static size_t reserve_block(struct pygraph_op_list *list, size_t size)
{
  size_t start = (list->n_arg_bytes + ARG_BLOCK_ALIGN - 1) & ~(size_t)(ARG_BLOCK_ALIGN - 1);
  if (pygraph_grow((void **)&list->arg_bytes, &list->cap_arg_bytes, start + size, 1))
    return (size_t)-1;
  return start;
}

int pygraph_op_list_copy_bytes(struct pygraph_op_list *list, struct pygraph_op *op)
{
  size_t padded = pygraph_host_bytes_class_bytes(pygraph_host_bytes_class_of(op->count));
  size_t start = reserve_block(list, padded);
  if (start == (size_t)-1)
    return -1;
  unsigned char *block = list->arg_bytes + start;
  memcpy(block, op->src, op->count);
  memset(block + op->count, 0, padded - op->count);
  op->args_offset = start;
  list->n_arg_bytes = start + padded;
  return 0;
}

/* FNV-1a: the arguments' stand-in in signature hashes (signature.c
 * compares the bytes themselves to confirm a match). */
static unsigned long long bytes_hash(const unsigned char *b, size_t n)
{
  unsigned long long h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < n; i++)
    h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}

int pygraph_op_list_copy_library(struct pygraph_op_list *list, struct pygraph_op *op)
{
  size_t start = reserve_block(list, op->library_size);
  if (start == (size_t)-1)
    return -1;
  memcpy(list->arg_bytes + start, op->library_args, op->library_size);
  op->args_offset = start;
  op->library_hash = bytes_hash(list->arg_bytes + start, op->library_size);
  list->n_arg_bytes = start + op->library_size;
  return 0;
}

int pygraph_op_list_copy_args(struct pygraph_op_list *list, struct pygraph_op *op,
                              void **args)
{
  const struct pygraph_param_layout *layout = op->layout;
  size_t start = reserve_block(list, layout->total_size);
  if (start == (size_t)-1)
    return -1;
  /* Reserve the pointer slots now so that materializing cannot fail. */
  if (pygraph_grow((void **)&list->arg_ptrs, &list->cap_arg_ptrs,
           list->n_arg_ptrs + layout->n_params, sizeof(void *)))
    return -1;
  unsigned char *block = list->arg_bytes + start;
  /* Zero the padding so that comparing blocks compares only argument bytes. */
  memset(block, 0, layout->total_size);
  for (size_t i = 0; i < layout->n_params; i++)
    memcpy(block + layout->params[i].offset, args[i], layout->params[i].size);
  op->args_offset = start;
  list->n_arg_bytes = start + layout->total_size;
  list->n_arg_ptrs += layout->n_params;
  return 0;
}

int pygraph_op_list_copy_attrs(struct pygraph_op_list *list, struct pygraph_op *op)
{
  size_t bytes = op->n_attrs * sizeof(cudaLaunchAttribute);
  size_t start = reserve_block(list, bytes);
  if (start == (size_t)-1)
    return -1;
  memcpy(list->arg_bytes + start, op->attrs, bytes);
  op->attrs_offset = start;
  list->n_arg_bytes = start + bytes;
  return 0;
}

const unsigned char *pygraph_op_args(const struct pygraph_op_list *list,
                                     const struct pygraph_op *op)
{
  return list->arg_bytes + op->args_offset;
}

void pygraph_op_list_materialize(struct pygraph_op_list *list)
{
  size_t next = 0;
  for (size_t i = 0; i < list->n_ops; i++) {
    struct pygraph_op *op = &list->ops[i];
    if (op->kind == PYGRAPH_OP_HOST_BYTES)
      op->src = list->arg_bytes + op->args_offset;
    if (op->kind == PYGRAPH_OP_LIBRARY)
      op->library_args = list->arg_bytes + op->args_offset;
    if (op->kind != PYGRAPH_OP_KERNEL)
      continue;
    op->attrs = op->n_attrs
                    ? (const cudaLaunchAttribute *)(list->arg_bytes + op->attrs_offset)
                    : NULL;
    const struct pygraph_param_layout *layout = op->layout;
    if (layout->n_params == 0) {
      op->arg_ptrs = NULL;
      continue;
    }
    op->arg_ptrs = &list->arg_ptrs[next];
    for (size_t p = 0; p < layout->n_params; p++)
      list->arg_ptrs[next++] = list->arg_bytes + op->args_offset + layout->params[p].offset;
  }
}
