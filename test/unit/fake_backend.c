/* fake_backend.c - logging, failure-injecting pygraph_backend. */
#include "fake_backend.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph_plan.h"

struct fake_config fake;
int fake_live_graphs;
int fake_layout_queries;
static char log_buf[8192];
static size_t log_len;
static int update_calls;

struct fake_graph {
  int updated_from_previous;
};

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
  memset(&fake, 0, sizeof fake);
  update_calls = 0;
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
      fake_log_append("k%lu(%d) ", id_of(op->func, 0), *(const int *)op->arg_ptrs[0]);
    else
      fake_log_append("k%lu() ", id_of(op->func, 0));
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
  }
}

static cudaError_t fake_execute(const struct pygraph_op *op)
{
  log_op(op);
  return cudaSuccess;
}

static struct pygraph_param_layout *fake_param_layout(const void *func)
{
  fake_layout_queries++;
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

static int fake_both_device(const void *dst, const void *src)
{
  (void)dst;
  (void)src;
  return fake.memcpy_default_is_device;
}

/* Logs the plan as build(<node>[<-deps]...) so tests see the edges. */
static cudaError_t fake_build(const struct pygraph_op_list *ops, void **graph)
{
  if (fake.fail_build) {
    fake_log_append("build! ");
    return cudaErrorInvalidValue;
  }
  struct pygraph_graph_plan plan;
  if (pygraph_graph_plan_make(ops, &plan))
    return cudaErrorMemoryAllocation;
  fake_log_append("build(");
  for (size_t i = 0; i < ops->n_ops; i++) {
    fake_log_append("%s%zu", i ? " " : "", i);
    for (unsigned d = 0; d < plan.nodes[i].n_deps; d++)
      fake_log_append("%s%zu", d ? "," : "<", plan.nodes[i].deps[d]);
  }
  fake_log_append(") ");
  pygraph_graph_plan_free(&plan);
  *graph = calloc(1, sizeof(struct fake_graph));
  fake_live_graphs++;
  return cudaSuccess;
}

static void fake_destroy(void *graph)
{
  if (!graph)
    return;
  fake_log_append("destroy ");
  fake_live_graphs--;
  free(graph);
}

static cudaError_t fake_instantiate(void *graph, void *previous)
{
  if (fake.fail_instantiate) {
    fake_log_append("inst! ");
    return cudaErrorInvalidValue;
  }
  if (previous && fake.exec_update_ok) {
    fake_log_append("xupd ");
    ((struct fake_graph *)graph)->updated_from_previous = 1;
  } else {
    fake_log_append("inst ");
  }
  fake_destroy(previous);
  return cudaSuccess;
}

static cudaError_t fake_update_node(void *graph, size_t index, const struct pygraph_op *op)
{
  (void)graph;
  (void)op;
  if (++update_calls == fake.fail_update_at) {
    fake_log_append("upd%zu! ", index);
    return cudaErrorInvalidValue;
  }
  fake_log_append("upd%zu ", index);
  return cudaSuccess;
}

static cudaError_t fake_launch(void *graph, int *ran)
{
  (void)graph;
  if (fake.fail_launch) {
    *ran = fake.launch_ran_before_failing;
    fake_log_append("launch! ");
    return cudaErrorLaunchFailure;
  }
  *ran = 1;
  fake_log_append("launch ");
  return cudaSuccess;
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
  default:
    return "cudaErrorUnknown";
  }
}

const struct pygraph_backend fake_backend = {
    .execute = fake_execute,
    .param_layout = fake_param_layout,
    .both_device_memory = fake_both_device,
    .graph_build = fake_build,
    .graph_instantiate = fake_instantiate,
    .graph_update_node = fake_update_node,
    .graph_launch = fake_launch,
    .graph_destroy = fake_destroy,
    .clear_error = fake_clear_error,
    .error_name = fake_error_name,
};
