/* harmless_externals.h - external functions that cannot touch the device. */
#ifndef PYGRAPH_HARMLESS_EXTERNALS_H
#define PYGRAPH_HARMLESS_EXTERNALS_H
/* 1 when a call to the external `name` may stay inside a graph region. */
int pg_is_harmless_external(const char *name);

#include <llvm-c/Core.h>
/* 1 when `call` is an indirect call through NVTX's table of tool entry
 * points (a function pointer loaded from nvtxGlobals_v<N>): a profiler
 * annotation, which enqueues no device work and waits for none (CUB and
 * Thrust open an NVTX range around every algorithm). */
int pg_is_nvtx_dispatch(LLVMValueRef call);
#endif
