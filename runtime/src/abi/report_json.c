/* report_json.c - the exit report as a JSON document (report_json.h). */
#include "abi/report_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "abi/launch_counter.h"
#include "abi/library_calls.h"
#include "abi/region_state.h"
#include "abi/whole_loop.h"
#include "common/json_write.h"

static const char *mode_name(enum pygraph_mode mode)
{
  return mode == PYGRAPH_MODE_EAGER ? "eager" : mode == PYGRAPH_MODE_GRAPH ? "graph" : "auto";
}

static const char *indirect_name(int indirect)
{
  return indirect == PYGRAPH_INDIRECT_OFF ? "off"
         : indirect == PYGRAPH_INDIRECT_ON ? "on" : "auto";
}

static const char *region_kind_name(unsigned kind)
{
  return kind == PYGRAPH_REGION_BATCH ? "batch"
         : kind == PYGRAPH_REGION_STRAIGHT ? "straight" : "loop";
}

/* The report's "-" (nothing to say) is null here. */
static const char *text_or_null(const char *text)
{
  return text && strcmp(text, "-") != 0 ? text : NULL;
}

static void write_settings(struct pygraph_json *j, const struct pygraph_settings *s)
{
  pygraph_json_begin_object(j, "settings");
  pygraph_json_string(j, "mode", mode_name(s->mode));
  pygraph_json_uint(j, "warmup", pygraph_effective_warmup(s));
  pygraph_json_uint(j, "max_captures", s->max_captures);
  pygraph_json_uint(j, "variants", s->variants);
  pygraph_json_uint(j, "measure_iters", s->measure_iters);
  pygraph_json_uint(j, "margin_pct", s->margin_pct);
  pygraph_json_uint(j, "min_ops", s->min_ops);
  pygraph_json_uint(j, "max_ops", s->max_ops);
  pygraph_json_uint(j, "batch", s->batch);        /* 0: the plugin's batch= */
  pygraph_json_string(j, "indirect", indirect_name(s->indirect));
  pygraph_json_bool(j, "nvtx", s->nvtx);
  pygraph_json_end_object(j);
}

static void write_region(struct pygraph_json *j, const pygraph_region *r)
{
  pygraph_json_string(j, "function", r->function);
  pygraph_json_string(j, "file", r->file);
  pygraph_json_uint(j, "line_begin", r->line_begin);
  pygraph_json_uint(j, "line_end", r->line_end);
  pygraph_json_string(j, "region_kind", region_kind_name(r->kind));
  if (r->trip_count >= 0)
    pygraph_json_uint(j, "trip_count", (unsigned long long)r->trip_count);
  else
    pygraph_json_null(j, "trip_count");
}

static void write_counts(struct pygraph_json *j, const struct pygraph_segment_summary *s)
{
  pygraph_json_uint(j, "iters", s->iters);
  pygraph_json_uint(j, "eager_iters", s->eager_iters);
  pygraph_json_uint(j, "timed", s->timed);
  pygraph_json_uint(j, "replays", s->replays);
  pygraph_json_uint(j, "captures", s->captures);
  pygraph_json_uint(j, "rivals", s->rivals);
  pygraph_json_uint(j, "updates", s->updates);
  pygraph_json_uint(j, "refreshes", s->refreshes);
  pygraph_json_uint(j, "flushes", s->flushes);
  pygraph_json_uint(j, "mismatches", s->mismatches);
  pygraph_json_uint(j, "program_captured", s->program_captured);
  pygraph_json_uint(j, "launches_in_graphs", s->launches_in_graphs);
  pygraph_json_uint(j, "graph_iters", s->graph_iters);
  pygraph_json_uint(j, "variants", s->variants);
  pygraph_json_uint(j, "indirect_nodes", s->indirect_nodes);
  pygraph_json_uint(j, "indirect_bytes", s->indirect_bytes);
  pygraph_json_uint(j, "library_calls", s->library_calls);
}

