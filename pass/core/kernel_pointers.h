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

/* The module's <<<>>> launches through a kernel pointer: each an indirect
 * call returning void (a stub; a call in the launch's arguments returns a
 * value) in a block that the block entered when a
 * __cudaPushCallConfiguration call returned 0 dominates.  Found once per
 * module (one dominator tree per function that configures a launch). */
typedef struct pg_pointer_launches {
  LLVMValueRef *calls;        /* sorted by address */
  unsigned n, cap;
} pg_pointer_launches;

void pg_pointer_launches_build(pg_pointer_launches *p, LLVMModuleRef m);
void pg_pointer_launches_free(pg_pointer_launches *p);
int pg_is_pointer_launch(const pg_pointer_launches *p, LLVMValueRef call);

/* The module's table of kernel stubs that run as this file compiled them
 * (a private constant array, made once; own_copies.h keeps linkonce_odr
 * stubs this file's) and its length, for the run-time check of a pointer
 * launch. */
LLVMValueRef pg_kernel_stub_table(LLVMModuleRef m, unsigned *nstubs);

#endif
