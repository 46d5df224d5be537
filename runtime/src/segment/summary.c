/* summary.c - what the report reads of a segment (segment.h). */
#include "segment/segment_internal.h"

static const char *mode_name(const struct pygraph_segment *seg)
{
  switch (seg->phase) {
  case PYGRAPH_PHASE_REPLAY:
    return "graph";
  case PYGRAPH_PHASE_EAGER:
    return "eager";
  default:
    return "warmup";
  }
}

static const char kCollectiveWhy[] =
    "NCCL collectives: the same choices on every rank (as PYGRAPH_MODE=graph, untimed)";

static const char kDevicesWhy[] =
    "several devices: one state per device, each as PYGRAPH_MODE=graph (untimed)";

/* Why the segment runs as it does: never empty once graphs ran (a
 * decision sets its own reason; these cover a segment with none). */
static const char *why_text(const struct pygraph_segment *seg, const char *decided_why)
{
  if (decided_why[0])
    return decided_why;
  if (seg->stats.replays == 0)
    return "-";
  if (seg->fallback[0])
    return "graph fault (see fallback)";
  if (seg->collective)
    return kCollectiveWhy;
  if (seg->devices)
    return kDevicesWhy;
  if (seg->settings.mode == PYGRAPH_MODE_GRAPH)
    return "PYGRAPH_MODE=graph";
  return "undecided: no sample read";
}

/* Why the segment (also) ran eagerly: its fallback, else iterations the
 * program captured itself. */
static const char *fallback_text(const struct pygraph_segment *seg)
{
  if (seg->fallback[0])
    return seg->fallback;
  return seg->stats.program_captured ? PYGRAPH_PROGRAM_CAPTURE_REASON : "-";
}

static void summarize_batch(const struct pygraph_segment *seg, struct pygraph_segment_summary *out)
{
  const struct pygraph_segment_stats *s = &seg->stats;
  unsigned long long launches = s->replays + s->captures;
  out->batched = seg->region->kind == PYGRAPH_REGION_BATCH;
  out->batch_k = seg->batch.k ? seg->batch.k : 1;
  out->batch_given_up = seg->batch.given_up;
  out->iters_per_graph = launches ? (double)s->graph_iters / (double)launches : 0.0;
  out->tail_iters = s->tail_iters;
}

void pygraph_segment_summarize(const struct pygraph_segment *seg,
                               struct pygraph_segment_summary *out)
{
  const struct pygraph_segment_stats *s = &seg->stats;
  struct pygraph_selection_summary sel;
  pygraph_selection_summarize(&seg->sel, &sel);
  const struct pygraph_variant *active = seg->cache.active;
  *out = (struct pygraph_segment_summary){
      .region = seg->region, .index = seg->index, .mode = mode_name(seg),
      .decision = pygraph_segment_decision_name(seg), .why = why_text(seg, sel.why),
      .fallback = fallback_text(seg), .last_flush = s->flushes ? seg->last_flush_reason : NULL,
      .iters = s->iters, .replays = s->replays, .captures = s->captures,
      .updates = s->updates, .flushes = s->flushes, .mismatches = s->mismatches,
      /* Indirection of the graph in use (the last one captured when none). */
      .indirect_nodes = active ? active->indirect.n_nodes : s->indirect_nodes,
      .indirect_bytes = active ? active->indirect.block_size : s->indirect_bytes,
      .eager_iters = s->eager_iters, .timed = sel.timed,
      .program_captured = s->program_captured, .launches_in_graphs = s->launches_in_graphs,
      .rivals = s->rivals, .refreshes = s->refreshes, .graph_iters = s->graph_iters,
      .variants = seg->cache.n_variants, .eager_us = sel.eager_us, .graph_us = sel.graph_us};
  summarize_batch(seg, out);
  out->pool_served = seg->pool.served;
  out->pool_allocated = seg->pool.allocated;
  out->pool_bytes = seg->pool.bytes;
  out->pool_off = seg->pool.off;
  out->library_calls = s->library_calls;
  out->verify = pygraph_verify_status(&seg->verify);
}
