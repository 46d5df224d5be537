/* while_graph.c (cuda) - a whole-loop graph made real: the argument
 * loaders, a conditional WHILE node (handle default 1, applied at every
 * launch), and in its body the plan's nodes and the condition kernel, or
 * a body split after the status copy by an IF node
 * (graphs/while_graph.h).  The result is a graph_realise.c graph, so the
 * port's instantiate, set_args, launch, synchronize and destroy take it. */
#include "cuda/while_graph.h"

#include <stdlib.h>
#include <string.h>

#include "cuda/condition_module.h"
#include "cuda/graph_realise.h"
#include "cuda/graph_realise_internal.h"
#include "graphs/while_clauses.h"
#include "graphs/while_graph.h"

/* A conditional node of `type` (one body graph) in `graph` after deps;
 * *body becomes its body (owned by the node). */
static cudaError_t add_conditional(cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n_deps,
                                   cudaGraphConditionalHandle handle,
                                   enum cudaGraphConditionalNodeType type, cudaGraphNode_t *node,
                                   cudaGraph_t *body)
{
  struct cudaGraphNodeParams p;
  memset(&p, 0, sizeof p);             /* reserved fields must be zero */
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = handle;
  p.conditional.type = type;
  p.conditional.size = 1;
  cudaError_t err = cudaGraphAddNode(node, graph, deps, NULL, n_deps, &p);
  if (err == cudaSuccess)
    *body = p.conditional.phGraph_out[0];
  return err;
}

/* Does op i have a node in the body (the WHILE body or the IF body)? */
static int in_body(const struct pygraph_graph_plan *plan, const struct pygraph_while_spec *spec,
                   size_t i)
{
  return plan->nodes[i].form != PYGRAPH_PLAN_NONE && !(spec->status_folded && i == spec->status_op);
}

/* The nodes of ops [0, end) that no other of them depends on, into sinks
 * (end entries); how many.  A folded status copy has no node: what it
 * depended on is what follows.  used: end bytes of scratch. */
static size_t sinks_before(const struct cuda_graph *g, const struct pygraph_graph_plan *plan,
                           const struct pygraph_while_spec *spec, size_t end,
                           unsigned char *used, cudaGraphNode_t *sinks)
{
  memset(used, 0, end);
  for (size_t i = 0; i < end; i++)
    for (unsigned d = 0; in_body(plan, spec, i) && d < plan->nodes[i].n_deps; d++)
      used[plan->nodes[i].deps[d]] = 1;   /* an earlier op: < end */
  size_t n = 0;
  for (size_t i = 0; i < end; i++)
    if (in_body(plan, spec, i) && !used[i])
      sinks[n++] = g->nodes[i];
  return n;
}

/* A condition kernel in `graph` after deps.  The generic ones
 * (clauses NULL), (spec->state, handle): one block of
 * PYGRAPH_WHILE_THREADS threads, the condition block's size as dynamic
 * shared memory where it fits (graphs/while_condition.h).  The fast step
 * over the loop's compiled form, (spec->state, clauses, handle): one warp
 * (graphs/while_clauses.h). */
static cudaError_t add_condition_kernel(cudaGraph_t graph, const cudaGraphNode_t *deps,
                                        size_t n_deps, cudaKernel_t kernel, const void *clauses,
                                        const struct pygraph_while_spec *spec,
                                        cudaGraphConditionalHandle handle, cudaGraphNode_t *node)
{
  void *state = spec->state;
  void *params[3] = {&state, &handle, NULL};   /* copied by cudaGraphAddKernelNode */
  struct cudaKernelNodeParams p;
  memset(&p, 0, sizeof p);
  p.func = (void *)kernel;
  p.gridDim = (dim3){1, 1, 1};
  p.blockDim = (dim3){PYGRAPH_WHILE_THREADS, 1, 1};
  if (spec->block_bytes <= PYGRAPH_WHILE_STAGE_MAX_BYTES)
    p.sharedMemBytes = (unsigned)spec->block_bytes;
  if (clauses) {
    params[1] = &clauses;
    params[2] = &handle;
    p.blockDim = (dim3){PYGRAPH_CLAUSE_LANES, 1, 1};
    p.sharedMemBytes = 0;
  }
  p.kernelParams = params;
  return cudaGraphAddKernelNode(node, graph, deps, n_deps, &p);
}

