/* variant_cache.c - where a segment's graphs are built (capture +
 * instantiate), updated, replayed and evicted; variant_cache.h says what
 * it owns.  Errors go back to the caller with the failing step: the cache
 * never decides what a failure means. */
#include "graphs/variant_cache.h"

#include <string.h>

#include "common/debug_log.h"
#include "recording/signature.h"

void pygraph_variant_cache_init(struct pygraph_variant_cache *cache,
                                const struct pygraph_backend *backend,
                                const struct pygraph_settings *settings,
                                const pygraph_region *region, unsigned index,
                                struct pygraph_op_list *refs)
{
  memset(cache, 0, sizeof *cache);
  cache->backend = backend;
  cache->settings = settings;
  cache->region = region;
  cache->index = index;
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
    cache->variants[i].ref = &refs[i];
}

struct pygraph_variant *pygraph_variant_cache_find(struct pygraph_variant_cache *cache,
                                                   unsigned long long hash,
                                                   const struct pygraph_op_list *cur)
{
  for (unsigned i = 0; i < cache->settings->variants; i++) {
    struct pygraph_variant *v = &cache->variants[i];
    if (v->graph && v->hash == hash && pygraph_same_signature(cur, v->ref))
      return v;
  }
  return NULL;
}

void pygraph_variant_cache_saw(struct pygraph_variant_cache *cache, unsigned long long hash,
                               unsigned long long iter)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
    if (cache->variants[i].graph && cache->variants[i].hash == hash)
      cache->variants[i].seen_iter = iter;
}

/* Variants in use are not evicted: with more signatures in a cycle than
 * slots, LRU eviction would recapture every iteration; the extra
 * signatures run eagerly instead. */
int pygraph_variant_cache_has_room(const struct pygraph_variant_cache *cache,
                                   unsigned long long iter)
{
  for (unsigned i = 0; i < cache->settings->variants; i++) {
    const struct pygraph_variant *v = &cache->variants[i];
    if (!v->graph || iter - v->seen_iter > PYGRAPH_BEHAVIOUR_BLOCK)
      return 1;
  }
  return 0;
}

/* The argument block may still be read by queued launches of v->graph:
 * free it while the graph is alive (it waits for them). */
void pygraph_variant_cache_drop(struct pygraph_variant_cache *cache, struct pygraph_variant *v)
{
  pygraph_arg_block_free(&v->args, cache->backend, v->graph);   /* (frees nothing when none) */
  pygraph_indirect_free(&v->indirect);
  if (v->graph) {
    cache->backend->graph_destroy(v->graph);
    v->graph = NULL;
    cache->n_variants--;
  }
  if (cache->active == v) {
    cache->active = NULL;
    for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
      if (cache->variants[i].graph)
        cache->active = &cache->variants[i];
  }
}

void pygraph_variant_cache_drop_all(struct pygraph_variant_cache *cache)
{
  for (unsigned i = 0; i < PYGRAPH_MAX_VARIANTS; i++)
    if (cache->variants[i].graph)
      pygraph_variant_cache_drop(cache, &cache->variants[i]);
}

/* ---- indirect nodes ----------------------------------------------------- */

static void note_node(void *ctx, size_t index, const struct pygraph_op *op, const char *reason,
                      const char *detail)
{
  const struct pygraph_variant_cache *cache = ctx;
  const char *kernel = op->site && op->site->kernel ? op->site->kernel : "?";
  if (!reason)
    pygraph_debug_log(cache->settings, SEG_FMT ": op %zu (%s): indirect, %zu-byte argument block",
                      SEG_ARGS(cache), index, kernel, op->layout->total_size);
  else
    pygraph_debug_log(cache->settings, SEG_FMT ": op %zu (%s): direct: %s%s%s", SEG_ARGS(cache),
                      index, kernel, reason, detail ? ": " : "", detail ? detail : "");
}

/* Why edges out of a kernel node are programmatic or full (indirect.h). */
static void note_wave(void *ctx, size_t index, const struct pygraph_op *op,
                      unsigned long long blocks, long long resident)
{
  const struct pygraph_variant_cache *cache = ctx;
  const char *kernel = op->site && op->site->kernel ? op->site->kernel : "?";
  if (resident < 0)
    pygraph_debug_log(cache->settings,
                      SEG_FMT ": op %zu (%s): full edges out: occupancy unknown (%llu blocks)",
                      SEG_ARGS(cache), index, kernel, blocks);
  else if (blocks <= (unsigned long long)resident)
    pygraph_debug_log(cache->settings,
                      SEG_FMT ": op %zu (%s): programmatic edges out to waiting twins: "
                      "%llu blocks fit in one wave (%lld resident)",
                      SEG_ARGS(cache), index, kernel, blocks, resident);
  else
    pygraph_debug_log(cache->settings,
                      SEG_FMT ": op %zu (%s): full edges out: %llu blocks need %llu waves "
                      "(%lld resident); an early start would hold slots its waves need",
                      SEG_ARGS(cache), index, kernel, blocks,
                      (blocks + (unsigned long long)resident - 1) / (unsigned long long)resident,
                      resident);
}

