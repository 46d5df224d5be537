/* throw_points.h - exceptions leaving a live region.
 *
 * A throw (and the resumption of one that unwinds through a cleanup) is no
 * barrier: it waits for nothing on the device.  But the exception may leave
 * the region without its end call, so each one is preceded by a throw point
 * (pygraph_abi.def): the runtime ends the thread's live iteration there,
 * as its end would (what it deferred runs, once), and what follows passes
 * through until the next begin.  A call of a function that may throw is
 * judged as before (batchable.h: a loop unit cannot be unwound). */
#ifndef PYGRAPH_THROW_POINTS_H
#define PYGRAPH_THROW_POINTS_H

#include <llvm-c/Core.h>

/* 1 for the C++ runtime's throwing entry points, no barriers:
 * __cxa_allocate_exception, __cxa_throw, __cxa_rethrow, __cxa_free_exception,
 * _Unwind_Resume, and libstdc++'s std::__throw_* helpers. */
int pg_is_throw_call(const char *name);

/* The code that runs only after a throw point: a block every path to which
 * passes one, and what follows one in its block.  There the exception
 * object is built (std::runtime_error's constructor, cudaGetErrorString...)
 * after the throw point closed the region: none of it is a barrier.  A
 * throw point goes before every call that raises (__cxa_throw,
 * __cxa_rethrow, _Unwind_Resume, std::__throw_*), every `resume`, and an
 * __cxa_allocate_exception only where every path from its block ends in a
 * throw (std::make_exception_ptr allocates one and returns). */
typedef struct pg_throw_paths {
  LLVMBasicBlockRef *after;   /* blocks entered only after a throw point, sorted */
  unsigned n, cap;
  LLVMValueRef *insts;        /* instructions after a throw point in its block, sorted */
  unsigned ninsts, capinsts;
} pg_throw_paths;

void pg_throw_paths_build(pg_throw_paths *t, LLVMModuleRef m);
void pg_throw_paths_free(pg_throw_paths *t);
/* 1 when inst runs only after a throw point. */
int pg_after_throw(const pg_throw_paths *t, LLVMValueRef inst);

/* A throw point right before every such place in every defined function of
 * m; returns how many. */
unsigned pg_insert_throw_points(LLVMModuleRef m);

#endif
