/* instrumenter.h - turn a region plan into runtime calls.
 * Emits pygraph_region / pygraph_site descriptors (layouts: runtime/include/
 * pygraph_rt.h), begin/end calls, and reroutes deferrable CUDA calls to the
 * runtime's __pygraph_<name> entry points. */
#ifndef PYGRAPH_INSTRUMENTER_H
#define PYGRAPH_INSTRUMENTER_H

#include "call_map.h"
#include "region_builder.h"

/* Inserts begin/end calls for every instrumented scope of the plan, then
 * the whole-loop protocol of its candidates (whole_loop_instrument.h). */
void pg_instrument_function(LLVMModuleRef m, pg_function_plan *plan, const char *fn_name);
/* Replaces every routed CUDA (and library) call in m; returns how many.  The
 * library functions whose calls it replaced stay referenced by m. */
unsigned pg_reroute_calls(LLVMModuleRef m, const pg_call_map *calls);
/* Replaces one CUDA call by its runtime entry point (a whole loop's status
 * copy: a barrier the runtime must see). */
void pg_reroute_call(LLVMModuleRef m, const pg_call_info *ci);

#endif
