/* graph_realise.h - the CUDA calls behind the port's graph entries
 * (port/backend.h says what each does): realising a graph plan
 * (graphs/graph_plan.h) as a CUDA graph, instantiating it, and replaying
 * it (node updates, argument refreshes, launches).  Raw calls: the port
 * table (backend_cuda.c) wraps those that may make a call CUDA deems
 * unsafe during a program's stream capture (capture_mode.h). */
#ifndef PYGRAPH_GRAPH_REALISE_H
#define PYGRAPH_GRAPH_REALISE_H

#include "port/backend.h"

cudaError_t pygraph_cuda_graph_build(const struct pygraph_op_list *ops,
                                     const struct pygraph_graph_plan *plan,
                                     const struct pygraph_indirect_graph *ind, void **graph);
cudaError_t pygraph_cuda_graph_instantiate(void *graph, void *previous);
cudaError_t pygraph_cuda_graph_update_node(void *graph, size_t index, const struct pygraph_op *op);
cudaError_t pygraph_cuda_graph_launch(void *graph, int *ran);
void pygraph_cuda_graph_destroy(void *graph);
cudaError_t pygraph_cuda_graph_set_args(void *graph, const struct pygraph_arg_block *args);
int pygraph_cuda_graph_synchronize(void *graph);

#endif /* PYGRAPH_GRAPH_REALISE_H */
