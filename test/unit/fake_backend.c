/* fake_backend.c - logging, failure-injecting pygraph_backend. */
#include "fake_backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi/library_calls.h"
#include "selection/capture_cost.h"
#include "graphs/graph_plan.h"
#include "graphs/indirect.h"
#include "graphs/while_clauses.h"
#include "graphs/while_graph.h"
#include "recording/param_cache.h"
#include "pygraph_layout_tag.h"

struct fake_config fake;
struct pygraph_while_spec fake_while_spec;
int fake_live_graphs;
int fake_layout_queries;
static char log_buf[1 << 18];
static size_t log_len;
int fake_twin_queries;
int fake_live_allocs;
int fake_args_calls, fake_launch_calls;
static int update_calls;
static unsigned eager_costs_used, graph_costs_used;   /* noisy timings (fake.*_costs) */

struct fake_graph {
  int updated_from_previous;
  struct fake_node *nodes;              /* what each op's node does (fake_memory.h) */
  size_t n_nodes;
  double kernels_us;                    /* GPU time of its kernels (fake.kernel_us) */
  /* indirect part */
  unsigned char *block;                 /* the device block */
  unsigned char *params;                /* the loaders' parameters (a copy) */
  size_t size;
  long *node_of_op;
  size_t *offset_of_node, n_ops;
  /* a WHILE graph: the condition block's state (the body runs until
   * pygraph_while_step says stop); if_from: where the body is split
   * (spec->split_after_copy), the first op of the IF body, whose nodes
   * run only when the after-copy step says so; 0: not split */
  struct pygraph_while_state *while_state;
  const struct pygraph_while_clauses *clauses;   /* NULL: the generic step */
  size_t if_from;
};

static struct fake_graph *last_launched;

int fake_live_timing_events;
int fake_timing_records, fake_timing_queries;
double fake_gpu_us, fake_host_us;
#define TIMING_BASE 0x100000ul
#define MAX_TIMING 65536
static double timing_stamp[MAX_TIMING];
static unsigned char timing_recorded[MAX_TIMING];
static unsigned next_timing;

static unsigned timing_id(cudaEvent_t e)
{
  return (unsigned)(((unsigned long)e - TIMING_BASE) % MAX_TIMING);
}

void fake_log_append(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(log_buf + log_len, sizeof log_buf - log_len, fmt, ap);
  va_end(ap);
  if (n > 0 && log_len + (size_t)n < sizeof log_buf)
    log_len += (size_t)n;
}

const char *fake_log(void)
{
  /* Tokens are written with a trailing space; drop the last one. */
  static char trimmed[sizeof log_buf];
  memcpy(trimmed, log_buf, log_len);
  trimmed[log_len && log_buf[log_len - 1] == ' ' ? log_len - 1 : log_len] = '\0';
  return trimmed;
}

void fake_log_clear(void)
{
  log_len = 0;
  log_buf[0] = '\0';
}

void fake_reset(void)
{
  pygraph_capture_cost_reset();      /* each test starts from the prior */
  memset(&fake, 0, sizeof fake);
  update_calls = 0;
  eager_costs_used = graph_costs_used = 0;
  fake_args_calls = fake_launch_calls = 0;
  fake_timing_records = fake_timing_queries = 0;
  fake_capture_queries = 0;
  fake_pointer_queries = 0;
  fake_driver_layout_queries = 0;
  fake_attribute_queries = 0;
  fake_host_bytes_queries = fake_symbol_queries = 0;
  fake_event_times_queries = 0;
  fake_range_depth = fake_range_pushes = fake_range_underflows = 0;
  fake_range_no_tool = 0;
  fake_device = 0;
  fake_device_queries = 0;
  fake_memory_reset_counts();
  fake_log_clear();
}

static unsigned long id_of(const void *p, unsigned long base)
{
  return (unsigned long)p - base;
}