/* Picks the indirect nodes of `cur` into *ind and, when there are any,
 * sets up their argument block holding this iteration's arguments.
 * Returns cudaSuccess (possibly with no indirect nodes) or the CUDA error of
 * the failed step (*step), with nothing left allocated. */
static cudaError_t prepare_indirect(struct pygraph_variant_cache *cache,
                                    const struct pygraph_op_list *cur,
                                    const struct pygraph_capture_request *request,
                                    struct pygraph_graph_plan *plan,
                                    struct pygraph_indirect *ind, struct pygraph_arg_block *ab,
                                    const char **step)
{
  const struct pygraph_settings *settings = cache->settings;
  memset(ab, 0, sizeof *ab);
  if (request->direct_only)
    return cudaSuccess;                       /* the direct rival of an indirect graph */
  if (!settings->indirect) {
    if (cur->n_kernels)
      pygraph_debug_log(settings, SEG_FMT ": all kernel nodes direct: PYGRAPH_INDIRECT=0",
                        SEG_ARGS(cache));
    return cudaSuccess;
  }
  int only_waiting = settings->indirect == PYGRAPH_INDIRECT_AUTO;
  if (pygraph_indirect_select(ind, cache->backend, cur, plan, request->arg_changed,
                              request->n_arg_changed, only_waiting, note_node, cache)) {
    pygraph_debug_log(settings, SEG_FMT ": all kernel nodes direct: out of memory",
                      SEG_ARGS(cache));
    return cudaSuccess;
  }
  if (ind->n_nodes == 0)
    return cudaSuccess;
  if (pygraph_indirect_mark_waves(ind, cache->backend, cur, plan, note_wave, cache))
    pygraph_debug_log(settings, SEG_FMT ": no programmatic edges: out of memory",
                      SEG_ARGS(cache));
  cudaError_t err = pygraph_arg_block_create(ab, cache->backend, ind->block_size, step);
  if (err != cudaSuccess) {
    pygraph_indirect_clear(ind);
    return err;
  }
  pygraph_indirect_pack(ind, cur, ab->host);
  pygraph_debug_log(settings, SEG_FMT ": %zu indirect nodes, %zu-byte device block",
                    SEG_ARGS(cache), ind->n_nodes, ind->block_size);
  return cudaSuccess;
}

/* ---- capture ------------------------------------------------------------ */

/* A free slot, else the one whose signature came longest ago (stale:
 * the caller checked has_room). */
static struct pygraph_variant *pick_slot(struct pygraph_variant_cache *cache)
{
  struct pygraph_variant *v = NULL;
  for (unsigned i = 0; i < cache->settings->variants && !v; i++)
    if (!cache->variants[i].graph)
      v = &cache->variants[i];
  if (v)
    return v;
  for (unsigned i = 0; i < cache->settings->variants; i++)
    if (!v || cache->variants[i].seen_iter < v->seen_iter)
      v = &cache->variants[i];
  pygraph_debug_log(cache->settings, SEG_FMT ": variant cache full, evicting the stale one",
                    SEG_ARGS(cache));
  return v;
}

/* Builds and instantiates the graph of `cur` into slot v.  An evicted
 * variant hands over its graph so it can be updated in place; its argument
 * block goes, so none of its launches may still be queued. */
static cudaError_t build_and_instantiate(struct pygraph_variant_cache *cache,
                                         struct pygraph_variant *v,
                                         const struct pygraph_op_list *cur,
                                         const struct pygraph_graph_plan *plan,
                                         struct pygraph_indirect *ind,
                                         struct pygraph_arg_block *ab, void **graph,
                                         const char **step)
{
  const struct pygraph_backend *backend = cache->backend;
  struct pygraph_indirect_graph ind_graph = {.ind = ind, .args = ab};
  cudaError_t err = backend->graph_build(cur, plan, ind->n_nodes ? &ind_graph : NULL, graph);
  if (err != cudaSuccess) {
    *step = "graph build";
    return err;
  }
  if (v->graph && v->args.device_block && !backend->graph_synchronize(v->graph))
    v->args.device_block = NULL;   /* cannot wait (arg_block_free): left allocated */
  err = backend->graph_instantiate(*graph, v->graph);
  if (err != cudaSuccess)
    *step = "graph instantiate";
  return err;
}

