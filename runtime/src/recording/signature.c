/* signature.c - topology comparison and parameter-change detection. */
#include "recording/signature.h"

#include <string.h>

static int same_dim3(dim3 a, dim3 b)
{
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

/* The same library function with the same arguments (their bytes, the
 * hash only as a quick no). */
static int same_library_call(const struct pygraph_op_list *la, const struct pygraph_op *a,
                             const struct pygraph_op_list *lb, const struct pygraph_op *b)
{
  return a->library == b->library && a->library_size == b->library_size &&
         a->library_hash == b->library_hash &&
         memcmp(pygraph_op_args(la, a), pygraph_op_args(lb, b), a->library_size) == 0;
}

static int same_op_signature(const struct pygraph_op_list *la, const struct pygraph_op *a,
                             const struct pygraph_op_list *lb, const struct pygraph_op *b)
{
  if (a->kind != b->kind || a->stream != b->stream)
    return 0;
  switch (a->kind) {
  case PYGRAPH_OP_KERNEL:
    return a->func == b->func && a->driver == b->driver && same_dim3(a->grid, b->grid) &&
           same_dim3(a->block, b->block) && a->shmem == b->shmem &&
           a->n_attrs == b->n_attrs && a->attrs_hash == b->attrs_hash;
  case PYGRAPH_OP_MEMSET:
    return a->count == b->count;
  case PYGRAPH_OP_MEMCPY:
    return a->count == b->count && a->memcpy_kind == b->memcpy_kind;
  case PYGRAPH_OP_HOST_BYTES:
    return a->count == b->count;             /* the copy kernel's class and work */
  case PYGRAPH_OP_LIBRARY:
    return same_library_call(la, a, lb, b);  /* a graph captured from these arguments */
  case PYGRAPH_OP_EVENT_RECORD:
    return a->wait_link == b->wait_link;     /* the earlier record it follows */
  case PYGRAPH_OP_EVENT_WAIT:
    /* Internal waits are edges, external ones are wait nodes. */
    return a->wait_link == b->wait_link && a->wait_flags == b->wait_flags;
  }
  return 0;
}

static unsigned long long mix(unsigned long long h, unsigned long long v)
{
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0x100000001b3ull;
}

unsigned long long pygraph_signature_hash(const struct pygraph_op_list *list)
{
  unsigned long long h = mix(0xcbf29ce484222325ull, list->n_ops);
  for (size_t i = 0; i < list->n_ops; i++) {
    const struct pygraph_op *op = &list->ops[i];
    h = mix(h, (unsigned long long)op->kind);
    h = mix(h, (unsigned long long)(unsigned long)op->stream);
    switch (op->kind) {
    case PYGRAPH_OP_KERNEL:
      h = mix(h, (unsigned long long)(unsigned long)op->func ^ (unsigned long long)op->driver);
      h = mix(h, ((unsigned long long)op->grid.x << 32) ^ ((unsigned long long)op->grid.y << 16) ^
                     op->grid.z);
      h = mix(h, ((unsigned long long)op->block.x << 32) ^
                     ((unsigned long long)op->block.y << 16) ^ op->block.z);
      h = mix(h, op->shmem);
      h = mix(h, op->attrs_hash ^ op->n_attrs);
      break;
    case PYGRAPH_OP_MEMSET:
      h = mix(h, op->count);
      break;
    case PYGRAPH_OP_MEMCPY:
      h = mix(h, op->count);
      h = mix(h, (unsigned long long)op->memcpy_kind);
      break;
    case PYGRAPH_OP_HOST_BYTES:
      h = mix(h, op->count);
      break;
    case PYGRAPH_OP_LIBRARY:
      h = mix(h, (unsigned long long)(unsigned long)op->library);
      h = mix(h, op->library_hash ^ op->library_size);
      break;
    case PYGRAPH_OP_EVENT_RECORD:
      h = mix(h, (unsigned long long)op->wait_link);
      break;
    case PYGRAPH_OP_EVENT_WAIT:
      h = mix(h, (unsigned long long)op->wait_link);
      h = mix(h, op->wait_flags);
      break;
    }
  }
  return h;
}

int pygraph_same_signature(const struct pygraph_op_list *a, const struct pygraph_op_list *b)
{
  if (a->n_ops != b->n_ops)
    return 0;
  for (size_t i = 0; i < a->n_ops; i++)
    if (!same_op_signature(a, &a->ops[i], b, &b->ops[i]))
      return 0;
  return 1;
}

int pygraph_op_params_differ(const struct pygraph_op_list *a, const struct pygraph_op *op_a,
                             const struct pygraph_op_list *b, const struct pygraph_op *op_b)
{
  switch (op_a->kind) {
  case PYGRAPH_OP_KERNEL:
    /* Same func implies same layout, hence same block size. */
    return memcmp(pygraph_op_args(a, op_a), pygraph_op_args(b, op_b),
                  op_a->layout->total_size) != 0;
  case PYGRAPH_OP_MEMSET:
    return op_a->dst != op_b->dst || (unsigned char)op_a->value != (unsigned char)op_b->value;
  case PYGRAPH_OP_MEMCPY:
    return op_a->dst != op_b->dst || op_a->src != op_b->src;
  case PYGRAPH_OP_HOST_BYTES:
    /* The bytes, not where the host held them: same count, same class. */
    return op_a->dst != op_b->dst ||
           memcmp(pygraph_op_args(a, op_a), pygraph_op_args(b, op_b), op_a->count) != 0;
  case PYGRAPH_OP_LIBRARY:
    /* Its arguments are signature (op.h): equal under the same signature,
     * so a library node is never updated; ops of two signatures differ. */
    return !same_library_call(a, op_a, b, op_b);
  case PYGRAPH_OP_EVENT_RECORD:
    return op_a->event != op_b->event;
  case PYGRAPH_OP_EVENT_WAIT:
    /* An internal wait is an empty node: nothing to update. */
    return op_a->wait_link < 0 && op_a->event != op_b->event;
  }
  return 0;
}

long pygraph_count_changed_params(const struct pygraph_op_list *a, const struct pygraph_op_list *b)
{
  long n = 0;
  for (size_t i = 0; i < a->n_ops; i++)
    if (pygraph_op_params_differ(a, &a->ops[i], b, &b->ops[i]))
      n++;
  return n;
}
