/* device_pass.h - pygraph on the device (-fcuda-is-device) module. */
#ifndef PYGRAPH_DEVICE_PASS_H
#define PYGRAPH_DEVICE_PASS_H
#include <llvm-c/Core.h>
/* Returns 1 when the module changed. */
int pg_run_device(LLVMModuleRef m);
/* "kernel 'K(int)' (1 parameter, 4 bytes): <what>", malloc'd: the one
 * device remark per kernel (-Rpass-analysis=pygraph-device). */
char *pg_kernel_remark_text(LLVMValueRef k, unsigned nparams, unsigned long long bytes,
                            const char *what);
#endif
