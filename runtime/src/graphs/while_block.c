/* while_block.c - the condition kernel's device block, laid out and filled
 * on the host (while_block.h). */
#include "graphs/while_block.h"

#include <stdlib.h>
#include <string.h>

#include "graphs/while_clauses.h"
#include "recording/whole_loop.h"

/* Byte offsets of the block's parts, each 8-aligned. */
struct layout {
  size_t loop, nodes, values, types, members, invariants, slots, tests, n_tests, clauses, size;
};

static size_t align8(size_t n)
{
  return (n + 7) & ~(size_t)7;
}

static struct layout layout_of(const pygraph_whole_loop *wl, size_t n_slots, int with_clauses)
{
  struct layout l;
  l.loop = align8(sizeof(struct pygraph_while_state));
  l.nodes = l.loop + align8(sizeof *wl);
  l.values = l.nodes + align8((size_t)wl->n_nodes * sizeof *wl->nodes);
  l.types = l.values + align8((size_t)wl->n_values * sizeof *wl->values);
  l.members = l.types + align8((size_t)wl->n_invariants * sizeof *wl->invariant_types);
  l.invariants = l.members + align8((size_t)wl->n_rotation_members * sizeof(unsigned));
  l.slots = l.invariants + (size_t)wl->n_invariants * sizeof(uint64_t);
  l.tests = l.slots + n_slots * sizeof(struct pygraph_while_slot);
  l.n_tests = pygraph_while_tests_of(wl, NULL);
  l.clauses = align8(l.tests + l.n_tests * sizeof(struct pygraph_while_test));
  l.size = l.clauses + (with_clauses ? align8(sizeof(struct pygraph_while_clauses)) : 0);
  return l;
}

/* The device address `offset` bytes into the block at `device`. */
static void *at(void *device, size_t offset)
{
  return (void *)((uintptr_t)device + offset);
}

/* Is slot s one the kernel may write (while_block.h)? */
static int slot_ok(const pygraph_whole_loop *wl, const struct pygraph_while_slot *s,
                   size_t args_size)
{
  if ((s->bytes != 1 && s->bytes != 2 && s->bytes != 4 && s->bytes != 8) ||
      s->offset > args_size || s->bytes > args_size - s->offset || s->value >= wl->n_values)
    return 0;
  unsigned evolution = wl->values[s->value].evolution;
  return evolution == PYGRAPH_EVOLVE_AFFINE || evolution == PYGRAPH_EVOLVE_ROTATION;
}

/* The image: the descriptor and its arrays copied, every pointer the
 * device's (`device` is the block's address there). */
static void fill(struct pygraph_while_block *b, const struct layout *l,
                 const pygraph_whole_loop *wl, const struct pygraph_while_slot *slots,
                 size_t n_slots, void *args)
{
  unsigned char *img = b->image;
  pygraph_whole_loop copy = *wl;
  copy.next = NULL;
  copy.nodes = at(b->device, l->nodes);
  copy.values = wl->n_values ? at(b->device, l->values) : NULL;
  copy.invariant_types = at(b->device, l->types);
  copy.rotation_members = wl->n_rotation_members ? at(b->device, l->members) : NULL;
  memcpy(img + l->loop, &copy, sizeof copy);
  memcpy(img + l->nodes, wl->nodes, wl->n_nodes * sizeof *wl->nodes);
  if (wl->n_values)
    memcpy(img + l->values, wl->values, wl->n_values * sizeof *wl->values);
  memcpy(img + l->types, wl->invariant_types, wl->n_invariants * sizeof *wl->invariant_types);
  if (wl->n_rotation_members)
    memcpy(img + l->members, wl->rotation_members, wl->n_rotation_members * sizeof(unsigned));
  if (n_slots)
    memcpy(img + l->slots, slots, n_slots * sizeof *slots);
  (void)pygraph_while_tests_of(wl, (struct pygraph_while_test *)(void *)(img + l->tests));
  struct pygraph_while_state st;
  memset(&st, 0, sizeof st);
  st.loop = at(b->device, l->loop);
  st.invariants = at(b->device, l->invariants);
  st.slots = n_slots ? at(b->device, l->slots) : NULL;
  st.tests = at(b->device, l->tests);
  st.n_tests = (uint32_t)l->n_tests;
  st.args = args;
  st.n_slots = (uint32_t)n_slots;
  st.block_bytes = (uint32_t)l->clauses;   /* what the generic kernels stage */
  st.exit_test = -1;
  memcpy(img, &st, sizeof st);
}