/* The step kernel that ends a body iteration: the fast one where the loop
 * has a compiled form, else the generic one.  The same for a split body's
 * after-copy kernel (add_kernel_after_sinks). */
static cudaError_t add_step_kernel(cudaGraph_t graph, const cudaGraphNode_t *deps, size_t n_deps,
                                   const struct pygraph_condition_kernels *kernels,
                                   const struct pygraph_while_spec *spec,
                                   cudaGraphConditionalHandle handle, cudaGraphNode_t *node)
{
  cudaKernel_t kernel = spec->clauses ? kernels->clauses : kernels->step;
  return add_condition_kernel(graph, deps, n_deps, kernel, spec->clauses, spec, handle, node);
}

/* A condition kernel in g->body after the body nodes of ops [0, end) that
 * no other of them depends on: the after-copy kernel (after_copy), else
 * the step kernel, each the fast one where the loop has a compiled form. */
static cudaError_t add_kernel_after_sinks(struct cuda_graph *g,
                                          const struct pygraph_graph_plan *plan,
                                          const struct pygraph_while_spec *spec, size_t end,
                                          const struct pygraph_condition_kernels *kernels,
                                          int after_copy, cudaGraphConditionalHandle handle,
                                          cudaGraphNode_t *node)
{
  unsigned char *used = malloc(end ? end : 1);
  cudaGraphNode_t *sinks = malloc((end ? end : 1) * sizeof *sinks);
  cudaError_t err = cudaErrorMemoryAllocation;
  if (used && sinks) {
    size_t n = sinks_before(g, plan, spec, end, used, sinks);
    cudaKernel_t tests_after_copy =
        spec->clauses ? kernels->after_copy_clauses : kernels->after_copy;
    err = after_copy ? add_condition_kernel(g->body, sinks, n, tests_after_copy, spec->clauses,
                                            spec, handle, node)
                     : add_step_kernel(g->body, sinks, n, kernels, spec, handle, node);
  }
  free(used);
  free(sinks);
  return err;
}

/* Op i's plan node with only its dependencies on ops from `first` on: an
 * op of the IF body depends on earlier ops through the IF node. */
static struct pygraph_plan_node deps_from(const struct pygraph_plan_node *pn, size_t first)
{
  struct pygraph_plan_node kept = *pn;
  kept.n_deps = 0;
  for (unsigned d = 0; d < pn->n_deps; d++)
    if (pn->deps[d] >= first) {
      kept.deps[kept.n_deps] = pn->deps[d];
      kept.programmatic[kept.n_deps++] = pn->programmatic[d];
    }
  return kept;
}

/* The plan's nodes of ops [first, end) in g->body, their dependencies on
 * ops before `first` left out; the status copy reads its source into the
 * condition block instead of the host, or is left to the condition kernel
 * (spec->status_folded). */
