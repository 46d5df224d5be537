/* indirect.c - choosing indirect nodes, packing their arguments, and the
 * per-twin usability cache. */
#include "graphs/graph_plan.h"
#include "common/grow.h"
#include "graphs/indirect.h"
#include "common/key_table.h"
#include "pygraph_layout_tag.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pygraph_rt.h"

/* ---- twin cache ------------------------------------------------------- */

struct twin_entry {
  struct pygraph_table_key key;               /* the twin's host handle */
  const char *problem;                        /* NULL = usable */
  struct pygraph_twin_info info;
};

static pthread_mutex_t twin_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pygraph_key_table twins = PYGRAPH_KEY_TABLE_INIT(struct twin_entry);

const char *pygraph_twin_lookup(const struct pygraph_backend *backend, const void *twin,
                                struct pygraph_twin_info *info)
{
  /* Only reached at capture time, so the lock is off the launch path. */
  pthread_mutex_lock(&twin_lock);
  struct pygraph_table_key key = {twin, 0, 0};
  const struct twin_entry *found = pygraph_key_table_find(&twins, key);
  struct twin_entry entry = {.key = key};
  if (found) {
    entry = *found;
  } else {
    entry.problem = backend->twin_check ? backend->twin_check(twin, &entry.info)
                                        : "backend has no twin support";
    struct twin_entry *e = pygraph_key_table_insert(&twins, key);
    if (e)
      *e = entry;
  }
  pthread_mutex_unlock(&twin_lock);
  *info = entry.info;
  return entry.problem;
}

/* ---- selection -------------------------------------------------------- */

static int fits_one_wave(const struct pygraph_backend *backend, const struct pygraph_op *op,
                         const void *func, long long *resident);

void pygraph_indirect_clear(struct pygraph_indirect *ind)
{
  ind->n_nodes = 0;
  ind->n_ops = 0;
  ind->block_size = 0;
}

void pygraph_indirect_free(struct pygraph_indirect *ind)
{
  free(ind->nodes);
  free(ind->node_of_op);
  memset(ind, 0, sizeof *ind);
}

/* NULL when op may go indirect, else the reason (detail in *detail). */
static const char *why_direct(const struct pygraph_backend *backend, const struct pygraph_op *op,
                              int changed, int only_waiting, const void **twin, int *waits,
                              const char **detail)
{
  *detail = NULL;
  if (!changed)
    return "args unchanged";
  /* A function the program loaded itself: the plugin compiled no twin of it. */
  if (op->driver)
    return "driver API launch: no indirect twin";
  *twin = op->site ? op->site->indirect_twin : NULL;
  if (!*twin)
    return "no indirect twin";
  if (!op->layout || op->layout->n_params == 0 || op->layout->total_size == 0)
    return "empty parameter layout";
  struct pygraph_twin_info info;
  const char *problem = pygraph_twin_lookup(backend, *twin, &info);
  if (problem) {
    *detail = problem;
    return "twin unusable";
  }
  /* The twin reads the layout the plugin computed; the block is filled in
   * the one the driver reports.  They must be the same. */
  if (info.layout_tag && info.layout_tag != pygraph_param_layout_tag(op->layout))
    return "twin's parameter layout differs from the driver's";
  *waits = info.waits;
  if (only_waiting && !info.waits)
    return "twin cannot start early (built for a GPU older than sm_90)";
  /* The twin is a different function: its own limits apply to the launch
   * (e.g. a raised max dynamic shared memory was set on the original only). */
  unsigned long long threads =
      (unsigned long long)op->block.x * op->block.y * op->block.z;
  if (info.max_threads_per_block > 0 && threads > (unsigned long long)info.max_threads_per_block)
    return "block larger than the twin's max threads per block";
  if (op->shmem > 0 && op->shmem > (size_t)(info.max_dynamic_smem > 0 ? info.max_dynamic_smem : 0))
    return "dynamic shared memory above the twin's limit";
  return NULL;
}

unsigned pygraph_param_layout_tag(const struct pygraph_param_layout *layout)
{
  unsigned long long local[2 * 64], *pairs = local;
  if (layout->n_params > 64 && !(pairs = malloc(2 * layout->n_params * sizeof *pairs)))
    return 0;                              /* never a valid tag: stays direct */
  for (size_t i = 0; i < layout->n_params; i++) {
    pairs[2 * i] = layout->params[i].offset;
    pairs[2 * i + 1] = layout->params[i].size;
  }
  unsigned tag = pygraph_layout_tag_bytes(pairs, layout->n_params);
  if (pairs != local)
    free(pairs);
  return tag;
}

