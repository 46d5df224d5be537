/* launch_args.h - what the pass can tell the runtime about a launch's
 * argument array. */
#ifndef PYGRAPH_LAUNCH_ARGS_H
#define PYGRAPH_LAUNCH_ARGS_H

#include "call_classifier.h"

/* Entries of the `void **args` array a launch passes (cudaLaunchKernel*,
 * cudaLaunchKernelExC*, the driver's kernelParams of cuLaunchKernel*),
 * when it is a stack array of known size; 0 when it is not (an array
 * built elsewhere).
 * Clang's stubs allocate one entry per kernel parameter and at least one,
 * so the runtime can ask the driver for exactly that many parameters
 * instead of probing past the last one (an API error under
 * compute-sanitizer). */
unsigned pg_launch_arg_slots(LLVMModuleRef m, const pg_call_info *ci, LLVMValueRef call);

#endif
