/* report.c - summary lines, one per region segment, then a total. */
#include "abi/report.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "abi/launch_counter.h"
#include "abi/library_calls.h"
#include "abi/report_json.h"
#include "abi/region_state.h"
#include "abi/whole_loop.h"

int pygraph_report_format_segment(char *buf, size_t cap, const struct pygraph_segment *seg)
{
  return pygraph_report_format_segment_thread(buf, cap, seg, -1, -1);
}

/* A batchable loop's units: K of the last run (1: not batched), loop
 * iterations per graph launch, iterations of partial units run eagerly. */
static int format_batch(char *buf, size_t cap, const struct pygraph_segment_summary *s)
{
  return snprintf(buf, cap, " batched K=%u%s iters_per_graph=%.1f tail_iters=%llu", s->batch_k,
                  s->batch_given_up ? " (given up)" : "", s->iters_per_graph, s->tail_iters);
}

/* The allocation pool, when the segment's iterations allocated through it
 * (alloc_pool.h): reused answers, blocks allocated, bytes held (why it
 * stopped serving follows, in format_tail). */
static int format_pool(char *buf, size_t cap, const struct pygraph_segment_summary *s)
{
  return snprintf(buf, cap, " pool_served=%llu pool_blocks=%llu pool_bytes=%llu", s->pool_served,
                  s->pool_allocated, s->pool_bytes);
}

/* Appends to buf[n..cap) what the fixed fields leave: a flush's reason,
 * the program's own captures, the batch, the pool, the library calls it
 * recorded, verify mode's result, the thread and its device, the newline. */
static int format_tail(char *buf, size_t cap, int n, const struct pygraph_segment_summary *s,
                       int thread, int device)
{
  if (n >= 0 && (size_t)n < cap && s->last_flush)
    n += snprintf(buf + n, cap - (size_t)n, " last_flush=\"%s\"", s->last_flush);
  if (n >= 0 && (size_t)n < cap && s->program_captured > 0)
    n += snprintf(buf + n, cap - (size_t)n, " program_captured=%llu", s->program_captured);
  if (n >= 0 && (size_t)n < cap && s->batched)
    n += format_batch(buf + n, cap - (size_t)n, s);
  if (n >= 0 && (size_t)n < cap && s->pool_allocated > 0)
    n += format_pool(buf + n, cap - (size_t)n, s);
  if (n >= 0 && (size_t)n < cap && s->pool_allocated > 0 && s->pool_off)
    n += snprintf(buf + n, cap - (size_t)n, " pool_off=\"%s\"", s->pool_off);
  if (n >= 0 && (size_t)n < cap && s->library_calls > 0)
    n += snprintf(buf + n, cap - (size_t)n, " library_calls=%llu", s->library_calls);
  if (n >= 0 && (size_t)n < cap && s->verify)
    n += snprintf(buf + n, cap - (size_t)n, " verify=\"%s\"", s->verify);
  if (n >= 0 && (size_t)n < cap && thread >= 0)
    n += snprintf(buf + n, cap - (size_t)n, " thread=%d", thread);
  if (n >= 0 && (size_t)n < cap && device >= 0)
    n += snprintf(buf + n, cap - (size_t)n, " device=%d", device);
  if (n >= 0 && (size_t)n < cap)
    n += snprintf(buf + n, cap - (size_t)n, "\n");
  return n;
}

int pygraph_report_format_segment_thread(char *buf, size_t cap,
                                         const struct pygraph_segment *seg, int thread,
                                         int device)
{
  struct pygraph_segment_summary s;
  pygraph_segment_summarize(seg, &s);
  const pygraph_region *r = s.region;
  int n = snprintf(buf, cap,
                   "pygraph: region %s %s:%u-%u seg %u: mode=%s iters=%llu replays=%llu "
                   "captures=%llu updates=%llu flushes=%llu mismatches=%llu "
                   "indirect=%llu block=%lluB fallback=\"%s\" decision=%s eager_us=%.1f "
                   "graph_us=%.1f variants=%u why=\"%s\" eager_iters=%llu timed=%llu",
                   r->function ? r->function : "?", r->file ? r->file : "?", r->line_begin,
                   r->line_end, s.index, s.mode, s.iters, s.replays, s.captures, s.updates,
                   s.flushes, s.mismatches, s.indirect_nodes, s.indirect_bytes, s.fallback,
                   s.decision, s.eager_us, s.graph_us, s.variants, s.why, s.eager_iters, s.timed);
  return format_tail(buf, cap, n, &s, thread, device);
}

