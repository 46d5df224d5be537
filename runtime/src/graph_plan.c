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

int pygraph_graph_plan_make(const struct pygraph_op_list *ops, struct pygraph_graph_plan *plan)
{
  size_t n = ops->n_ops ? ops->n_ops : 1;
  memset(plan, 0, sizeof *plan);
  plan->nodes = calloc(n, sizeof *plan->nodes);
  plan->streams = calloc(n, sizeof *plan->streams);
  long *last = malloc(n * sizeof *last);     /* last node per stream, -1 = none */
  if (!plan->nodes || !plan->streams || !last) {
    free(last);
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
    if (before >= 0)
      node->deps[node->n_deps++] = (size_t)before;
    /* A wait joins the record it waits on; a record follows the previous
     * record of its event, so the last one is what the event holds after
     * the graph (as after the eager calls). */
    if (op->wait_link >= 0 && op->wait_link != before)
      node->deps[node->n_deps++] = (size_t)op->wait_link;
    last[s] = (long)i;
  }
  free(last);
  return 0;
}

void pygraph_graph_plan_free(struct pygraph_graph_plan *plan)
{
  free(plan->nodes);
  free(plan->streams);
  memset(plan, 0, sizeof *plan);
}