static void log_op(const struct pygraph_op *op)
{
  switch (op->kind) {
  case PYGRAPH_OP_KERNEL:
    if (op->layout->n_params)
      fake_log_append("%c%lu(%d) ", op->driver ? 'd' : 'k', id_of(op->func, 0),
                      *(const int *)op->arg_ptrs[0]);
    else
      fake_log_append("%c%lu() ", op->driver ? 'd' : 'k', id_of(op->func, 0));
    break;
  case PYGRAPH_OP_MEMSET:
    fake_log_append("ms(%d) ", op->value);
    break;
  case PYGRAPH_OP_MEMCPY:
    fake_log_append("mc(%lu) ", (unsigned long)op->dst);
    break;
  case PYGRAPH_OP_EVENT_RECORD:
    fake_log_append("er%lu ", id_of(op->event, 0x200));
    break;
  case PYGRAPH_OP_EVENT_WAIT:
    fake_log_append("ew%lu ", id_of(op->event, 0x200));
    break;
  case PYGRAPH_OP_HOST_BYTES:
    fake_log_append("hb(%u) ", (unsigned)*(const unsigned char *)op->src);
    break;
  case PYGRAPH_OP_LIBRARY:
    fake_log_append("lib(%s) ", op->library->name);
    break;
  }
}

/* The GPU time of the next eager op or graph launch (fake_backend.h: noisy timings). */
static double next_cost(const double *costs, unsigned n, unsigned *used, double fixed)
{
  return costs && n ? costs[(*used)++ % n] : fixed;
}

/* The GPU time of a kernel op's kernel itself (fake.kernel_us), 0 for others. */
static double kernel_cost(const struct pygraph_op *op)
{
  unsigned long id = (unsigned long)op->func;
  return op->kind == PYGRAPH_OP_KERNEL && id < 64 ? fake.kernel_us[id] : 0.0;
}

/* A library op run eagerly, as cuda/library_capture.c runs it: a failing
 * call is reported (abi/library_calls.h). */
static cudaError_t execute_library(const struct pygraph_op *op)
{
  int status = op->library->run(op->library_args, NULL);
  if (status)
    pygraph_library_failed(op, status);
  fake_gpu_us += next_cost(fake.eager_costs, fake.n_eager_costs, &eager_costs_used,
                           fake.eager_op_us);
  return status ? cudaErrorUnknown : cudaSuccess;
}

static cudaError_t fake_execute(const struct pygraph_op *op)
{
  log_op(op);
  if (op->kind == PYGRAPH_OP_LIBRARY)
    return execute_library(op);
  struct fake_node node = fake_node_of(op);
  fake_memory_apply(&node);
  fake_node_release(&node);
  fake_gpu_us += next_cost(fake.eager_costs, fake.n_eager_costs, &eager_costs_used,
                           fake.eager_op_us) + kernel_cost(op);
  return cudaSuccess;
}

unsigned fake_layout_last_slots;

/* Func ids: 1..63 (int, long long), 64 none, FAKE_NO_LAYOUT no answer. */
static struct pygraph_param_layout *layout_of_id(const void *func)
{
  unsigned long id = (unsigned long)func;
  if (id == FAKE_NO_LAYOUT)
    return NULL;
  if (id == 64)
    return pygraph_param_layout_alloc(0);
  struct pygraph_param_layout *l = pygraph_param_layout_alloc(2);
  l->params[0].offset = 0;          /* int */
  l->params[0].size = 4;
  l->params[1].offset = 8;          /* long long */
  l->params[1].size = 8;
  l->total_size = 16;
  return l;
}

static struct pygraph_param_layout *fake_param_layout(const void *func, unsigned arg_slots)
{
  fake_layout_queries++;
  fake_layout_last_slots = arg_slots;
  return layout_of_id(func);
}

/* driver_param_layout: a CUfunction id describes as the host stub of the
 * same id does (fake_param_layout). */
int fake_driver_layout_queries;

static struct pygraph_param_layout *fake_driver_param_layout(const void *func,
                                                             unsigned arg_slots)
{
  fake_driver_layout_queries++;
  fake_layout_last_slots = arg_slots;
  return layout_of_id(func);
}