static void write_batch(struct pygraph_json *j, const struct pygraph_segment_summary *s)
{
  if (!s->batched) {
    pygraph_json_null(j, "batch");
    return;
  }
  pygraph_json_begin_object(j, "batch");
  pygraph_json_uint(j, "k", s->batch_k);
  pygraph_json_bool(j, "given_up", s->batch_given_up);
  pygraph_json_double(j, "iters_per_graph", s->iters_per_graph);
  pygraph_json_uint(j, "tail_iters", s->tail_iters);
  pygraph_json_end_object(j);
}

static void write_pool(struct pygraph_json *j, const struct pygraph_segment_summary *s)
{
  if (!s->pool_allocated) {
    pygraph_json_null(j, "pool");
    return;
  }
  pygraph_json_begin_object(j, "pool");
  pygraph_json_uint(j, "served", s->pool_served);
  pygraph_json_uint(j, "blocks", s->pool_allocated);
  pygraph_json_uint(j, "bytes", s->pool_bytes);
  pygraph_json_string(j, "off", s->pool_off);
  pygraph_json_end_object(j);
}

/* device: the device the state runs on, -1 (null) when not known. */
static void write_segment(struct pygraph_json *j, const struct pygraph_segment_summary *s,
                          unsigned thread, unsigned threads, int device)
{
  pygraph_json_begin_object(j, NULL);
  write_region(j, s->region);
  pygraph_json_uint(j, "segment", s->index);
  pygraph_json_uint(j, "thread", thread);
  pygraph_json_uint(j, "threads", threads);
  if (device >= 0)
    pygraph_json_uint(j, "device", (unsigned)device);
  else
    pygraph_json_null(j, "device");
  pygraph_json_string(j, "mode", s->mode);
  pygraph_json_string(j, "decision", s->decision);
  pygraph_json_string(j, "why", text_or_null(s->why));
  pygraph_json_string(j, "fallback", text_or_null(s->fallback));
  pygraph_json_string(j, "last_flush", s->last_flush);
  pygraph_json_string(j, "verify", s->verify);
  pygraph_json_double(j, "eager_us", s->eager_us);
  pygraph_json_double(j, "graph_us", s->graph_us);
  write_counts(j, s);
  write_batch(j, s);
  write_pool(j, s);
  pygraph_json_end_object(j);
}

struct walk {
  struct pygraph_json *j;
  unsigned long long in_graphs;
  unsigned long long loop_kernels;           /* whole loops' WHILE graphs ran them */
  unsigned segments, graphed;                /* states; those with launches in graphs */
};

static void write_region_states(const struct pygraph_region_state *state, void *ctx)
{
  struct walk *w = ctx;
  for (unsigned i = 0; i < state->n_segments; i++) {
    unsigned threads = pygraph_region_thread_states(state, i);
    for (unsigned k = 0; k < PYGRAPH_THREAD_STATES; k++) {
      const struct pygraph_segment *seg = pygraph_region_thread_segment(state, i, k);
      if (!seg)
        continue;
      struct pygraph_segment_summary sum;
      pygraph_segment_summarize(seg, &sum);
      write_segment(w->j, &sum, k, threads, pygraph_region_thread_device(state, i, k));
      w->in_graphs += sum.launches_in_graphs;
      w->segments++;
      w->graphed += sum.launches_in_graphs != 0;
    }
  }
}

/* A whole loop (the `pygraph: whole loop` line's fields); the kernels its
 * WHILE graphs ran count as launches in graphs, as in the text report. */
static void write_whole_loop(const struct pygraph_whole_loop_summary *s, void *ctx)
{
  struct walk *w = ctx;
  struct pygraph_json *j = w->j;
  pygraph_json_begin_object(j, NULL);
  pygraph_json_string(j, "function", s->region->function);
  pygraph_json_string(j, "file", s->region->file);
  pygraph_json_uint(j, "line_begin", s->wl->line_begin);
  pygraph_json_uint(j, "line_end", s->wl->line_end);
  pygraph_json_string(j, "state", s->state);
  pygraph_json_string(j, "why", text_or_null(s->why));
  pygraph_json_uint(j, "executions", s->executions);
  pygraph_json_uint(j, "observed", s->observed);
  pygraph_json_uint(j, "graph_runs", s->graph_runs);
  pygraph_json_uint(j, "graph_iters", s->graph_iterations);
  pygraph_json_uint(j, "graph_kernels", s->graph_kernels);
  pygraph_json_uint(j, "launches", s->launches);
  pygraph_json_uint(j, "builds", s->builds);
  pygraph_json_uint(j, "fallbacks", s->fallbacks);
  pygraph_json_uint(j, "busy", s->busy);
  pygraph_json_string(j, "choice", s->choice);
  pygraph_json_double(j, "whole_us", s->whole_us);
  pygraph_json_double(j, "written_us", s->written_us);
  pygraph_json_string(j, "condition", s->condition ? s->condition : "-");
  if (s->condition_why)
    pygraph_json_string(j, "condition_why", s->condition_why);
  pygraph_json_end_object(j);
  w->loop_kernels += s->graph_kernels;
}