size_t pygraph_indirect_slice_align(const struct pygraph_param_layout *layout)
{
  size_t align = PYGRAPH_INDIRECT_SLICE_ALIGN;
  for (size_t i = 0; i < layout->n_params; i++) {
    size_t size = layout->params[i].size;
    size_t low = size & (~size + 1);            /* largest power of two dividing size */
    if (low > align)
      align = low;
  }
  return align < PYGRAPH_INDIRECT_SLICE_ALIGN_MAX ? align : PYGRAPH_INDIRECT_SLICE_ALIGN_MAX;
}

/* The function op i's node runs: its twin when it is indirect. */
static const void *node_func(const struct pygraph_indirect *ind, const struct pygraph_op_list *ops,
                             size_t i)
{
  long in = i < ind->n_ops ? ind->node_of_op[i] : -1;
  return in >= 0 ? ind->nodes[in].twin : ops->ops[i].func;
}

/* PYGRAPH_INDIRECT=auto takes a twin only where it starts early: some
 * kernel before it (stream order or an event edge of the iteration) fits
 * in one wave, so a programmatic edge leads to it (see
 * pygraph_indirect_mark_waves).  Elsewhere a twin only adds its argument
 * load, and at a root the loader kernel in front of it, to a per-node
 * update the host makes while the GPU is busy.  Judged on the plan the
 * graph is built from, so "before it" is what the node's edges will be.
 * NULL = starts early; else why not. */
static const char *why_not_early(const struct pygraph_indirect *ind,
                                 const struct pygraph_backend *backend,
                                 const struct pygraph_op_list *ops,
                                 const struct pygraph_graph_plan *plan, size_t i)
{
  const struct pygraph_plan_node *pn = &plan->nodes[i];
  int kernels = 0;
  for (unsigned d = 0; d < pn->n_deps; d++) {
    size_t dep = pn->deps[d];
    if (ops->ops[dep].kind != PYGRAPH_OP_KERNEL)
      continue;
    kernels++;
    long long resident;
    if (fits_one_wave(backend, &ops->ops[dep], node_func(ind, ops, dep), &resident))
      return NULL;
  }
  return kernels ? "twin cannot start early: the kernel before it needs more than one wave "
                   "(or its occupancy is unknown)"
                 : "twin cannot start early: no kernel before it in the graph";
}

int pygraph_indirect_select(struct pygraph_indirect *ind, const struct pygraph_backend *backend,
                            const struct pygraph_op_list *ops,
                            const struct pygraph_graph_plan *plan, const unsigned char *changed,
                            size_t n_changed, int only_waiting, pygraph_indirect_note_fn note,
                            void *ctx)
{
  pygraph_indirect_clear(ind);
  if (pygraph_grow((void **)&ind->node_of_op, &ind->cap_ops, ops->n_ops ? ops->n_ops : 1,
           sizeof *ind->node_of_op))
    return -1;
  ind->n_ops = ops->n_ops;
  size_t offset = 0;
  for (size_t i = 0; i < ops->n_ops; i++) {
    const struct pygraph_op *op = &ops->ops[i];
    ind->node_of_op[i] = -1;
    if (op->kind != PYGRAPH_OP_KERNEL)
      continue;
    const void *twin = NULL;
    const char *detail;
    int waits = 0;
    const char *reason = why_direct(backend, op, i < n_changed && changed[i], only_waiting, &twin,
                                    &waits, &detail);
    if (!reason && only_waiting)
      reason = why_not_early(ind, backend, ops, plan, i);
    if (reason) {
      if (note)
        note(ctx, i, op, reason, detail);
      continue;
    }
    if (pygraph_grow((void **)&ind->nodes, &ind->cap_nodes, ind->n_nodes + 1, sizeof *ind->nodes)) {
      pygraph_indirect_clear(ind);
      return -1;
    }
    size_t align = pygraph_indirect_slice_align(op->layout);
    size_t start = (offset + align - 1) & ~(align - 1);
    if (start + op->layout->total_size > PYGRAPH_ARG_BLOCK_MAX) {
      if (note)
        note(ctx, i, op, "argument block full", NULL);
      continue;
    }
    offset = start;
    ind->nodes[ind->n_nodes] = (struct pygraph_indirect_node){
        .op = i, .offset = offset, .size = op->layout->total_size, .twin = twin,
        .waits = waits};
    ind->node_of_op[i] = (long)ind->n_nodes++;
    offset += op->layout->total_size;
    if (note)
      note(ctx, i, op, NULL, NULL);
  }
  ind->block_size = offset;
  return 0;
}