/* Why the descriptor and slots cannot make a block, or NULL. */
static const char *refusal(const pygraph_whole_loop *wl, const struct pygraph_while_slot *slots,
                           size_t n_slots, void *args, size_t args_size)
{
  if (!pygraph_whole_loop_check(wl))
    return "while block: malformed whole-loop descriptor";
  if (n_slots > UINT32_MAX || (n_slots && (!slots || !args)))
    return "while block: argument slots without an argument block";
  if (layout_of(wl, n_slots, 1).size > UINT32_MAX)
    return "while block: larger than 4 GiB";
  for (size_t k = 0; k < n_slots; k++)
    if (!slot_ok(wl, &slots[k], args_size))
      return "while block: malformed argument slot";
  return NULL;
}

cudaError_t pygraph_while_block_create(struct pygraph_while_block *b,
                                       const struct pygraph_backend *backend,
                                       const pygraph_whole_loop *wl,
                                       const struct pygraph_while_slot *slots, size_t n_slots,
                                       void *args, size_t args_size, const char **step)
{
  memset(b, 0, sizeof *b);
  if ((*step = refusal(wl, slots, n_slots, args, args_size)))
    return cudaErrorInvalidValue;
  struct pygraph_while_clauses *clauses = malloc(sizeof *clauses);
  *step = "while block host alloc";
  if (!clauses)
    return cudaErrorMemoryAllocation;
  b->clauses_refusal = pygraph_while_clauses_compile(wl, slots, n_slots, clauses);
  struct layout l = layout_of(wl, n_slots, !b->clauses_refusal);
  if (!(b->image = calloc(1, l.size))) {
    free(clauses);
    return cudaErrorMemoryAllocation;
  }
  *step = "while block device alloc";
  cudaError_t err = backend->device_alloc(&b->device, l.size);
  if (err != cudaSuccess) {
    free(clauses);
    pygraph_while_block_free(b, backend, NULL);
    return err;
  }
  b->size = l.size;
  b->n_invariants = wl->n_invariants;
  b->status_bytes = wl->status_bytes;
  b->invariants_at = l.invariants;
  b->slots_at = l.slots;
  b->clauses_at = l.clauses;
  fill(b, &l, wl, slots, n_slots, args);
  if (!b->clauses_refusal)
    memcpy(b->image + l.clauses, clauses, sizeof *clauses);
  free(clauses);
  return cudaSuccess;
}

/* Is wl->values[value] a source the kernels may read a status from? */
static int source_ok(const pygraph_whole_loop *wl, unsigned value)
{
  if (value >= wl->n_values || !pygraph_eval_value_ok(wl, &wl->values[value]))
    return 0;
  const pygraph_loop_value *v = &wl->values[value];
  return v->type == PYGRAPH_TYPE_PTR && v->evolution == PYGRAPH_EVOLVE_ROTATION;
}

/* The rotation members of source value `value` kept for the launches'
 * checks; 0 when out of memory. */
static int keep_source_members(struct pygraph_while_block *b, const pygraph_whole_loop *wl,
                               unsigned value)
{
  const pygraph_loop_value *v = &wl->values[value];
  b->source_members = malloc(v->count * sizeof *b->source_members);
  if (!b->source_members)
    return 0;
  for (unsigned k = 0; k < v->count; k++)
    b->source_members[k] = wl->rotation_members[v->base + k];
  b->n_source_members = v->count;
  return 1;
}

