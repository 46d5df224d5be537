/* external_calls.h - the across-files protocol (runtime/include/pygraph_rt.h,
 * "Across files").
 *
 * A loop that calls a launching function defined in another source file
 * used to end its region at that call: the pass cannot see whether the
 * callee synchronizes.  When that file is compiled with pygraph too, the
 * callee can say so itself at run time: its launches are routed to the
 * runtime (deferred into the caller's live iteration), each of its barriers
 * is preceded by a barrier point (the runtime runs what was deferred and
 * goes on in a fresh segment), and it defines a marker symbol per external
 * function.  The caller references the callee's marker weakly: when no file
 * compiled with pygraph defined it (a library, a file built without the
 * plugin), the runtime splits the iteration at the call, into a segment the
 * pass reserved for it, exactly where the pass used to end the region. */
#ifndef PYGRAPH_EXTERNAL_CALLS_H
#define PYGRAPH_EXTERNAL_CALLS_H

#include "call_map.h"

#include <llvm-c/Core.h>

/* 1 when `call` of external `callee` (a declaration that is neither CUDA
 * nor harmless) is checked at run time instead of ending the region:
 * across-files is on, the call returns or ends the program without
 * unwinding (exit, abort, a failed assert: its hook's split runs what was
 * deferred first; a noreturn call that may throw stays a barrier), and the
 * name is no library's that is never compiled with pygraph (CUDA's
 * libraries, NCCL, MPI, the C++ runtime). */
int pg_external_checked(LLVMValueRef callee, LLVMValueRef call);

/* external_call(region, index, marker) right before `call`, a checked
 * external call; region NULL (index 0) when the call is in no instrumented
 * segment. */
void pg_external_hook(LLVMModuleRef m, LLVMValueRef call, LLVMValueRef region, int index);

/* The rest of the protocol for module m, after its regions were
 * instrumented and before any call is rerouted (the call map must still
 * name the instructions): a hook with no region before every checked call
 * that has none, a barrier point right before every barrier of every host
 * function but the kernel stubs and CUDA's registration code, and a marker
 * for every function m defines with external linkage; nothing in a module
 * that makes no CUDA call.  Returns 1 when it changed m. */
int pg_external_protocol(LLVMModuleRef m, const pg_call_map *calls);

#endif