void pygraph_indirect_pack(const struct pygraph_indirect *ind, const struct pygraph_op_list *ops,
                           unsigned char *block)
{
  for (size_t n = 0; n < ind->n_nodes; n++) {
    const struct pygraph_indirect_node *node = &ind->nodes[n];
    memcpy(block + node->offset, pygraph_op_args(ops, &ops->ops[node->op]), node->size);
  }
}

/* ---- one wave or more (programmatic edges, see indirect.h) ------------- */

struct occupancy_entry {
  struct pygraph_table_key key;     /* func, threads per block, dynamic shared memory */
  long long resident;
};

static pthread_mutex_t occupancy_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pygraph_key_table occupancy = PYGRAPH_KEY_TABLE_INIT(struct occupancy_entry);

long long pygraph_resident_blocks(const struct pygraph_backend *backend, const void *func,
                                  unsigned threads, size_t smem)
{
  if (!backend->resident_blocks || !func)
    return -1;
  /* Capture time only: the lock is off the launch path. */
  pthread_mutex_lock(&occupancy_lock);
  struct pygraph_table_key key = {func, threads, smem};
  const struct occupancy_entry *found = pygraph_key_table_find(&occupancy, key);
  long long resident = -1;
  if (found) {
    resident = found->resident;
  } else if (backend->resident_blocks(func, threads, smem, &resident) != cudaSuccess ||
             resident <= 0) {
    resident = -1;                  /* not cached: a failure may be passing */
  } else {
    struct occupancy_entry *e = pygraph_key_table_insert(&occupancy, key);
    if (e)
      e->resident = resident;
  }
  pthread_mutex_unlock(&occupancy_lock);
  return resident;
}

/* Does op's whole grid, running func, fit on the device at once? */
static int fits_one_wave(const struct pygraph_backend *backend, const struct pygraph_op *op,
                         const void *func, long long *resident)
{
  unsigned long long threads = (unsigned long long)op->block.x * op->block.y * op->block.z;
  unsigned long long blocks = (unsigned long long)op->grid.x * op->grid.y * op->grid.z;
  /* The port's occupancy query takes a host stub, not a CUfunction: a
   * driver launch's occupancy is unknown (a full edge, the safe side). */
  *resident = threads <= 0xffffffffull && !op->driver
                  ? pygraph_resident_blocks(backend, func, (unsigned)threads, op->shmem)
                  : -1;
  return *resident > 0 && blocks <= (unsigned long long)*resident;
}

static int any_waiting_node(const struct pygraph_indirect *ind)
{
  for (size_t n = 0; n < ind->n_nodes; n++)
    if (ind->nodes[n].waits)
      return 1;
  return 0;
}

int pygraph_indirect_mark_waves(const struct pygraph_indirect *ind,
                                const struct pygraph_backend *backend,
                                const struct pygraph_op_list *ops,
                                struct pygraph_graph_plan *plan, pygraph_wave_note_fn note,
                                void *ctx)
{
  for (size_t i = 0; i < ops->n_ops; i++)
    memset(plan->nodes[i].programmatic, 0, sizeof plan->nodes[i].programmatic);
  if (!any_waiting_node(ind))
    return 0;                       /* no edge could be programmatic: no queries */
  unsigned char *one_wave = calloc(ops->n_ops ? ops->n_ops : 1, 1);
  if (!one_wave)
    return -1;
  for (size_t i = 0; i < ops->n_ops && i < ind->n_ops; i++) {
    const struct pygraph_op *op = &ops->ops[i];
    if (op->kind != PYGRAPH_OP_KERNEL)
      continue;
    long long resident;
    one_wave[i] = (unsigned char)fits_one_wave(backend, op, node_func(ind, ops, i), &resident);
    if (note)
      note(ctx, i, op, (unsigned long long)op->grid.x * op->grid.y * op->grid.z, resident);
  }
  for (size_t n = 0; n < ind->n_nodes; n++) {
    if (!ind->nodes[n].waits)
      continue;
    struct pygraph_plan_node *pn = &plan->nodes[ind->nodes[n].op];
    for (unsigned d = 0; d < pn->n_deps; d++)
      pn->programmatic[d] = ops->ops[pn->deps[d]].kind == PYGRAPH_OP_KERNEL && one_wave[pn->deps[d]];
  }
  free(one_wave);
  return 0;
}