/* driver_context_ok: no unless fake.driver_other_context. */
static int fake_driver_context_ok(cudaStream_t stream)
{
  (void)stream;
  return !fake.driver_other_context;
}

int fake_pointer_queries;

static int fake_is_device(const void *p)
{
  int kind = fake_memory_kind(p);
  return kind ? kind > 0 : fake.memcpy_default_is_device;
}

int fake_attribute_queries;

/* func_attribute_holds: what fake.attribute_holds says, for any kernel. */
static int fake_attribute_holds(const void *func, int attr, int value)
{
  (void)func;
  (void)attr;
  (void)value;
  fake_attribute_queries++;
  return fake.attribute_holds;
}

static int fake_both_device(const void *dst, const void *src)
{
  fake_pointer_queries++;
  return fake_is_device(dst) && fake_is_device(src);
}

int fake_host_bytes_queries;

/* Pageable: memory the fake knows nothing of (a test's own variables). */
static int fake_host_bytes_source(const void *src)
{
  fake_host_bytes_queries++;
  return !fake.no_host_bytes && fake_memory_kind(src) == 0;
}

/* Pageable, as host_bytes_source: memory the fake knows nothing of. */
static int fake_host_only_memory(const void *p)
{
  return fake_memory_kind(p) == 0;
}

static int fake_device_range(const void *dst, size_t count)
{
  void *base;
  size_t size;
  return fake_allocation_of(dst, &base, &size) > 0 &&
         count <= size - (size_t)((const unsigned char *)dst - (unsigned char *)base);
}

int fake_symbol_queries;

static int fake_symbol_range(const void *symbol, void **address, size_t *size)
{
  fake_symbol_queries++;
  void *base;
  if (symbol == FAKE_NO_SYMBOL || fake_allocation_of(symbol, &base, size) <= 0)
    return 0;
  *address = (void *)symbol;
  *size -= (size_t)((const unsigned char *)symbol - (unsigned char *)base);
  return 1;
}

char fake_programmatic[1024];
int fake_occupancy_queries;
int fake_event_times_queries;

static void note_programmatic(const struct pygraph_op_list *ops,
                              const struct pygraph_graph_plan *plan)
{
  size_t len = 0;
  fake_programmatic[0] = '\0';
  for (size_t i = 0; i < ops->n_ops; i++)
    for (unsigned d = 0; d < plan->nodes[i].n_deps; d++)
      if (plan->nodes[i].programmatic[d] && len + 48 < sizeof fake_programmatic)
        len += (size_t)snprintf(fake_programmatic + len, sizeof fake_programmatic - len,
                                " %zu>%zu", plan->nodes[i].deps[d], i);
}

static int fake_event_times(cudaEvent_t event)
{
  fake_event_times_queries++;
  unsigned long id = (unsigned long)event - (unsigned long)FAKE_EVENT(0);
  int untimed_id = id < 32 && (fake.untimed_event_ids >> id & 1u);
  return !(fake.untimed_events || untimed_id);
}

static cudaError_t fake_resident_blocks(const void *func, unsigned threads, size_t smem,
                                        long long *blocks)
{
  (void)func;
  (void)threads;
  (void)smem;
  fake_occupancy_queries++;
  if (fake.fail_occupancy)
    return cudaErrorInvalidValue;
  *blocks = fake.resident_blocks ? fake.resident_blocks : 1 << 20;
  return cudaSuccess;
}

/* Logs the plan as <op>[<deps]... so tests see the edges: an op without a
 * node shows as <op>~, an empty node as <op>:e; then the records made
 * after the graph as "; after <op>,...". */
