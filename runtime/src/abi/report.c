/* report.c - summary lines, one per region segment, then a total. */
#include "abi/report.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "abi/launch_counter.h"
#include "abi/region_state.h"

/* Why the segment runs as it does: never empty once graphs ran (a
 * decision sets its own reason; these cover a segment with none). */
static const char *why_text(const struct pygraph_segment *seg,
                            const struct pygraph_selection_summary *sum)
{
  if (sum->why[0])
    return sum->why;
  if (seg->stats.replays == 0)
    return "-";
  if (seg->fallback[0])
    return "graph fault (see fallback)";
  if (seg->settings.mode == PYGRAPH_MODE_GRAPH)
    return "PYGRAPH_MODE=graph";
  return "undecided: no sample read";
}

int pygraph_report_format_segment(char *buf, size_t cap, const struct pygraph_segment *seg)
{
  return pygraph_report_format_segment_thread(buf, cap, seg, -1);
}

/* Why the segment (also) ran eagerly: its fallback, else iterations the
 * program captured itself. */
static const char *fallback_text(const struct pygraph_segment *seg)
{
  if (seg->fallback[0])
    return seg->fallback;
  return seg->stats.program_captured ? PYGRAPH_PROGRAM_CAPTURE_REASON : "-";
}

/* A batchable loop's units: K of the last run (1: not batched), loop
 * iterations per graph launch, iterations of partial units run eagerly. */
static int format_batch(char *buf, size_t cap, const struct pygraph_segment *seg)
{
  const struct pygraph_segment_stats *s = &seg->stats;
  unsigned long long launches = s->replays + s->captures;
  double per_graph = launches ? (double)s->graph_iters / (double)launches : 0.0;
  unsigned k = seg->batch.k ? seg->batch.k : 1;
  return snprintf(buf, cap, " batched K=%u%s iters_per_graph=%.1f tail_iters=%llu", k,
                  seg->batch.given_up ? " (given up)" : "", per_graph, s->tail_iters);
}

int pygraph_report_format_segment_thread(char *buf, size_t cap,
                                         const struct pygraph_segment *seg, int thread)
{
  const pygraph_region *r = seg->region;
  const struct pygraph_segment_stats *s = &seg->stats;
  struct pygraph_selection_summary sum;
  pygraph_selection_summarize(&seg->sel, &sum);
  /* Indirection of the graph in use (the last one captured when none). */
  unsigned long long ind_nodes = seg->cache.active ? seg->cache.active->indirect.n_nodes : s->indirect_nodes;
  unsigned long long ind_bytes = seg->cache.active ? seg->cache.active->indirect.block_size : s->indirect_bytes;
  int n = snprintf(buf, cap,
                   "pygraph: region %s %s:%u-%u seg %u: mode=%s iters=%llu replays=%llu "
                   "captures=%llu updates=%llu flushes=%llu mismatches=%llu "
                   "indirect=%llu block=%lluB fallback=\"%s\" decision=%s eager_us=%.1f "
                   "graph_us=%.1f variants=%u why=\"%s\" eager_iters=%llu timed=%llu",
                   r->function ? r->function : "?", r->file ? r->file : "?", r->line_begin,
                   r->line_end, seg->index, pygraph_segment_mode_name(seg), s->iters,
                   s->replays, s->captures, s->updates, s->flushes, s->mismatches,
                   ind_nodes, ind_bytes, fallback_text(seg),
                   pygraph_segment_decision_name(seg), sum.eager_us, sum.graph_us,
                   pygraph_segment_variants(seg), why_text(seg, &sum),
                   s->eager_iters, sum.timed);
  /* Flushes are worth a reason too; kept after the fixed fields. */
  if (n >= 0 && (size_t)n < cap && s->flushes > 0 && seg->last_flush_reason)
    n += snprintf(buf + n, cap - (size_t)n, " last_flush=\"%s\"", seg->last_flush_reason);
  if (n >= 0 && (size_t)n < cap && s->program_captured > 0)
    n += snprintf(buf + n, cap - (size_t)n, " program_captured=%llu", s->program_captured);
  if (n >= 0 && (size_t)n < cap && r->kind == PYGRAPH_REGION_BATCH)
    n += format_batch(buf + n, cap - (size_t)n, seg);
  if (n >= 0 && (size_t)n < cap && thread >= 0)
    n += snprintf(buf + n, cap - (size_t)n, " thread=%d", thread);
  if (n >= 0 && (size_t)n < cap)
    n += snprintf(buf + n, cap - (size_t)n, "\n");
  return n;
}

int pygraph_report_format_total(char *buf, size_t cap, unsigned long long launches,
                                unsigned long long in_graphs)
{
  double share = launches ? 100.0 * (double)in_graphs / (double)launches : 0.0;
  return snprintf(buf, cap, "pygraph: total launches=%llu in_graphs=%llu (%.1f%%)\n", launches,
                  in_graphs, share);
}

/* Prints one segment's line, in a buffer grown until the line fits (names
 * of templated functions and long paths have no bound). */
static void print_segment(const struct pygraph_segment *seg, int thread)
{
  char small[1024];
  char *buf = small;
  size_t cap = sizeof small;
  int n;
  while ((n = pygraph_report_format_segment_thread(buf, cap, seg, thread)) >= 0 &&
         (size_t)n >= cap) {
    char *bigger = malloc(cap * 2);
    if (!bigger) {
      buf[cap - 2] = '\n';                  /* out of memory: the line, cut short */
      break;
    }
    if (buf != small)
      free(buf);
    buf = bigger;
    cap *= 2;
  }
  fputs(buf, stderr);
  if (buf != small)
    free(buf);
}

static void print_region(const struct pygraph_region_state *state, void *ctx)
{
  unsigned long long *in_graphs = ctx;
  for (unsigned i = 0; i < state->n_segments; i++) {
    /* One line per thread state; " thread=<slot>" only when there are several. */
    int several = pygraph_region_thread_states(state, i) > 1;
    for (unsigned k = 0; k < PYGRAPH_THREAD_STATES; k++) {
      const struct pygraph_segment *seg = pygraph_region_thread_segment(state, i, k);
      if (!seg)
        continue;
      *in_graphs += seg->stats.launches_in_graphs;
      print_segment(seg, several ? (int)k : -1);
    }
  }
}

void pygraph_report_at_exit(void)
{
  if (!pygraph_settings()->report)
    return;
  unsigned long long in_graphs = 0;
  char line[256];
  pygraph_region_states_foreach(print_region, &in_graphs);
  pygraph_report_format_total(line, sizeof line, pygraph_total_launches(), in_graphs);
  fputs(line, stderr);
}

static pthread_once_t armed = PTHREAD_ONCE_INIT;

static void register_at_exit(void)
{
  atexit(pygraph_report_at_exit);
}

void pygraph_report_arm(void)
{
  pthread_once(&armed, register_at_exit);
}
