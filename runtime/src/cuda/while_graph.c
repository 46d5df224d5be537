/* while_graph.c (cuda) - a whole-loop graph made real: the argument
 * loaders, a conditional WHILE node (handle default 1, applied at every
 * launch), and in its body the plan's nodes and the condition kernel
 * (graphs/while_graph.h).  The result is a graph_realise.c graph, so the
 * port's instantiate, set_args, launch, synchronize and destroy take it. */
#include "cuda/while_graph.h"

#include <stdlib.h>
#include <string.h>

#include "cuda/condition_module.h"
#include "cuda/graph_realise.h"
#include "cuda/graph_realise_internal.h"
#include "graphs/while_graph.h"

/* The WHILE node in g->graph after the loaders; g->body becomes its body. */
static cudaError_t add_while_node(struct cuda_graph *g, cudaGraphConditionalHandle handle)
{
  struct cudaGraphNodeParams p;
  memset(&p, 0, sizeof p);             /* reserved fields must be zero */
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = handle;
  p.conditional.type = cudaGraphCondTypeWhile;
  p.conditional.size = 1;
  cudaGraphNode_t node;
  cudaError_t err = cudaGraphAddNode(&node, g->graph, g->loaders, NULL, g->n_loaders, &p);
  if (err == cudaSuccess)
    g->body = p.conditional.phGraph_out[0];
  return err;
}

/* Does op i have a node in the body? */
static int in_body(const struct pygraph_graph_plan *plan, const struct pygraph_while_spec *spec,
                   size_t i)
{
  return plan->nodes[i].form != PYGRAPH_PLAN_NONE && !(spec->status_folded && i == spec->status_op);
}

/* The body's nodes no other body node depends on, into sinks (n_ops
 * entries); how many.  A folded status copy has no node: what it
 * depended on is what the condition kernel follows. */
static size_t body_sinks(const struct cuda_graph *g, const struct pygraph_graph_plan *plan,
                         const struct pygraph_while_spec *spec, size_t n_ops,
                         unsigned char *used, cudaGraphNode_t *sinks)
{
  memset(used, 0, n_ops);
  for (size_t i = 0; i < n_ops; i++)
    for (unsigned d = 0; in_body(plan, spec, i) && d < plan->nodes[i].n_deps; d++)
      used[plan->nodes[i].deps[d]] = 1;
  size_t n = 0;
  for (size_t i = 0; i < n_ops; i++)
    if (in_body(plan, spec, i) && !used[i])
      sinks[n++] = g->nodes[i];
  return n;
}

/* The condition kernel, one thread, (state, handle), after the sinks. */
static cudaError_t add_condition_node(struct cuda_graph *g, const struct pygraph_graph_plan *plan,
                                      const struct pygraph_while_spec *spec, size_t n_ops,
                                      cudaKernel_t kernel, cudaGraphConditionalHandle handle)
{
  void *state = spec->state;
  unsigned char *used = malloc(n_ops ? n_ops : 1);
  cudaGraphNode_t *sinks = malloc((n_ops ? n_ops : 1) * sizeof *sinks);
  cudaError_t err = cudaErrorMemoryAllocation;
  if (used && sinks) {
    size_t n = body_sinks(g, plan, spec, n_ops, used, sinks);
    void *params[2] = {&state, &handle};   /* copied by cudaGraphAddKernelNode */
    struct cudaKernelNodeParams p;
    memset(&p, 0, sizeof p);
    p.func = (void *)kernel;
    p.gridDim = (dim3){1, 1, 1};
    p.blockDim = (dim3){1, 1, 1};
    p.kernelParams = params;
    cudaGraphNode_t node;
    err = cudaGraphAddKernelNode(&node, g->body, sinks, n, &p);
  }
  free(used);
  free(sinks);
  return err;
}

/* The plan's nodes in the body; the status copy reads its source into the
 * condition block instead of the host, or is left to the condition kernel
 * (spec->status_folded). */
static cudaError_t add_body(struct cuda_graph *g, const struct pygraph_op_list *ops,
                            const struct pygraph_graph_plan *plan,
                            const struct pygraph_indirect_graph *ind,
                            const struct pygraph_while_spec *spec)
{
  for (size_t i = 0; i < ops->n_ops; i++) {
    struct pygraph_op status_copy;
    const struct pygraph_op *op = &ops->ops[i];
    if (i == spec->status_op) {
      status_copy = *op;
      status_copy.dst = spec->status;
      status_copy.memcpy_kind = cudaMemcpyDeviceToDevice;
      op = &status_copy;
    }
    if (in_body(plan, spec, i)) {
      cudaError_t err = pygraph_cuda_graph_add_op(g, i, op, &plan->nodes[i], ind);
      if (err != cudaSuccess)
        return err;
    }
    g->n_nodes = i + 1;
  }
  return cudaSuccess;
}

static cudaError_t failed(const char **step, const char *name, cudaError_t err)
{
  *step = name;
  return err;
}

static cudaError_t build(struct cuda_graph *g, const struct pygraph_op_list *ops,
                         const struct pygraph_graph_plan *plan,
                         const struct pygraph_indirect_graph *ind,
                         const struct pygraph_while_spec *spec, const char **step)
{
  cudaKernel_t kernel;
  cudaGraphConditionalHandle handle;
  cudaError_t err;
  if ((err = pygraph_cuda_condition_kernel(&kernel)) != cudaSuccess)
    return failed(step, "condition kernel load", err);
  if ((err = cudaGraphCreate(&g->graph, 0)) != cudaSuccess)
    return failed(step, "graph create", err);
  g->body = NULL;
  if (ind && ind->args->n_chunks > PYGRAPH_LOADER_MAX_EXTRA)
    return failed(step, "argument loaders", cudaErrorInvalidValue);
  if (ind && (err = pygraph_cuda_graph_add_loaders(g, ind->args)) != cudaSuccess)
    return failed(step, "argument loaders", err);
  err = cudaGraphConditionalHandleCreate(&handle, g->graph, 1, cudaGraphCondAssignDefault);
  if (err != cudaSuccess)
    return failed(step, "conditional handle create", err);
  if ((err = add_while_node(g, handle)) != cudaSuccess)
    return failed(step, "while node", err);
  if ((err = add_body(g, ops, plan, ind, spec)) != cudaSuccess)
    return failed(step, "body node", err);
  err = add_condition_node(g, plan, spec, ops->n_ops, kernel, handle);
  if (err != cudaSuccess)
    return failed(step, "condition node", err);
  if ((err = pygraph_cuda_graph_add_join(g)) != cudaSuccess)
    return failed(step, "join event", err);
  return cudaSuccess;
}

cudaError_t pygraph_cuda_while_graph_build(const struct pygraph_op_list *ops,
                                           const struct pygraph_graph_plan *plan,
                                           const struct pygraph_indirect_graph *ind,
                                           const struct pygraph_while_spec *spec, void **out,
                                           const char **step)
{
  *out = NULL;
  struct cuda_graph *g;
  *step = "while graph host alloc";
  cudaError_t err = pygraph_cuda_graph_alloc(ops, plan, &g);
  if (err != cudaSuccess)
    return err;
  g->is_while = 1;
  err = build(g, ops, plan, ind && ind->ind->n_nodes ? ind : NULL, spec, step);
  if (err != cudaSuccess) {
    pygraph_cuda_graph_destroy(g);
    return err;
  }
  *out = g;
  return cudaSuccess;
}