/* Slot v now holds `graph`, a fresh variant of request's signature. */
static void install(struct pygraph_variant_cache *cache, struct pygraph_variant *v, void *graph,
                    const struct pygraph_indirect *ind, const struct pygraph_arg_block *ab,
                    const struct pygraph_capture_request *request)
{
  if (v->graph) {
    /* The old graph was consumed (its exec may live on, updated in place,
     * but now reads the new block): its block goes too. */
    pygraph_arg_block_free(&v->args, cache->backend, NULL);
    pygraph_indirect_free(&v->indirect);
    cache->n_variants--;
  }
  v->graph = graph;
  v->indirect = *ind;
  v->args = *ab;
  v->hash = request->hash;
  v->last_used = ++cache->clock;
  v->id = ++cache->variant_ids;
  v->seen_iter = request->iter;
  v->direct_only = request->direct_only;
  cache->n_variants++;
  cache->active = v;
}

cudaError_t pygraph_variant_cache_capture(struct pygraph_variant_cache *cache,
                                          const struct pygraph_op_list *cur,
                                          const struct pygraph_capture_request *request,
                                          struct pygraph_variant **out, const char **step)
{
  struct pygraph_variant *v = pick_slot(cache);
  struct pygraph_indirect ind = {0};
  struct pygraph_arg_block ab;
  struct pygraph_graph_plan plan;           /* the graph's one plan (graph_plan.h) */
  void *graph = NULL;
  if (pygraph_graph_plan_for_capture(cur, cache->backend, &plan)) {
    *step = "graph build";
    return cudaErrorMemoryAllocation;
  }
  cudaError_t err = prepare_indirect(cache, cur, request, &plan, &ind, &ab, step);
  if (err != cudaSuccess) {
    pygraph_graph_plan_free(&plan);
    pygraph_indirect_free(&ind);              /* (prepare_indirect freed the rest) */
    return err;
  }
  err = build_and_instantiate(cache, v, cur, &plan, &ind, &ab, &graph, step);
  pygraph_graph_plan_free(&plan);
  if (err != cudaSuccess) {
    cache->failed.graph = graph;
    cache->failed.args = ab;
    cache->failed.indirect = ind;
    return err;
  }
  install(cache, v, graph, &ind, &ab, request);
  *out = v;
  return cudaSuccess;
}

void pygraph_variant_cache_discard_failed(struct pygraph_variant_cache *cache)
{
  if (cache->failed.graph)
    cache->backend->graph_destroy(cache->failed.graph);
  if (cache->failed.args.device_block)
    pygraph_arg_block_free(&cache->failed.args, cache->backend, NULL);  /* never launched */
  pygraph_indirect_free(&cache->failed.indirect);
  memset(&cache->failed, 0, sizeof cache->failed);
}

/* ---- replay ------------------------------------------------------------- */

cudaError_t pygraph_variant_cache_update(struct pygraph_variant_cache *cache,
                                         struct pygraph_variant *v,
                                         const struct pygraph_op_list *cur, int count_all,
                                         struct pygraph_update_counts *counts, const char **step)
{
  const struct pygraph_op_list *ref = v->ref;
  const struct pygraph_indirect *ind = &v->indirect;
  int refresh = 0;                            /* an indirect node's arguments moved */
  *counts = (struct pygraph_update_counts){0};
  for (size_t i = 0; i < cur->n_ops; i++) {
    if (ind->n_nodes && ind->node_of_op[i] >= 0) {
      if ((!refresh || count_all) &&
          pygraph_op_params_differ(cur, &cur->ops[i], ref, &ref->ops[i])) {
        refresh = 1;
        counts->changed_ops++;
      }
      continue;
    }
    if (!pygraph_op_params_differ(cur, &cur->ops[i], ref, &ref->ops[i]))
      continue;
    counts->changed_ops++;
    cudaError_t err = cache->backend->graph_update_node(v->graph, i, &cur->ops[i]);
    if (err != cudaSuccess) {
      *step = "graph update";
      return err;
    }
    counts->node_updates++;
  }
  if (!refresh)
    return cudaSuccess;
  /* All indirect nodes at once: the loaders take the new image as their
   * parameters (copied by the update: the image may be rewritten at once). */
  pygraph_indirect_pack(ind, cur, v->args.host);
  cudaError_t err = cache->backend->graph_set_args(v->graph, &v->args);
  if (err != cudaSuccess) {
    *step = "argument update";
    return err;
  }
  counts->refreshes++;
  return cudaSuccess;
}

cudaError_t pygraph_variant_cache_launch(struct pygraph_variant_cache *cache,
                                         struct pygraph_variant *v, int *ran)
{
  *ran = 0;
  return cache->backend->graph_launch(v->graph, ran);
}

void pygraph_variant_cache_adopt(struct pygraph_variant_cache *cache, struct pygraph_variant *v,
                                 struct pygraph_op_list **current)
{
  struct pygraph_op_list *t = *current;
  *current = v->ref;
  v->ref = t;
  cache->active = v;
}

void pygraph_variant_cache_touch(struct pygraph_variant_cache *cache, struct pygraph_variant *v)
{
  v->last_used = ++cache->clock;
}
