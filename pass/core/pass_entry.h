/* pass_entry.h - what the C++ registration shim calls into. */
#ifndef PYGRAPH_PASS_ENTRY_H
#define PYGRAPH_PASS_ENTRY_H

#include <llvm-c/Core.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Parses one -fplugin-arg-pygraph-<arg>; returns 0 and fills err when the
 * option is unknown or its value is bad. */
int pg_options_parse(const char *arg, char *err, size_t errlen);

/* Runs pygraph on one module (host or device, told apart by its triple).
 * Returns 1 when the module was changed. */
int pg_run_module(LLVMModuleRef m);

#ifdef __cplusplus
}
#endif
#endif
