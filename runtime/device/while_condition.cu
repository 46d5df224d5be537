/* while_condition.cu - the condition kernel of a whole-loop (WHILE) graph
 * (src/graphs/while_condition.h says what it does and what it reads).  It
 * runs as the last node of the WHILE node's body, on one thread: the exit
 * tests and the operands' next values are exit_eval.h's, the text the CPU
 * runs too.  Built to PTX when the runtime is built and embedded in it as
 * pygraph_while_condition_ptx (runtime/CMakeLists.txt); the runtime loads
 * it with cudaLibraryLoadData (src/cuda/condition_module.c). */
#include "graphs/while_condition.h"

extern "C" __global__ void pygraph_while_condition(struct pygraph_while_state *state,
                                                   cudaGraphConditionalHandle handle)
{
  unsigned keep_going = pygraph_while_step(state);
  /* the step's writes (its state, the next operands) are visible to the
   * next body iteration and to the host after the graph: the kernel's
   * completion orders them */
  cudaGraphSetConditional(handle, keep_going);
}