static cudaError_t add_body(struct cuda_graph *g, const struct pygraph_op_list *ops,
                            const struct pygraph_graph_plan *plan,
                            const struct pygraph_indirect_graph *ind,
                            const struct pygraph_while_spec *spec, size_t first, size_t end)
{
  for (size_t i = first; i < end; i++) {
    struct pygraph_op status_copy;
    const struct pygraph_op *op = &ops->ops[i];
    if (i == spec->status_op) {
      status_copy = *op;
      status_copy.dst = spec->status;
      status_copy.memcpy_kind = cudaMemcpyDeviceToDevice;
      op = &status_copy;
    }
    if (in_body(plan, spec, i)) {
      struct pygraph_plan_node pn = deps_from(&plan->nodes[i], first);
      cudaError_t err = pygraph_cuda_graph_add_op(g, i, op, &pn, ind);
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

/* The WHILE body as one part: every node, then the condition kernel after
 * the sinks. */
static cudaError_t add_whole_body(struct cuda_graph *g, const struct pygraph_op_list *ops,
                                  const struct pygraph_graph_plan *plan,
                                  const struct pygraph_indirect_graph *ind,
                                  const struct pygraph_while_spec *spec,
                                  const struct pygraph_condition_kernels *kernels,
                                  cudaGraphConditionalHandle handle, const char **step)
{
  cudaError_t err;
  cudaGraphNode_t node;
  if ((err = add_body(g, ops, plan, ind, spec, 0, ops->n_ops)) != cudaSuccess)
    return failed(step, "body node", err);
  err = add_kernel_after_sinks(g, plan, spec, ops->n_ops, kernels, 0, handle, &node);
  return err == cudaSuccess ? err : failed(step, "condition node", err);
}

/* The WHILE body split after the status copy (graphs/while_graph.h): the
 * nodes up to the copy, the after-copy kernel setting the IF handle (made
 * on the WHILE body, the graph holding the IF node), the IF node holding
 * the nodes after the copy, then the condition kernel after the IF node. */
static cudaError_t add_split_body(struct cuda_graph *g, const struct pygraph_op_list *ops,
                                  const struct pygraph_graph_plan *plan,
                                  const struct pygraph_indirect_graph *ind,
                                  const struct pygraph_while_spec *spec,
                                  const struct pygraph_condition_kernels *kernels,
                                  cudaGraphConditionalHandle handle, const char **step)
{
  size_t cut = spec->status_op + 1;
  cudaGraphConditionalHandle if_handle;
  cudaGraphNode_t tested, if_node, last;
  cudaGraph_t while_body = g->body, if_body;
  cudaError_t err;
  if ((err = add_body(g, ops, plan, ind, spec, 0, cut)) != cudaSuccess)
    return failed(step, "body node", err);
  err = cudaGraphConditionalHandleCreate(&if_handle, while_body, 0, cudaGraphCondAssignDefault);
  if (err != cudaSuccess)
    return failed(step, "if handle create", err);
  err = add_kernel_after_sinks(g, plan, spec, cut, kernels, 1, if_handle, &tested);
  if (err != cudaSuccess)
    return failed(step, "after-copy node", err);
  err = add_conditional(while_body, &tested, 1, if_handle, cudaGraphCondTypeIf, &if_node,
                        &if_body);
  if (err != cudaSuccess)
    return failed(step, "if node", err);
  g->body = if_body;
  err = add_body(g, ops, plan, ind, spec, cut, ops->n_ops);
  g->body = while_body;
  if (err != cudaSuccess)
    return failed(step, "body node", err);
  err = add_step_kernel(while_body, &if_node, 1, kernels, spec, handle, &last);
  return err == cudaSuccess ? err : failed(step, "condition node", err);
}

static cudaError_t build(struct cuda_graph *g, const struct pygraph_op_list *ops,
                         const struct pygraph_graph_plan *plan,
                         const struct pygraph_indirect_graph *ind,
                         const struct pygraph_while_spec *spec, const char **step)
{
  struct pygraph_condition_kernels kernels;
  cudaGraphConditionalHandle handle;
  cudaGraphNode_t while_node;
  cudaError_t err;
  if ((err = pygraph_cuda_condition_kernels(&kernels)) != cudaSuccess)
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
  err = add_conditional(g->graph, g->loaders, g->n_loaders, handle, cudaGraphCondTypeWhile,
                        &while_node, &g->body);
  if (err != cudaSuccess)
    return failed(step, "while node", err);
  err = spec->split_after_copy
            ? add_split_body(g, ops, plan, ind, spec, &kernels, handle, step)
            : add_whole_body(g, ops, plan, ind, spec, &kernels, handle, step);
  if (err != cudaSuccess)
    return err;
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
