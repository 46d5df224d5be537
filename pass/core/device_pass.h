/* device_pass.h - pygraph on the device (-fcuda-is-device) module. */
#ifndef PYGRAPH_DEVICE_PASS_H
#define PYGRAPH_DEVICE_PASS_H
#include <llvm-c/Core.h>
/* Returns 1 when the module changed. */
int pg_run_device(LLVMModuleRef m);
#endif
