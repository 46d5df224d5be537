/* loop_observe.c - an observed operation of a whole loop against its
 * descriptor and a reference iteration (loop_observe.h). */
#include "recording/loop_observe.h"

#include <string.h>

#include "recording/exit_eval.h"
#include "recording/whole_loop.h"

static int kernel_param(const struct pygraph_op_list *ops, const struct pygraph_op *op,
                        unsigned j, uint64_t *bits)
{
  if (!op->layout || j >= op->layout->n_params)
    return 0;
  size_t size = op->layout->params[j].size;
  if (size == 0 || size > 8)
    return 0;
  const unsigned char *at = pygraph_op_args(ops, op) + op->layout->params[j].offset;
  *bits = 0;
  for (size_t b = 0; b < size; b++)
    *bits |= (uint64_t)at[b] << (8 * b);
  return 1;
}

int pygraph_loop_operand(const struct pygraph_op_list *ops, const struct pygraph_op *op,
                         unsigned operand, uint64_t *bits)
{
  if (op->kind == PYGRAPH_OP_KERNEL)
    return kernel_param(ops, op, operand, bits);
  if (op->kind != PYGRAPH_OP_MEMCPY && op->kind != PYGRAPH_OP_MEMSET)
    return 0;
  int copy = op->kind == PYGRAPH_OP_MEMCPY;
  uintptr_t stream = (uintptr_t)op->stream;
  switch (operand) {
  case 0: *bits = (uintptr_t)op->dst; return 1;
  case 1: *bits = copy ? (uintptr_t)op->src : (uint32_t)op->value; return 1;
  case 2: *bits = op->count; return 1;
  case 3: *bits = copy ? (uint64_t)op->memcpy_kind : stream; return 1;
  case 4: *bits = stream; return copy;
  default: return 0;
  }
}

static enum pygraph_loop_difference differ(struct pygraph_loop_mismatch *m,
                                           enum pygraph_loop_difference kind, const char *what,
                                           size_t op, unsigned operand)
{
  *m = (struct pygraph_loop_mismatch){kind, what, (unsigned)op, operand, 0, 0};
  return kind;
}

/* Every evolving operand of op `index` against its value in `iteration`. */
static enum pygraph_loop_difference check_pattern(const pygraph_whole_loop *wl,
                                                  const uint64_t *inv,
                                                  const struct pygraph_op_list *ops,
                                                  size_t index, uint64_t iteration,
                                                  struct pygraph_loop_mismatch *m)
{
  const struct pygraph_op *op = &ops->ops[index];
  for (unsigned k = 0; k < wl->n_values; k++) {
    const pygraph_loop_value *v = &wl->values[k];
    if (v->op != index || v->evolution == PYGRAPH_EVOLVE_INVARIANT)
      continue;
    uint64_t expected, seen;
    if (!pygraph_loop_value_at(wl, k, iteration, inv, &expected) ||
        !pygraph_loop_operand(ops, op, v->operand, &seen))
      return differ(m, PYGRAPH_LOOP_PATTERN, "an evolving operand the operation does not have",
                    index, v->operand);
    seen = pygraph_eval_mask(seen, v->type);
    if (seen != expected) {
      differ(m, PYGRAPH_LOOP_PATTERN, "an operand off its evolution", index, v->operand);
      m->expected = expected;
      m->seen = seen;
      return PYGRAPH_LOOP_PATTERN;
    }
  }
  return PYGRAPH_LOOP_SAME;
}

static int same_dim(dim3 a, dim3 b)
{
  return a.x == b.x && a.y == b.y && a.z == b.z;
}

/* Kind, stream and launch configuration (the operation itself). */
static int same_shape(const struct pygraph_op *a, const struct pygraph_op *b)
{
  if (a->kind != b->kind || a->stream != b->stream)
    return 0;
  if (a->kind == PYGRAPH_OP_KERNEL)
    return a->func == b->func && a->layout == b->layout && same_dim(a->grid, b->grid) &&
           same_dim(a->block, b->block) && a->shmem == b->shmem;
  if (a->kind == PYGRAPH_OP_EVENT_RECORD || a->kind == PYGRAPH_OP_EVENT_WAIT)
    return a->event == b->event && a->wait_flags == b->wait_flags &&
           a->wait_link == b->wait_link;
  if (a->kind == PYGRAPH_OP_LIBRARY)
    return a->library == b->library && a->library_size == b->library_size;
  return 1;
}

/* The operands that do not evolve, byte for byte (kernels) or field by
 * field: the first that differs, or -1. */
static long changed_operand(const pygraph_whole_loop *wl, const struct pygraph_op_list *ops,
                            const struct pygraph_op_list *ref, size_t index)
{
  const struct pygraph_op *a = &ops->ops[index], *b = &ref->ops[index];
  if (a->kind == PYGRAPH_OP_KERNEL && pygraph_whole_loop_op_evolves(wl, index))
    return -1;   /* an indirect node: its operands are each execution's own (header) */
  if (a->kind == PYGRAPH_OP_KERNEL) {
    const unsigned char *pa = pygraph_op_args(ops, a), *pb = pygraph_op_args(ref, b);
    for (unsigned j = 0; j < a->layout->n_params; j++) {
      size_t off = a->layout->params[j].offset, size = a->layout->params[j].size;
      if (pygraph_whole_loop_evolving_operand(wl, index, j) < 0 &&
          memcmp(pa + off, pb + off, size) != 0)
        return j;
    }
    return -1;
  }
  if (a->kind == PYGRAPH_OP_LIBRARY)    /* every argument, as the adapter made them: a
                                           graph holds the call as it was captured */
    return memcmp(pygraph_op_args(ops, a), pygraph_op_args(ref, b), a->library_size) ? 0 : -1;
  /* the status copy's destination is this execution's (its caller checks
   * it): a graph never writes there */
  for (unsigned j = index == wl->status_op ? 1 : 0; j < 4; j++) {
    uint64_t x, y;
    int has = pygraph_loop_operand(ops, a, j, &x);
    if (has && pygraph_whole_loop_evolving_operand(wl, index, j) < 0 &&
        pygraph_loop_operand(ref, b, j, &y) &&
        x != y)
      return j;
  }
  return -1;
}

enum pygraph_loop_difference pygraph_loop_check_op(const pygraph_whole_loop *wl,
                                                   const uint64_t *inv,
                                                   const struct pygraph_op_list *ops,
                                                   size_t index, uint64_t iteration,
                                                   const struct pygraph_op_list *ref,
                                                   struct pygraph_loop_mismatch *m)
{
  if (index >= ops->n_ops)
    return differ(m, PYGRAPH_LOOP_PATTERN, "no such operation", index, PYGRAPH_WL_NONE);
  enum pygraph_loop_difference d = check_pattern(wl, inv, ops, index, iteration, m);
  if (d != PYGRAPH_LOOP_SAME || !ref)
    return d;
  if (index >= ref->n_ops)
    return differ(m, PYGRAPH_LOOP_CHANGED, "an operation the reference iteration does not have",
                  index, PYGRAPH_WL_NONE);
  if (!same_shape(&ops->ops[index], &ref->ops[index]))
    return differ(m, PYGRAPH_LOOP_CHANGED,
                  "another operation, function, launch configuration or stream", index,
                  PYGRAPH_WL_NONE);
  long j = changed_operand(wl, ops, ref, index);
  if (j >= 0)
    return differ(m, PYGRAPH_LOOP_CHANGED, "an invariant operand changed", index, (unsigned)j);
  return PYGRAPH_LOOP_SAME;
}