int pygraph_while_block_fold_status(struct pygraph_while_block *b, const pygraph_whole_loop *wl,
                                    const void *src, unsigned value)
{
  int evolves = value != PYGRAPH_WL_NONE;
  if (evolves && (!source_ok(wl, value) || !keep_source_members(b, wl, value)))
    return 0;
  struct pygraph_while_state st;
  memcpy(&st, b->image, sizeof st);
  st.status_src = evolves ? NULL : src;
  st.status_src_evolves = (uint32_t)evolves;
  st.status_src_value = evolves ? value : 0;
  memcpy(b->image, &st, sizeof st);
  if (evolves && !b->clauses_refusal) {
    struct pygraph_while_clauses c;
    memcpy(&c, b->image + b->clauses_at, sizeof c);
    b->clauses_refusal = pygraph_while_clauses_fold_source(wl, value, &c);
    memcpy(b->image + b->clauses_at, &c, sizeof c);
  }
  return 1;
}

void pygraph_while_block_split_after_copy(struct pygraph_while_block *b)
{
  struct pygraph_while_state st;
  memcpy(&st, b->image, sizeof st);
  st.after_copy_first = 1;
  memcpy(b->image, &st, sizeof st);
}

int pygraph_while_block_start(struct pygraph_while_block *b, const uint64_t *invariants,
                              const void *status, uint64_t first, uint64_t max_iterations)
{
  if (max_iterations && max_iterations <= first)
    return 0;
  for (size_t k = 0; k < b->n_source_members; k++)
    if (invariants[b->source_members[k]] == 0)
      return 0;                        /* the kernels would read the status from NULL */
  struct pygraph_while_state st;
  memcpy(&st, b->image, sizeof st);
  memcpy(b->image + b->invariants_at, invariants, b->n_invariants * sizeof *invariants);
  memset(st.status, 0, sizeof st.status);
  if (b->status_bytes)               /* a counted loop has no status (NULL) */
    memcpy(st.status, status, b->status_bytes);
  st.iteration = first;
  st.max_iterations = max_iterations;
  st.outcome = PYGRAPH_WHILE_RUNNING;
  st.exit_test = -1;
  st.exit_where = 0;
  memcpy(b->image, &st, sizeof st);
  return 1;
}

const struct pygraph_while_state *pygraph_while_block_state(const struct pygraph_while_block *b)
{
  return (const struct pygraph_while_state *)b->image;
}

const struct pygraph_while_slot *pygraph_while_block_slots(const struct pygraph_while_block *b)
{
  return (const struct pygraph_while_slot *)(b->image + b->slots_at);
}

const uint64_t *pygraph_while_block_invariants(const struct pygraph_while_block *b)
{
  return (const uint64_t *)(b->image + b->invariants_at);
}

const void *pygraph_while_block_clauses(const struct pygraph_while_block *b)
{
  return b->clauses_refusal ? NULL : at(b->device, b->clauses_at);
}

cudaError_t pygraph_while_block_upload(struct pygraph_while_block *b,
                                       const struct pygraph_backend *backend, cudaStream_t stream)
{
  /* the compiled form, last in the block, never changes: uploaded once */
  size_t n = b->uploaded ? b->clauses_at : b->size;
  cudaError_t err = backend->memory_copy(b->device, b->image, n, stream);
  if (err == cudaSuccess)
    b->uploaded = 1;
  return err;
}

cudaError_t pygraph_while_block_read_state(struct pygraph_while_block *b,
                                           const struct pygraph_backend *backend,
                                           cudaStream_t stream)
{
  cudaError_t err =
      backend->memory_copy(b->image, b->device, sizeof(struct pygraph_while_state), stream);
  return err == cudaSuccess ? backend->stream_synchronize(stream) : err;
}

void pygraph_while_block_free(struct pygraph_while_block *b, const struct pygraph_backend *backend,
                              void *graph)
{
  if (b->device && (!graph || backend->graph_synchronize(graph)))
    backend->device_free(b->device);
  free(b->image);
  free(b->source_members);
  memset(b, 0, sizeof *b);
}
