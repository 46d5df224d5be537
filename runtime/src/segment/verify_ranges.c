/* verify_ranges.c - the memory and streams of a verification
 * (verify_ranges.h). */
#include "segment/verify_ranges.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/grow.h"

static int add_range(struct pygraph_verify *vf, void *base, size_t size, size_t op, size_t arg)
{
  if (pygraph_grow((void **)&vf->ranges, &vf->cap_ranges, vf->n_ranges + 1, sizeof *vf->ranges))
    return -1;
  vf->ranges[vf->n_ranges++] =
      (struct pygraph_verify_range){.base = base, .size = size, .op = op, .arg = arg};
  return 0;
}

/* A value given to op `op` as (part of) argument `arg`: its allocation,
 * when it points into one; host memory CUDA knows is noted. */
static int note_value(struct pygraph_verify *vf, const void *value, size_t op, size_t arg)
{
  void *base;
  size_t size;
  int found = value ? vf->backend->allocation_of(value, &base, &size) : 0;
  if (found < 0 && !vf->host_memory) {
    vf->host_memory = 1;
    vf->host_op = op;
    vf->host_arg = arg;
  }
  return found > 0 ? add_range(vf, base, size, op, arg) : 0;
}

/* Every pointer-aligned word of each parameter: a pointer argument is one
 * word; a by-value struct holding pointers holds them aligned. */
static int note_kernel(struct pygraph_verify *vf, size_t i)
{
  const struct pygraph_op *op = &vf->ops->ops[i];
  const unsigned char *block = pygraph_op_args(vf->ops, op);
  const size_t word = sizeof(void *);
  for (size_t p = 0; p < op->layout->n_params; p++) {
    size_t offset = op->layout->params[p].offset, size = op->layout->params[p].size;
    for (size_t k = (word - offset % word) % word; k + word <= size; k += word) {
      uintptr_t value;
      memcpy(&value, block + offset + k, word);
      if (note_value(vf, (const void *)value, i, p))
        return -1;
    }
  }
  return 0;
}

/* A memset's or memcpy's destination: its allocation, else its bytes
 * (host memory CUDA knows is noted instead). */
static int note_destination(struct pygraph_verify *vf, size_t i)
{
  const struct pygraph_op *op = &vf->ops->ops[i];
  size_t before = vf->n_ranges;
  int host_before = vf->host_memory;
  if (note_value(vf, op->dst, i, 0))
    return -1;
  if (vf->n_ranges > before || vf->host_memory != host_before)
    return 0;
  return add_range(vf, op->dst, op->count, i, 0);
}

static int note_stream(struct pygraph_verify *vf, cudaStream_t stream)
{
  for (size_t s = 0; s < vf->n_streams; s++)
    if (vf->streams[s] == stream)
      return 0;
  if (pygraph_grow((void **)&vf->streams, &vf->cap_streams, vf->n_streams + 1,
                   sizeof *vf->streams))
    return -1;
  vf->streams[vf->n_streams++] = stream;
  if (stream == cudaStreamLegacy)
    vf->copy_stream = stream;
  return 0;
}

static int by_base(const void *a, const void *b)
{
  uintptr_t x = (uintptr_t)((const struct pygraph_verify_range *)a)->base;
  uintptr_t y = (uintptr_t)((const struct pygraph_verify_range *)b)->base;
  return (x > y) - (x < y);
}

static int first_use_before(const struct pygraph_verify_range *x,
                            const struct pygraph_verify_range *y)
{
  return x->op < y->op || (x->op == y->op && x->arg < y->arg);
}

static int by_first_use(const void *a, const void *b)
{
  const struct pygraph_verify_range *x = a, *y = b;
  return first_use_before(x, y) ? -1 : first_use_before(y, x);
}

/* Overlapping ranges (an allocation given twice, a destination inside
 * one) become one, named by its first use; then each gets its place. */
static void merge(struct pygraph_verify *vf)
{
  struct pygraph_verify_range *r = vf->ranges;
  size_t n = 0;
  qsort(r, vf->n_ranges, sizeof *r, by_base);
  for (size_t i = 0; i < vf->n_ranges; i++) {
    uintptr_t last_end = (uintptr_t)r[n ? n - 1 : 0].base + r[n ? n - 1 : 0].size;
    if (n && (uintptr_t)r[i].base < last_end) {
      uintptr_t end = (uintptr_t)r[i].base + r[i].size;
      if (end > last_end)
        r[n - 1].size = (size_t)(end - (uintptr_t)r[n - 1].base);
      if (first_use_before(&r[i], &r[n - 1])) {
        r[n - 1].op = r[i].op;
        r[n - 1].arg = r[i].arg;
      }
      continue;
    }
    r[n++] = r[i];
  }
  vf->n_ranges = n;
  qsort(r, n, sizeof *r, by_first_use);
  vf->total = 0;
  for (size_t i = 0; i < n; i++) {
    r[i].at = vf->total;
    vf->total += r[i].size;
  }
}

int pygraph_verify_collect(struct pygraph_verify *vf)
{
  const struct pygraph_op_list *ops = vf->ops;
  vf->n_ranges = vf->n_streams = 0;
  vf->host_memory = 0;
  vf->library_op = ops->n_ops;
  vf->copy_stream = ops->n_ops ? ops->ops[0].stream : NULL;
  for (size_t i = 0; i < ops->n_ops; i++) {
    const struct pygraph_op *op = &ops->ops[i];
    if (op->kind == PYGRAPH_OP_LIBRARY && vf->library_op == ops->n_ops)
      vf->library_op = i;
    int failed = note_stream(vf, op->stream);
    if (op->kind == PYGRAPH_OP_KERNEL)
      failed = failed || note_kernel(vf, i);
    else if (op->kind == PYGRAPH_OP_MEMSET || op->kind == PYGRAPH_OP_MEMCPY ||
             op->kind == PYGRAPH_OP_HOST_BYTES)
      failed = failed || note_destination(vf, i);
    if (failed)
      return -1;
  }
  merge(vf);
  return 0;
}

const char *pygraph_verify_op_name(const struct pygraph_verify *vf, size_t i, char *buf,
                                   size_t cap)
{
  const struct pygraph_op *op = &vf->ops->ops[i];
  if (op->kind == PYGRAPH_OP_MEMSET)
    return "cudaMemsetAsync";
  if (op->kind == PYGRAPH_OP_MEMCPY)
    return "cudaMemcpyAsync";
  if (op->kind == PYGRAPH_OP_HOST_BYTES)
    return "cudaMemcpy (host-to-device)";
  if (op->kind == PYGRAPH_OP_LIBRARY)
    return op->library->name;
  if (op->site && op->site->kernel)
    return op->site->kernel;
  snprintf(buf, cap, "kernel@%p", op->func);
  return buf;
}
