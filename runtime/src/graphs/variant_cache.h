/* variant_cache.h - the graphs of one segment, keyed by launch-sequence
 * signature: where a graph is built (capture + instantiate), updated and
 * replayed, and evicted.
 *
 * The cache carries out; it never decides.  Every call that can fail
 * returns the CUDA error and names the failing step, and leaves the cache
 * consistent (nothing half-built stays allocated); what a failure means for
 * the segment (eager for good) is the state machine's business (segment.c).
 * Which signature is captured, when, and whether a graph pays is decided
 * by segment.c and auto mode (selection.c). */
#ifndef PYGRAPH_VARIANT_CACHE_H
#define PYGRAPH_VARIANT_CACHE_H

#include "port/backend.h"
#include "graphs/indirect.h"
#include "recording/op_list.h"
#include "pygraph_rt.h"
#include "common/settings.h"

/* One cached graph, for one signature (what selection decides about it is
 * selection's own, keyed by the slot and `id`). */
struct pygraph_variant {
  void *graph;                               /* NULL = free slot */
  struct pygraph_op_list *ref;               /* exactly what the graph's nodes hold */
  unsigned long long hash;
  struct pygraph_indirect indirect;          /* its indirect nodes */
  struct pygraph_arg_block args;             /* their argument block and loaders */
  unsigned long long last_used;              /* LRU stamp */
  unsigned long long id;                     /* capture number (samples name it) */
  unsigned long long seen_iter;              /* iteration its signature last came */
  int direct_only;                           /* captured without indirection (the rival) */
};

struct pygraph_variant_cache {
  const struct pygraph_backend *backend;
  const struct pygraph_settings *settings;   /* the segment's (variants, indirect, debug) */
  const pygraph_region *region;              /* for messages */
  unsigned index;
  struct pygraph_variant variants[PYGRAPH_MAX_VARIANTS];
  unsigned n_variants;                       /* live graphs */
  struct pygraph_variant *active;            /* last captured or replayed, or NULL */
  unsigned long long variant_ids;            /* ids handed out */
  unsigned long long clock;                  /* LRU stamps */
  /* What a failed build or instantiate left, until discard_failed: the
   * caller handles the fault first (its CUDA calls come before these
   * frees, as they always have). */
  struct {
    void *graph;
    struct pygraph_arg_block args;
    struct pygraph_indirect indirect;
  } failed;
};

/* `refs`: PYGRAPH_MAX_VARIANTS op lists, one per slot, that the variants'
 * `ref` pointers start on (the segment swaps them with its own lists). */
void pygraph_variant_cache_init(struct pygraph_variant_cache *cache,
                                const struct pygraph_backend *backend,
                                const struct pygraph_settings *settings,
                                const pygraph_region *region, unsigned index,
                                struct pygraph_op_list *refs);

/* The live variant whose graph matches `cur` (hash: its signature), or NULL. */
struct pygraph_variant *pygraph_variant_cache_find(struct pygraph_variant_cache *cache,
                                                   unsigned long long hash,
                                                   const struct pygraph_op_list *cur);

/* Hash's signature came at iteration `iter`: all its graphs (a rival too)
 * are in use. */
void pygraph_variant_cache_saw(struct pygraph_variant_cache *cache, unsigned long long hash,
                               unsigned long long iter);

/* Room for one more variant at iteration `iter`: a free slot, or a variant
 * whose signature has not come for PYGRAPH_BEHAVIOUR_BLOCK iterations. */
int pygraph_variant_cache_has_room(const struct pygraph_variant_cache *cache,
                                   unsigned long long iter);

/* Frees v's graph, argument block and indirect nodes (v becomes free). */
void pygraph_variant_cache_drop(struct pygraph_variant_cache *cache, struct pygraph_variant *v);
void pygraph_variant_cache_drop_all(struct pygraph_variant_cache *cache);

/* What a capture is given besides the iteration itself. */
struct pygraph_capture_request {
  unsigned long long hash;
  int direct_only;                           /* no indirect nodes (a direct rival) */
  const unsigned char *arg_changed;          /* per op: did its kernel arguments move */
  size_t n_arg_changed;
  unsigned long long iter;                   /* the iteration, for staleness */
};

/* Captures `cur` into a new variant (a free slot, else the stale one's:
 * see has_room), instantiated but not launched.  On success *out is the
 * variant, now active; else *step names the failed step, and what the
 * attempt allocated waits for pygraph_variant_cache_discard_failed (an
 * evicted slot may have lost its graph). */
cudaError_t pygraph_variant_cache_capture(struct pygraph_variant_cache *cache,
                                          const struct pygraph_op_list *cur,
                                          const struct pygraph_capture_request *request,
                                          struct pygraph_variant **out, const char **step);

/* Frees what a failed capture left (nothing after a success). */
void pygraph_variant_cache_discard_failed(struct pygraph_variant_cache *cache);

/* What bringing a variant up to date with an iteration did. */
struct pygraph_update_counts {
  unsigned long long node_updates;           /* kernel/memcpy nodes updated */
  unsigned long long refreshes;              /* argument-block refreshes (0 or 1) */
  long changed_ops;                          /* ops with new parameters */
};

/* Brings v's nodes to `cur`'s parameters (nodes updated, or its argument
 * block refreshed), without launching.  `count_all`: count every changed
 * op of an indirect node (measured graphs), else the first is enough (one
 * refresh for all).  Counts are filled on failure too. */
cudaError_t pygraph_variant_cache_update(struct pygraph_variant_cache *cache,
                                         struct pygraph_variant *v,
                                         const struct pygraph_op_list *cur, int count_all,
                                         struct pygraph_update_counts *counts, const char **step);

/* Launches v's graph; *ran: the graph ran the iteration's work even though
 * an error came back. */
cudaError_t pygraph_variant_cache_launch(struct pygraph_variant_cache *cache,
                                         struct pygraph_variant *v, int *ran);

/* v ran the iteration held in *current: v's graph now mirrors it, so the two
 * lists trade places (pointers swapped, never copied) and v becomes the
 * most recently used. */
void pygraph_variant_cache_adopt(struct pygraph_variant_cache *cache, struct pygraph_variant *v,
                                 struct pygraph_op_list **current);

/* v is in use (run eagerly while measured): the most recently used. */
void pygraph_variant_cache_touch(struct pygraph_variant_cache *cache, struct pygraph_variant *v);

#endif /* PYGRAPH_VARIANT_CACHE_H */
