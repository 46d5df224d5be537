/* fault_inject.c - the PYGRAPH_FAULT decorator of the port (fault_inject.h). */
#include "port/fault_inject.h"

#include <stdatomic.h>

static const struct pygraph_backend *real;
static struct pygraph_backend faulty;
static unsigned fail_at[PYGRAPH_FAULT_STEPS];
static atomic_ulong calls[PYGRAPH_FAULT_STEPS];
static atomic_ulong injected;
static _Thread_local int just_injected;     /* this thread's last graph step failed on purpose */

/* Is this call of `step` the one to fail? */
static int fails(enum pygraph_fault_step step)
{
  unsigned long n = atomic_fetch_add(&calls[step], 1) + 1;
  if (!fail_at[step] || n != fail_at[step])
    return 0;
  atomic_fetch_add(&injected, 1);
  just_injected = 1;
  return 1;
}

static cudaError_t build(const struct pygraph_op_list *ops, const struct pygraph_graph_plan *plan,
                         const struct pygraph_indirect_graph *ind, void **graph)
{
  if (fails(PYGRAPH_FAULT_CAPTURE)) {
    *graph = NULL;
    return cudaErrorUnknown;
  }
  return real->graph_build(ops, plan, ind, graph);
}

/* A WHILE graph's build is its capture step too. */
static cudaError_t while_build(const struct pygraph_op_list *ops,
                               const struct pygraph_graph_plan *plan,
                               const struct pygraph_indirect_graph *ind,
                               const struct pygraph_while_spec *spec, void **graph,
                               const char **step)
{
  if (fails(PYGRAPH_FAULT_CAPTURE)) {
    *graph = NULL;
    *step = "while graph build";
    return cudaErrorUnknown;
  }
  return real->while_graph_build(ops, plan, ind, spec, graph, step);
}

static cudaError_t instantiate(void *graph, void *previous)
{
  return fails(PYGRAPH_FAULT_INSTANTIATE) ? cudaErrorUnknown
                                          : real->graph_instantiate(graph, previous);
}

static cudaError_t update_node(void *graph, size_t index, const struct pygraph_op *op)
{
  return fails(PYGRAPH_FAULT_UPDATE) ? cudaErrorUnknown
                                     : real->graph_update_node(graph, index, op);
}

static cudaError_t set_args(void *graph, const struct pygraph_arg_block *args)
{
  return fails(PYGRAPH_FAULT_UPDATE) ? cudaErrorUnknown : real->graph_set_args(graph, args);
}

/* A failed launch enqueued nothing: its work is the caller's to run. */
static cudaError_t launch(void *graph, int *ran)
{
  if (fails(PYGRAPH_FAULT_LAUNCH)) {
    *ran = 0;
    return cudaErrorUnknown;
  }
  return real->graph_launch(graph, ran);
}

/* The report says which failure was injected. */
static const char *error_name(cudaError_t err)
{
  if (just_injected && err == cudaErrorUnknown) {
    just_injected = 0;
    return "cudaErrorUnknown (injected by PYGRAPH_FAULT)";
  }
  return real->error_name(err);
}

const struct pygraph_backend *pygraph_fault_install(const struct pygraph_backend *backend,
                                                    const unsigned *fault_at)
{
  int any = 0;
  for (unsigned k = 0; k < PYGRAPH_FAULT_STEPS; k++) {
    any |= (fail_at[k] = fault_at[k]) != 0;
    atomic_store(&calls[k], 0);
  }
  atomic_store(&injected, 0);
  real = backend;
  faulty = *backend;
  faulty.graph_build = build;
  faulty.while_graph_build = backend->while_graph_build ? while_build : NULL;
  faulty.graph_instantiate = instantiate;
  faulty.graph_update_node = update_node;
  faulty.graph_set_args = set_args;
  faulty.graph_launch = launch;
  faulty.error_name = error_name;
  return any ? &faulty : backend;
}

unsigned long pygraph_faults_injected(void)
{
  return atomic_load(&injected);
}