static void log_plan(const struct pygraph_op_list *ops, const struct pygraph_graph_plan *plan)
{
  for (size_t i = 0; i < ops->n_ops; i++) {
    const struct pygraph_plan_node *pn = &plan->nodes[i];
    fake_log_append("%s%zu", i ? " " : "", i);
    if (pn->form == PYGRAPH_PLAN_NONE) {
      fake_log_append("~");
      continue;
    }
    if (pn->form == PYGRAPH_PLAN_EMPTY)
      fake_log_append(":e");
    if (ops->ops[i].kind == PYGRAPH_OP_LIBRARY)
      fake_log_append("L");
    if (ops->ops[i].kind == PYGRAPH_OP_KERNEL && ops->ops[i].driver)
      fake_log_append("D");
    for (unsigned d = 0; d < pn->n_deps; d++)
      fake_log_append("%s%zu", d ? "," : "<", pn->deps[d]);
  }
  for (size_t k = 0; k < plan->n_after; k++)
    fake_log_append("%s%zu", k ? "," : "; after ", plan->after_ops[k]);
}

/* A fake graph of the ops' nodes (and the indirect part, logged). */
static struct fake_graph *fake_graph_of(const struct pygraph_op_list *ops,
                                        const struct pygraph_indirect_graph *ind)
{
  struct fake_graph *g = calloc(1, sizeof *g);
  g->nodes = malloc((ops->n_ops ? ops->n_ops : 1) * sizeof *g->nodes);
  g->n_nodes = ops->n_ops;
  for (size_t i = 0; i < ops->n_ops; i++) {
    g->nodes[i] = fake_node_of(&ops->ops[i]);
    g->kernels_us += kernel_cost(&ops->ops[i]);
  }
  if (ind && ind->ind->n_nodes) {
    const struct pygraph_indirect *in = ind->ind;
    fake_log_append("; ind");
    for (size_t n = 0; n < in->n_nodes; n++)
      fake_log_append(" %zu@%zu%s", in->nodes[n].op, in->nodes[n].offset,
                      in->nodes[n].waits ? "w" : "");
    fake_log_append(" %zuB/%zuL", in->block_size, ind->args->n_chunks);
    /* What the real graph would hold: the slice of each indirect op, and
     * the loaders' parameters as they are now. */
    g->block = ind->args->device_block;
    g->size = in->block_size;
    g->params = malloc(in->block_size);
    memcpy(g->params, ind->args->host, in->block_size);
    g->n_ops = ops->n_ops;
    g->node_of_op = malloc(ops->n_ops * sizeof *g->node_of_op);
    g->offset_of_node = malloc(in->n_nodes * sizeof *g->offset_of_node);
    memcpy(g->node_of_op, in->node_of_op, ops->n_ops * sizeof *g->node_of_op);
    for (size_t n = 0; n < in->n_nodes; n++)
      g->offset_of_node[n] = in->nodes[n].offset;
  }
  return g;
}

/* Each library op's call captured, as graph_realise.c captures it: its
 * run into FAKE_CAPTURE_STREAM.  0, or the status of the one that failed
 * (logged lib!(<name>)). */
static int capture_library_ops(const struct pygraph_op_list *ops)
{
  for (size_t i = 0; i < ops->n_ops; i++) {
    const struct pygraph_op *op = &ops->ops[i];
    int status = op->kind == PYGRAPH_OP_LIBRARY
                     ? op->library->run(op->library_args, FAKE_CAPTURE_STREAM)
                     : 0;
    if (status) {
      fake_log_append("lib!(%s) ", op->library->name);
      return status;
    }
  }
  return 0;
}

/* Logs the plan as build(<plan>) (log_plan); a library op's node is
 * captured from its call first (capture_library_ops), and a failed one
 * fails the build. */
static cudaError_t fake_build(const struct pygraph_op_list *ops,
                              const struct pygraph_graph_plan *plan,
                              const struct pygraph_indirect_graph *ind, void **graph)
{
  if (fake.fail_build) {
    fake_log_append("build! ");
    return cudaErrorInvalidValue;
  }
  if (capture_library_ops(ops)) {
    fake_log_append("build! ");
    return cudaErrorUnknown;
  }
  fake_host_us += fake.capture_host_us;
  fake_log_append("build(");
  log_plan(ops, plan);
  struct fake_graph *g = fake_graph_of(ops, ind);
  fake_log_append(") ");
  note_programmatic(ops, plan);
  *graph = g;
  fake_live_graphs++;
  return cudaSuccess;
}

