/* fake_memory.c - the fake backend's device memory (fake_memory.h). */
#include "fake_memory.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake_backend.h"

int fake_graph_replaying;

struct region_of_memory {
  unsigned char *base;
  size_t size;
  int host;                             /* pinned host memory (kernels reach it too) */
};

static struct region_of_memory *regions;
static size_t n_regions, cap_regions;
int fake_copy_calls, fake_sync_calls, fake_allocation_queries;

static void add_region(void *base, size_t size, int host)
{
  if (n_regions == cap_regions) {
    cap_regions = cap_regions ? 2 * cap_regions : 16;
    regions = realloc(regions, cap_regions * sizeof *regions);
    if (!regions)
      abort();
  }
  regions[n_regions++] = (struct region_of_memory){base, size, host};
}

void fake_memory_register(void *base, size_t size)
{
  add_region(base, size, 0);
}

void fake_memory_forget(void *base)
{
  for (size_t i = 0; i < n_regions; i++)
    if (regions[i].base == base) {
      regions[i] = regions[--n_regions];
      return;
    }
}

static void *new_buffer(size_t size, int host)
{
  void *p = calloc(1, size);
  if (!p)
    abort();
  add_region(p, size, host);
  return p;
}

void *fake_buffer(size_t size)
{
  return new_buffer(size, 0);
}

void *fake_host_buffer(size_t size)
{
  return new_buffer(size, 1);
}

/* The registered region holding [p, p + n), or NULL. */
static const struct region_of_memory *find(const void *p, size_t n)
{
  uintptr_t a = (uintptr_t)p;
  for (size_t i = 0; i < n_regions; i++) {
    uintptr_t b = (uintptr_t)regions[i].base;
    if (a >= b && a - b < regions[i].size && n <= regions[i].size - (a - b))
      return &regions[i];
  }
  return NULL;
}

int fake_memory_kind(const void *ptr)
{
  const struct region_of_memory *r = find(ptr, 1);
  return !r ? 0 : r->host ? -1 : 1;
}

int fake_allocation_of(const void *ptr, void **base, size_t *size)
{
  fake_allocation_queries++;
  const struct region_of_memory *r = find(ptr, 1);
  if (!r)
    return 0;
  if (r->host)
    return -1;
  *base = r->base;
  *size = r->size;
  return 1;
}

struct fake_node fake_node_of(const struct pygraph_op *op)
{
  struct fake_node n = {.kind = op->kind, .dst = op->dst, .src = op->src,
                        .value = op->value, .count = op->count};
  if (op->kind == PYGRAPH_OP_KERNEL && op->layout && op->layout->n_params == 2 && op->arg_ptrs) {
    n.has_args = 1;
    memcpy(&n.arg0, op->arg_ptrs[0], sizeof n.arg0);
    memcpy(&n.arg1, op->arg_ptrs[1], sizeof n.arg1);
  }
  if (op->kind == PYGRAPH_OP_HOST_BYTES) {
    n.bytes = malloc(op->count ? op->count : 1);
    if (!n.bytes)
      abort();
    memcpy(n.bytes, op->src, op->count);
    n.src = n.bytes;
  }
  if (op->kind == PYGRAPH_OP_LIBRARY) {
    n.bytes = malloc(op->library_size ? op->library_size : 1);
    if (!n.bytes)
      abort();
    memcpy(n.bytes, op->library_args, op->library_size);
    n.library = op->library;
  }
  return n;
}

void fake_node_release(struct fake_node *node)
{
  free(node->bytes);
  node->bytes = NULL;
}

void fake_memory_apply(const struct fake_node *node)
{
  switch (node->kind) {
  case PYGRAPH_OP_KERNEL:
    if (node->has_args && find((const void *)(uintptr_t)node->arg1, sizeof(int))) {
      int *p = (int *)(uintptr_t)node->arg1;
      *p += node->arg0;
    }
    break;
  case PYGRAPH_OP_MEMSET:
    if (find(node->dst, node->count))
      memset(node->dst, node->value, node->count);
    break;
  case PYGRAPH_OP_MEMCPY:
    if (find(node->dst, node->count) && find(node->src, node->count))
      memmove(node->dst, node->src, node->count);
    break;
  case PYGRAPH_OP_HOST_BYTES:
    if (find(node->dst, node->count))
      memcpy(node->dst, node->bytes, node->count);
    break;
  case PYGRAPH_OP_LIBRARY:
    fake_graph_replaying = 1;
    (void)node->library->run(node->bytes, NULL);   /* the call, as the graph makes it */
    fake_graph_replaying = 0;
    break;
  default:
    break;
  }
}

cudaError_t fake_memory_copy(void *dst, const void *src, size_t size, cudaStream_t stream)
{
  (void)stream;
  if (++fake_copy_calls == fake.fail_copy_at) {
    fake_log_append("cp! ");
    return cudaErrorInvalidValue;
  }
  fake_log_append("cp ");
  memmove(dst, src, size);
  return cudaSuccess;
}

cudaError_t fake_stream_synchronize(cudaStream_t stream)
{
  (void)stream;
  if (++fake_sync_calls == fake.fail_sync_at) {
    fake_log_append("sync! ");
    return cudaErrorLaunchFailure;
  }
  fake_log_append("sync ");
  return cudaSuccess;
}

void fake_memory_reset_counts(void)
{
  fake_copy_calls = fake_sync_calls = fake_allocation_queries = 0;
}