static void write_totals(struct pygraph_json *j, const struct walk *w,
                         unsigned long long launches)
{
  pygraph_json_begin_object(j, "totals");
  pygraph_json_uint(j, "launches", launches);
  pygraph_json_uint(j, "in_graphs", w->in_graphs);
  pygraph_json_double(j, "share_pct",
                      launches ? 100.0 * (double)w->in_graphs / (double)launches : 0.0);
  pygraph_json_uint(j, "segments", w->segments);
  pygraph_json_uint(j, "graphed_segments", w->graphed);
  pygraph_json_uint(j, "library_ws_bytes", pygraph_library_workspace_bytes());
  pygraph_json_uint(j, "library_errors", pygraph_library_failures());
  pygraph_json_uint(j, "driver_errors", pygraph_driver_launch_failures());
  pygraph_json_end_object(j);
}

int pygraph_report_write_json(FILE *f, const struct pygraph_settings *settings,
                              unsigned long long launches, long pid)
{
  struct pygraph_json j;
  pygraph_json_init(&j, f);
  pygraph_json_begin_object(&j, NULL);
  pygraph_json_uint(&j, "pygraph_report", PYGRAPH_REPORT_JSON_VERSION);
  pygraph_json_uint(&j, "pid", (unsigned long long)pid);
  write_settings(&j, settings);
  struct walk w = {.j = &j};
  pygraph_json_begin_array(&j, "segments");
  pygraph_region_states_foreach(write_region_states, &w);
  pygraph_json_end_array(&j);
  pygraph_json_begin_array(&j, "whole_loops");
  pygraph_whole_loops_foreach(write_whole_loop, &w);
  pygraph_json_end_array(&j);
  w.in_graphs += w.loop_kernels;
  write_totals(&j, &w, launches + w.loop_kernels);
  pygraph_json_end_object(&j);
  return ferror(f) || j.error ? -1 : 0;
}

char *pygraph_report_json_path(const char *pattern, long pid)
{
  char digits[24];
  int nd = snprintf(digits, sizeof digits, "%ld", pid);
  size_t cap = 1;
  for (const char *p = pattern; *p; p++)      /* an upper bound: every '%' a pid */
    cap += *p == '%' ? (size_t)nd : 1;
  char *path = malloc(cap);
  if (!path)
    return NULL;
  size_t n = 0;
  for (const char *p = pattern; *p; p++) {
    if (p[0] == '%' && p[1] == 'p') {
      memcpy(path + n, digits, (size_t)nd);
      n += (size_t)nd;
      p++;
    } else if (p[0] == '%' && p[1] == '%') {
      path[n++] = '%';
      p++;
    } else {
      path[n++] = *p;
    }
  }
  path[n] = '\0';
  return path;
}

void pygraph_report_json_at_exit(const char *pattern)
{
  long pid = (long)getpid();
  char *path = pygraph_report_json_path(pattern, pid);
  FILE *f = path ? fopen(path, "w") : NULL;
  if (!f) {
    fprintf(stderr, "pygraph: warning: cannot write the JSON report to %s: %s\n",
            path ? path : pattern, strerror(errno));
    free(path);
    return;
  }
  int failed = pygraph_report_write_json(f, pygraph_settings(), pygraph_total_launches(), pid);
  if (fclose(f) != 0 || failed)
    fprintf(stderr, "pygraph: warning: writing the JSON report %s failed\n", path);
  free(path);
}