/* A WHILE graph: logs wbuild(<plan>; status <op>) and keeps the spec; the
 * status copy's node writes the condition block's status instead.
 * fake.fail_while_step fails it with that step name. */
static cudaError_t fake_while_build(const struct pygraph_op_list *ops,
                                    const struct pygraph_graph_plan *plan,
                                    const struct pygraph_indirect_graph *ind,
                                    const struct pygraph_while_spec *spec, void **graph,
                                    const char **step)
{
  *graph = NULL;
  if (fake.fail_while_step) {
    fake_log_append("wbuild! ");
    *step = fake.fail_while_step;
    return cudaErrorInvalidValue;
  }
  fake_log_append("wbuild(");
  log_plan(ops, plan);
  if (spec->status_op == PYGRAPH_WHILE_NO_STATUS)
    fake_log_append("; no status");
  else
    fake_log_append("; status %zu%s%s", spec->status_op, spec->status_folded ? " folded" : "",
                    spec->split_after_copy ? " if" : "");
  struct fake_graph *g = fake_graph_of(ops, ind);
  fake_log_append(") ");
  g->while_state = spec->state;
  g->clauses = spec->clauses;
  g->if_from = spec->split_after_copy ? spec->status_op + 1 : 0;
  if (spec->status_op == PYGRAPH_WHILE_NO_STATUS)
    ;                            /* a counted loop: no status copy */
  else if (spec->status_folded)  /* no node: the condition step copies the status */
    g->nodes[spec->status_op] = (struct fake_node){0};
  else
    g->nodes[spec->status_op].dst = spec->status;
  fake_while_spec = *spec;
  *graph = g;
  fake_live_graphs++;
  return cudaSuccess;
}

static void fake_destroy(void *graph)
{
  if (!graph)
    return;
  fake_log_append("destroy ");
  fake_live_graphs--;
  struct fake_graph *g = graph;
  if (last_launched == g)
    last_launched = NULL;
  free(g->node_of_op);
  free(g->offset_of_node);
  free(g->params);
  for (size_t i = 0; i < g->n_nodes; i++)
    fake_node_release(&g->nodes[i]);
  free(g->nodes);
  free(g);
}

static cudaError_t fake_instantiate(void *graph, void *previous)
{
  if (fake.fail_instantiate) {
    fake_log_append("inst! ");
    return cudaErrorInvalidValue;
  }
  struct fake_graph *prev = previous;
  /* Like cudaGraphExecUpdate: only with the same shape (here: both with or
   * both without indirect nodes). */
  struct fake_graph *g = graph;
  if (prev && fake.exec_update_ok && !prev->size == !g->size && !prev->while_state &&
      !g->while_state) {
    fake_log_append("xupd ");
    g->updated_from_previous = 1;
  } else {
    fake_log_append("inst ");
  }
  fake_destroy(previous);
  return cudaSuccess;
}

static cudaError_t fake_update_node(void *graph, size_t index, const struct pygraph_op *op)
{
  struct fake_graph *g = graph;
  if (op->kind == PYGRAPH_OP_LIBRARY) {      /* refused, as graph_realise.c refuses it */
    fake_log_append("upd%zu! ", index);
    return cudaErrorNotSupported;
  }
  if (++update_calls == fake.fail_update_at) {
    fake_log_append("upd%zu! ", index);
    return cudaErrorInvalidValue;
  }
  fake_log_append("upd%zu ", index);
  if (!fake.stale_updates && index < g->n_nodes) {
    fake_node_release(&g->nodes[index]);
    g->nodes[index] = fake_node_of(op);
  }
  fake_gpu_us += fake.update_us;
  return cudaSuccess;
}

/* The work of the graph's nodes [first, end) on fake memory, in op order;
 * an indirect node reads its arguments from its slice of the device
 * block. */
