/* graph_plan.c - per-stream chains plus event edges. */
#include "graph_plan.h"

#include <stdlib.h>
#include <string.h>

static size_t stream_index(struct pygraph_graph_plan *plan, cudaStream_t s)
{
  for (size_t i = 0; i < plan->n_streams; i++)
    if (plan->streams[i] == s)
      return i;
  plan->streams[plan->n_streams] = s;
  return plan->n_streams++;
}

/* The last record before op i of its event (same_stream 0) or on its
 * stream (1), or -1. */
static long previous_record(const struct pygraph_op_list *ops, size_t i, int same_stream)
{
  const struct pygraph_op *op = &ops->ops[i];
  for (size_t j = i; j-- > 0;)
    if (ops->ops[j].kind == PYGRAPH_OP_EVENT_RECORD &&
        (same_stream ? ops->ops[j].stream == op->stream : ops->ops[j].event == op->event))
      return (long)j;
  return -1;
}

static void add_dep(struct pygraph_plan_node *node, long dep)
{
  if (dep < 0)
    return;
  for (unsigned d = 0; d < node->n_deps; d++)
    if (node->deps[d] == (size_t)dep)
      return;
  node->deps[node->n_deps++] = (size_t)dep;
}

int pygraph_graph_plan_make(const struct pygraph_op_list *ops, struct pygraph_graph_plan *plan)
{
  size_t n = ops->n_ops ? ops->n_ops : 1;
  memset(plan, 0, sizeof *plan);
  plan->nodes = calloc(n, sizeof *plan->nodes);
  plan->streams = calloc(n, sizeof *plan->streams);
  long *last = malloc(n * sizeof *last);     /* last node per stream, -1 = none */
  long *through = malloc(n * sizeof *through);   /* what depending on op i means */
  if (!plan->nodes || !plan->streams || !last || !through) {
    free(last);
    free(through);
    pygraph_graph_plan_free(plan);
    return -1;
  }
  for (size_t i = 0; i < ops->n_ops; i++)
    stream_index(plan, ops->ops[i].stream);
  for (size_t i = 0; plan->n_streams > 1 && i < plan->n_streams; i++)
    if (plan->streams[i] == cudaStreamLegacy)
      plan->serialized = 1;
  for (size_t i = 0; i < n; i++)
    last[i] = -1;

  for (size_t i = 0; i < ops->n_ops; i++) {
    const struct pygraph_op *op = &ops->ops[i];
    struct pygraph_plan_node *node = &plan->nodes[i];
    size_t s = stream_index(plan, op->stream);
    long before = plan->serialized ? (long)i - 1 : last[s];
    add_dep(node, before);
    through[i] = (long)i;
    if (op->kind == PYGRAPH_OP_EVENT_RECORD && !plan->serialized) {
      /* A record is a leaf: its stream's later work and the waits on it
       * depend on what it depends on, so it is off every path (as stream
       * capture makes it an edge).  Records stay in order per event (the
       * last one is what the event holds after the graph) and per stream
       * (a timing stop never precedes its start). */
      add_dep(node, previous_record(ops, i, 0));
      add_dep(node, previous_record(ops, i, 1));
      through[i] = before;
      continue;                                /* last[s] stays `before` */
    }
    if (op->kind == PYGRAPH_OP_EVENT_WAIT && op->wait_link >= 0)
      add_dep(node, through[op->wait_link]);
    last[s] = (long)i;
  }
  free(last);
  free(through);
  return 0;
}

void pygraph_graph_plan_free(struct pygraph_graph_plan *plan)
{
  free(plan->nodes);
  free(plan->streams);
  memset(plan, 0, sizeof *plan);
}
