/* while_graph.h (cuda) - the CUDA calls behind the port's
 * while_graph_build (port/backend.h; graphs/while_graph.h gives the
 * graph's shape): a conditional WHILE node holding one iteration's nodes
 * and the condition kernel.  A raw call: the port table runs it in relaxed
 * capture mode (it may load the condition kernel's module). */
#ifndef PYGRAPH_CUDA_WHILE_GRAPH_H
#define PYGRAPH_CUDA_WHILE_GRAPH_H

#include "port/backend.h"

cudaError_t pygraph_cuda_while_graph_build(const struct pygraph_op_list *ops,
                                           const struct pygraph_graph_plan *plan,
                                           const struct pygraph_indirect_graph *ind,
                                           const struct pygraph_while_spec *spec, void **graph,
                                           const char **step);

#endif /* PYGRAPH_CUDA_WHILE_GRAPH_H */