static void run_nodes_of(const struct fake_graph *g, size_t first, size_t end)
{
  for (size_t i = first; i < end && i < g->n_nodes; i++) {
    struct fake_node node = g->nodes[i];
    if (g->size && i < g->n_ops && g->node_of_op[i] >= 0 && node.has_args) {
      const unsigned char *slice = g->block + g->offset_of_node[g->node_of_op[i]];
      memcpy(&node.arg0, slice, sizeof node.arg0);
      memcpy(&node.arg1, slice + 8, sizeof node.arg1);
    }
    fake_memory_apply(&node);
  }
}

static void run_nodes(const struct fake_graph *g)
{
  run_nodes_of(g, 0, g->n_nodes);
}

/* One iteration of the WHILE body: every node, or where it is split, the
 * nodes up to the status copy, the after-copy kernel's step, and the IF
 * body's nodes only when that step answers 1. */
static void run_body(const struct fake_graph *g)
{
  if (!g->if_from) {
    run_nodes(g);
    return;
  }
  run_nodes_of(g, 0, g->if_from);
  if (g->clauses ? pygraph_while_clauses_after_copy(g->while_state, g->clauses)
                 : pygraph_while_test_after_copy(g->while_state))
    run_nodes_of(g, g->if_from, g->n_nodes);
  else
    fake_log_append("ifskip ");
}

/* The step the body's last node makes: over the loop's compiled form
 * where it has one (the text the fast kernel's lanes run), else the
 * generic step. */
static unsigned condition_step(const struct fake_graph *g)
{
  return g->clauses ? pygraph_while_clauses_step(g->while_state, g->clauses)
                    : pygraph_while_step(g->while_state);
}

/* The WHILE node: the body, then the condition kernel's step (the text the
 * device runs), until it says stop (or FAKE_WHILE_GUARD iterations). */
static void run_while(const struct fake_graph *g)
{
  unsigned long n = 0;
  do {
    run_body(g);
    n++;
  } while (condition_step(g) && n < FAKE_WHILE_GUARD);
  fake_host_us += (double)n * fake.while_iteration_host_us;
  fake_log_append("wloop(%lu%s) ", n, n == FAKE_WHILE_GUARD ? "!" : "");
}

static cudaError_t fake_launch(void *graph, int *ran)
{
  struct fake_graph *g = graph;
  if (fake.fail_launch || (fake.fail_on_device && fake.fail_on_device == fake_device + 1)) {
    *ran = fake.launch_ran_before_failing;
    fake_log_append("launch! ");
    return cudaErrorLaunchFailure;
  }
  *ran = 1;
  fake_log_append("launch ");
  fake_launch_calls++;
  fake_gpu_us += next_cost(fake.graph_costs, fake.n_graph_costs, &graph_costs_used,
                           fake.graph_launch_us) + g->kernels_us;
  if (g->size) {                        /* the loaders run first */
    memcpy(g->block, g->params, g->size);
    fake_gpu_us += fake.loader_us;
  }
  if (g->while_state)
    run_while(g);
  else
    run_nodes(g);
  last_launched = g;
  return cudaSuccess;
}

int fake_block_arg0(size_t op)
{
  struct fake_graph *g = last_launched;
  if (!g || !g->size || op >= g->n_ops || g->node_of_op[op] < 0)
    return -999;
  int v;
  memcpy(&v, g->block + g->offset_of_node[g->node_of_op[op]], sizeof v);
  return v;
}

/* ---- parameter indirection ------------------------------------------ */

