/* graph_plan.c - per-stream chains plus event edges, forwarded past ops
 * that only order. */
#include "graphs/graph_plan.h"

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

/* Adds op d as a dependency of node, or what d stands for when it has no
 * node; without duplicates. */
static void add_deps(const struct pygraph_graph_plan *plan, struct pygraph_plan_node *node,
                     size_t d)
{
  const struct pygraph_plan_node *dn = &plan->nodes[d];
  size_t one[1] = {d};
  const size_t *from = dn->form == PYGRAPH_PLAN_NONE ? dn->deps : one;
  unsigned n = dn->form == PYGRAPH_PLAN_NONE ? dn->n_deps : 1;
  for (unsigned k = 0; k < n; k++) {
    unsigned j = 0;
    while (j < node->n_deps && node->deps[j] != from[k])
      j++;
    if (j == node->n_deps)
      node->deps[node->n_deps++] = from[k];   /* <= 2 * FORWARD_MAX in all */
  }
}

int pygraph_graph_plan_make(const struct pygraph_op_list *ops, const unsigned char *untimed,
                            struct pygraph_graph_plan *plan)
{
  size_t n = ops->n_ops ? ops->n_ops : 1;
  memset(plan, 0, sizeof *plan);
  plan->nodes = calloc(n, sizeof *plan->nodes);
  plan->streams = calloc(n, sizeof *plan->streams);
  plan->after_ops = calloc(n, sizeof *plan->after_ops);
  plan->after_slot = calloc(n, sizeof *plan->after_slot);
  long *last = malloc(n * sizeof *last);     /* last node per stream, -1 = none */
  unsigned char *after = calloc(n, 1);       /* records made after the graph */
  if (!plan->nodes || !plan->streams || !plan->after_ops || !plan->after_slot || !last ||
      !after) {
    free(last);
    free(after);
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
  /* Made after the graph: a record some wait of the iteration joins (its
   * ordering job is done by edges then; another, one the host may be
   * polling while a later kernel waits for the host, say, keeps its node
   * and completes when the eager record would) - and not one a later
   * record of its event that keeps its node follows: the event must end
   * up holding the last record. */
  for (size_t i = 0; i < ops->n_ops; i++)
    if (ops->ops[i].kind == PYGRAPH_OP_EVENT_WAIT && ops->ops[i].wait_link >= 0)
      after[ops->ops[i].wait_link] = 1;
  for (size_t i = 0; i < ops->n_ops; i++)
    after[i] = after[i] && ops->ops[i].kind == PYGRAPH_OP_EVENT_RECORD && untimed && untimed[i];
  for (size_t i = ops->n_ops; i-- > 0;)
    if (ops->ops[i].kind == PYGRAPH_OP_EVENT_RECORD && !after[i])
      for (long k = ops->ops[i].wait_link; k >= 0 && after[k]; k = ops->ops[k].wait_link)
        after[k] = 0;

  for (size_t i = 0; i < ops->n_ops; i++) {
    const struct pygraph_op *op = &ops->ops[i];
    struct pygraph_plan_node *node = &plan->nodes[i];
    size_t s = stream_index(plan, op->stream);
    long before = plan->serialized ? (long)i - 1 : last[s];
    /* A wait joins the record it waits on; a record follows the previous
     * record of its event, so the last one is what the event holds after
     * the graph (as after the eager calls). */
    if (before >= 0)
      add_deps(plan, node, (size_t)before);
    if (op->wait_link >= 0)
      add_deps(plan, node, (size_t)op->wait_link);
    int orders_only = (op->kind == PYGRAPH_OP_EVENT_WAIT && op->wait_link >= 0) || after[i];
    if (orders_only)
      node->form = node->n_deps <= PYGRAPH_PLAN_FORWARD_MAX ? PYGRAPH_PLAN_NONE : PYGRAPH_PLAN_EMPTY;
    last[s] = (long)i;
    plan->after_slot[i] = -1;
    if (after[i]) {
      /* It supersedes the earlier record of its event it follows, when
       * that one is made after the graph too. */
      long prev = op->wait_link;
      if (prev >= 0 && plan->after_slot[prev] >= 0) {
        plan->after_slot[i] = plan->after_slot[prev];
        plan->after_slot[prev] = PYGRAPH_PLAN_SUPERSEDED;
      } else {
        plan->after_slot[i] = (long)plan->n_after++;
      }
      plan->after_ops[plan->after_slot[i]] = i;
    }
  }
  free(last);
  free(after);
  return 0;
}

int pygraph_graph_plan_for_capture(const struct pygraph_op_list *ops,
                                   const struct pygraph_backend *backend,
                                   struct pygraph_graph_plan *plan)
{
  enum { NOT_ASKED, TIMES, UNTIMED };
  unsigned char *answer = calloc(ops->n_ops ? ops->n_ops : 1, 1);
  if (!answer) {
    memset(plan, 0, sizeof *plan);
    return -1;
  }
  /* Only a record some wait joins can go after the graph: only those are
   * asked, each once. */
  for (size_t i = 0; backend->event_times && i < ops->n_ops; i++) {
    const struct pygraph_op *op = &ops->ops[i];
    if (op->kind != PYGRAPH_OP_EVENT_WAIT || op->wait_link < 0)
      continue;
    unsigned char *a = &answer[op->wait_link];
    if (*a == NOT_ASKED)
      *a = backend->event_times(ops->ops[op->wait_link].event) ? TIMES : UNTIMED;
  }
  for (size_t i = 0; i < ops->n_ops; i++)
    answer[i] = answer[i] == UNTIMED;
  int made = pygraph_graph_plan_make(ops, answer, plan);
  free(answer);
  return made;
}

void pygraph_graph_plan_free(struct pygraph_graph_plan *plan)
{
  free(plan->nodes);
  free(plan->streams);
  free(plan->after_ops);
  free(plan->after_slot);
  memset(plan, 0, sizeof *plan);
}
