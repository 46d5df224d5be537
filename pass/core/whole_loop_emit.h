/* whole_loop_emit.h - a region's whole-loop candidates as the constant data
 * the runtime reads (struct pygraph_whole_loop and its arrays,
 * runtime/include/pygraph_abi.def). */
#ifndef PYGRAPH_WHOLE_LOOP_EMIT_H
#define PYGRAPH_WHOLE_LOOP_EMIT_H

#include "whole_loop.h"

/* The descriptor of the first candidate of `list` (the others chained
 * through `next`, in list order); a null pointer when it holds none.  Each
 * candidate's `desc` is set to its own. */
LLVMValueRef pg_whole_loop_emit(LLVMModuleRef m, pg_whole_loop *list);

#endif