static const char *fake_twin_check(const void *twin, struct pygraph_twin_info *info)
{
  fake_twin_queries++;
  if (fake.bad_twin && twin == FAKE_TWIN(fake.bad_twin))
    return "cudaErrorInvalidDeviceFunction";
  info->max_threads_per_block = fake.twin_max_threads ? fake.twin_max_threads : 1024;
  info->max_dynamic_smem = fake.twin_max_smem ? fake.twin_max_smem : 48 * 1024;
  info->waits = (unsigned long)twin >= (unsigned long)FAKE_TWIN(FAKE_WAITING_TWINS);
  static const unsigned long long standard[] = {0, 4, 8, 8};   /* int, long long */
  unsigned tag = pygraph_layout_tag_bytes(standard, 2);
  info->layout_tag = twin == FAKE_TWIN(FAKE_TAGGED_TWIN)      ? tag
                     : twin == FAKE_TWIN(FAKE_MISTAGGED_TWIN) ? tag % PYGRAPH_LAYOUT_TAG_MAX + 1
                                                              : 0;
  return NULL;
}

static cudaError_t fake_device_alloc(void **ptr, size_t size)
{
  if (fake.fail_device_alloc) {
    fake_log_append("dalloc! ");
    return cudaErrorMemoryAllocation;
  }
  *ptr = calloc(1, size);
  fake_memory_register(*ptr, size);
  fake_live_allocs++;
  return cudaSuccess;
}

static void fake_free(void *ptr)
{
  fake_memory_forget(ptr);
  free(ptr);
  fake_live_allocs--;
}

static void fake_event_destroy(cudaEvent_t event)
{
  timing_recorded[timing_id(event)] = 0;
  fake_live_timing_events--;
}

static cudaError_t fake_set_args(void *graph, const struct pygraph_arg_block *args)
{
  struct fake_graph *g = graph;
  if (++fake_args_calls == fake.fail_args_at) {
    fake_log_append("args! ");
    return cudaErrorInvalidValue;
  }
  fake_log_append("args ");
  /* The block must be the one the graph was built for, and the update
   * copies the image now, as the real one does. */
  if (args->device_block != g->block || args->size != g->size) {
    fake_log_append("args?! ");
    return cudaErrorInvalidValue;
  }
  memcpy(g->params, args->host, g->size);
  fake_gpu_us += fake.update_us;
  return cudaSuccess;
}

static int fake_graph_synchronize(void *graph)
{
  (void)graph;
  if (fake.launch_stream_captured) {
    fake_log_append("gsync! ");
    return 0;
  }
  fake_log_append("gsync ");
  return 1;
}

/* ---- the program's own captures ---------------------------------------- */

int fake_capture_queries;

static int fake_stream_captured(cudaStream_t stream)
{
  fake_capture_queries++;
  unsigned long id = (unsigned long)stream - 0x100;
  return id < 32 && ((fake.captured_streams >> id) & 1u);
}

/* ---- timing ----------------------------------------------------------- */

static cudaError_t fake_timing_event_create(cudaEvent_t *event)
{
  if (!fake.timing)
    return cudaErrorNotSupported;
  unsigned id = next_timing++ % MAX_TIMING;
  timing_recorded[id] = 0;
  *event = (cudaEvent_t)(TIMING_BASE + id);
  fake_live_timing_events++;
  return cudaSuccess;
}

static cudaError_t fake_stream_event_record(cudaEvent_t event, cudaStream_t stream)
{
  (void)stream;
  fake_timing_records++;
  timing_stamp[timing_id(event)] = fake_gpu_us;
  timing_recorded[timing_id(event)] = 1;
  return cudaSuccess;
}

static cudaError_t fake_event_query(cudaEvent_t event)
{
  fake_timing_queries++;
  if (!timing_recorded[timing_id(event)])
    return cudaErrorInvalidResourceHandle;
  if (fake.events_pending)
    return cudaErrorNotReady;
  /* A GPU events_lag_us behind: an event is done once that much more
   * GPU work was queued after it. */
  return fake_gpu_us - timing_stamp[timing_id(event)] < fake.events_lag_us ? cudaErrorNotReady
                                                                          : cudaSuccess;
}

static cudaError_t fake_event_elapsed(float *ms, cudaEvent_t start, cudaEvent_t end)
{
  *ms = (float)((timing_stamp[timing_id(end)] - timing_stamp[timing_id(start)]) / 1000.0);
  return cudaSuccess;
}

