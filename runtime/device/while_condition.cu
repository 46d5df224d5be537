/* while_condition.cu - the condition kernels of a whole-loop (WHILE) graph
 * (src/graphs/while_condition.h says what they do and what they read).
 * pygraph_while_condition runs as the last node of the WHILE node's body,
 * pygraph_while_after_copy (a split body only) right after the status
 * copy, before the IF node of the operations after it; both on one
 * thread: the exit tests and the operands' next values are exit_eval.h's,
 * the text the CPU runs too.  Built to PTX when the runtime is built and embedded in it as
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

extern "C" __global__ void pygraph_while_after_copy(struct pygraph_while_state *state,
                                                    cudaGraphConditionalHandle if_handle)
{
  /* every iteration sets the IF handle (never its default): 1 runs the
   * operations after the copy; the state's writes are ordered before the
   * step's read by the IF node's edges */
  cudaGraphSetConditional(if_handle, pygraph_while_test_after_copy(state));
}
