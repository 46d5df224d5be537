/* kernel_pointers.h - <<<>>> launches through a kernel pointer.
 *
 * `k<<<g, b, s, st>>>(args)` with k a pointer to a __global__ function (as
 * Thrust's and CUB's launcher, triple_chevron::doit_host, makes every launch
 * of theirs) is an indirect call of the kernel's host stub after
 * __cudaPushCallConfiguration.  The stubs this file defines launch through
 * the runtime (their cudaLaunchKernel is rerouted), so such a call may stay
 * inside a region when k is one of them; any other pointer (a stub of a
 * file built without pygraph) would launch behind the runtime's back.  The
 * call is therefore checked at run time like an external call
 * (external_calls.h): the runtime splits the region there unless k is in
 * this module's table of stubs. */
#ifndef PYGRAPH_KERNEL_POINTERS_H
#define PYGRAPH_KERNEL_POINTERS_H

#include <llvm-c/Core.h>

/* 1 when `call` is the stub call of a <<<>>> launch through a kernel
 * pointer: an indirect call in the block entered when a
 * __cudaPushCallConfiguration call returned 0. */
int pg_is_pointer_launch(LLVMValueRef call);

/* The module's table of kernel stubs (a private constant array, made once)
 * and its length, for the run-time check of a pointer launch. */
LLVMValueRef pg_kernel_stub_table(LLVMModuleRef m, unsigned *n);

#endif