int fake_clock_reads;

static double fake_now_us(void)
{
  fake_clock_reads++;
  return fake_host_us;
}

static void fake_clear_error(void)
{
  fake_log_append("clear ");
}

static const char *fake_error_name(cudaError_t err)
{
  switch (err) {
  case cudaErrorInvalidValue:
    return "cudaErrorInvalidValue";
  case cudaErrorLaunchFailure:
    return "cudaErrorLaunchFailure";
  case cudaErrorMemoryAllocation:
    return "cudaErrorMemoryAllocation";
  default:
    return "cudaErrorUnknown";
  }
}

_Thread_local int fake_device;
int fake_device_queries;

static cudaError_t fake_get_device(int *device)
{
  fake_device_queries++;
  *device = fake_device;
  return cudaSuccess;
}

/* Logged only when the device changes (CUDA's call is cheap then too). */
static cudaError_t fake_set_device(int device)
{
  if (device < 0 || device >= (fake.devices ? fake.devices : 1)) {
    fake_log_append("dev%d! ", device);
    return cudaErrorInvalidDevice;
  }
  if (device != fake_device)
    fake_log_append("dev%d ", device);
  fake_device = device;
  return cudaSuccess;
}

/* Fake buffers (fake_memory.h) are device 0's memory, unless
 * fake.buffer_device says otherwise. */
static int fake_pointer_device(const void *ptr)
{
  return fake_is_device(ptr) ? fake.buffer_device : -1;
}

int fake_range_depth, fake_range_pushes, fake_range_underflows;
unsigned fake_range_last_colour;

static void fake_range_push(const char *name, unsigned argb)
{
  fake_range_depth++;
  fake_range_pushes++;
  fake_range_last_colour = argb;
  if (fake.log_ranges)
    fake_log_append("[%s ", name);
}

int fake_range_no_tool;

static int fake_range_tool(void)
{
  return !fake_range_no_tool;
}

static void fake_range_pop(void)
{
  if (fake_range_depth == 0)
    fake_range_underflows++;
  else
    fake_range_depth--;
  if (fake.log_ranges)
    fake_log_append("] ");
}

const struct pygraph_backend fake_backend = {
    .execute = fake_execute,
    .param_layout = fake_param_layout,
    .driver_param_layout = fake_driver_param_layout,
    .driver_context_ok = fake_driver_context_ok,
    .both_device_memory = fake_both_device,
    .func_attribute_holds = fake_attribute_holds,
    .host_bytes_source = fake_host_bytes_source,
    .host_only_memory = fake_host_only_memory,
    .device_range = fake_device_range,
    .symbol_range = fake_symbol_range,
    .graph_build = fake_build,
    .while_graph_build = fake_while_build,
    .graph_instantiate = fake_instantiate,
    .graph_update_node = fake_update_node,
    .graph_launch = fake_launch,
    .graph_destroy = fake_destroy,
    .twin_check = fake_twin_check,
    .resident_blocks = fake_resident_blocks,
    .allocation_of = fake_allocation_of,
    .memory_copy = fake_memory_copy,
    .stream_synchronize = fake_stream_synchronize,
    .device_alloc = fake_device_alloc,
    .device_free = fake_free,
    .event_destroy = fake_event_destroy,
    .event_times = fake_event_times,
    .graph_set_args = fake_set_args,
    .graph_synchronize = fake_graph_synchronize,
    .timing_event_create = fake_timing_event_create,
    .event_record = fake_stream_event_record,
    .event_query = fake_event_query,
    .event_elapsed_ms = fake_event_elapsed,
    .now_us = fake_now_us,
    .stream_captured = fake_stream_captured,
    .clear_error = fake_clear_error,
    .error_name = fake_error_name,
    .get_device = fake_get_device,
    .set_device = fake_set_device,
    .pointer_device = fake_pointer_device,
    .range_push = fake_range_push,
    .range_pop = fake_range_pop,
    .range_tool = fake_range_tool,
};