int pygraph_report_format_total(char *buf, size_t cap, unsigned long long launches,
                                unsigned long long in_graphs)
{
  double share = launches ? 100.0 * (double)in_graphs / (double)launches : 0.0;
  unsigned long long ws = pygraph_library_workspace_bytes();
  unsigned long long failed = pygraph_library_failures();
  unsigned long long driver_failed = pygraph_driver_launch_failures();
  int n = snprintf(buf, cap, "pygraph: total launches=%llu in_graphs=%llu (%.1f%%)", launches,
                   in_graphs, share);
  /* The library adapters' workspaces, failed recorded library calls and
   * driver launches (library_calls.h). */
  if (n >= 0 && (size_t)n < cap && ws > 0)
    n += snprintf(buf + n, cap - (size_t)n, " library_ws_bytes=%llu", ws);
  if (n >= 0 && (size_t)n < cap && failed > 0)
    n += snprintf(buf + n, cap - (size_t)n, " library_errors=%llu", failed);
  if (n >= 0 && (size_t)n < cap && driver_failed > 0)
    n += snprintf(buf + n, cap - (size_t)n, " driver_errors=%llu", driver_failed);
  if (n >= 0 && (size_t)n < cap)
    n += snprintf(buf + n, cap - (size_t)n, "\n");
  return n;
}

int pygraph_report_format_whole_loop(char *buf, size_t cap,
                                     const struct pygraph_whole_loop_summary *s)
{
  const pygraph_region *r = s->region;
  return snprintf(buf, cap,
                  "pygraph: whole loop %s %s:%u-%u: state=%s executions=%llu observed=%llu "
                  "graph_runs=%llu graph_iters=%llu launches=%llu builds=%llu fallbacks=%llu "
                  "busy=%llu choice=\"%s\" whole_us=%.2f written_us=%.2f condition=\"%s%s%s\" "
                  "why=\"%s\"\n",
                  r->function ? r->function : "?", r->file ? r->file : "?", s->wl->line_begin,
                  s->wl->line_end, s->state, s->executions, s->observed, s->graph_runs,
                  s->graph_iterations, s->launches, s->builds, s->fallbacks, s->busy,
                  s->choice ? s->choice : "undecided", s->whole_us, s->written_us,
                  s->condition ? s->condition : "-", s->condition_why ? ": " : "",
                  s->condition_why ? s->condition_why : "", s->why);
}

/* What one report line is made of: a segment's state, or a whole loop's. */
struct report_item {
  const struct pygraph_segment *seg;
  int thread, device;                        /* -1: not printed */
  const struct pygraph_whole_loop_summary *loop;
};

static int format_item(char *buf, size_t cap, const struct report_item *item)
{
  return item->loop ? pygraph_report_format_whole_loop(buf, cap, item->loop)
                    : pygraph_report_format_segment_thread(buf, cap, item->seg, item->thread,
                                                           item->device);
}

/* Prints one line, in a buffer grown until the line fits (names of
 * templated functions and long paths have no bound). */
static void print_item(const struct report_item *item)
{
  char small[1024];
  char *buf = small;
  size_t cap = sizeof small;
  int n;
  while ((n = format_item(buf, cap, item)) >= 0 && (size_t)n >= cap) {
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
    /* One line per thread state; " thread=<slot> device=<d>" only when
     * there are several. */
    int several = pygraph_region_thread_states(state, i) > 1;
    for (unsigned k = 0; k < PYGRAPH_THREAD_STATES; k++) {
      const struct pygraph_segment *seg = pygraph_region_thread_segment(state, i, k);
      if (!seg)
        continue;
      struct pygraph_segment_summary sum;
      pygraph_segment_summarize(seg, &sum);
      *in_graphs += sum.launches_in_graphs;
      struct report_item item = {seg, several ? (int)k : -1,
                                 several ? pygraph_region_thread_device(state, i, k) : -1, NULL};
      print_item(&item);
    }
  }
}

/* A whole loop's line; the kernels its WHILE graphs ran count as launches
 * in graphs (the program never made those calls). */
static void print_whole_loop(const struct pygraph_whole_loop_summary *s, void *ctx)
{
  unsigned long long *in_graphs = ctx;
  *in_graphs += s->graph_kernels;
  struct report_item item = {NULL, -1, -1, s};
  print_item(&item);
}

static void print_lines(void)
{
  unsigned long long in_graphs = 0, loops = 0;
  char line[256];
  pygraph_region_states_foreach(print_region, &in_graphs);
  pygraph_whole_loops_foreach(print_whole_loop, &loops);
  in_graphs += loops;
  pygraph_report_format_total(line, sizeof line, pygraph_total_launches() + loops, in_graphs);
  fputs(line, stderr);
}

void pygraph_report_at_exit(void)
{
  const struct pygraph_settings *settings = pygraph_settings();
  if (settings->report)
    print_lines();
  if (settings->report_json)
    pygraph_report_json_at_exit(settings->report_json);
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
