/* twin_registration.h - host side of parameter indirection: register the
 * indirect twins (indirect_twins.h) of kernels launched inside regions.
 *
 * Next to each __cudaRegisterFunction(fatbin, stub, "K", "K", -1, ...) of a
 * listed stub, a second call registers "K__pygraph_ind" under its own host
 * handle, the global __pygraph_twin.K (one private byte).  The runtime
 * launches the twin through that handle (pygraph_site::indirect_twin).
 * Nothing is registered under the new offload driver (no
 * __cudaRegisterFunction), with indirection=0 or analyze-only.
 */
#ifndef PYGRAPH_TWIN_REGISTRATION_H
#define PYGRAPH_TWIN_REGISTRATION_H

#include <llvm-c/Core.h>

/* Registers the twins of the kernels whose stubs are listed (duplicates and
 * non-stubs are fine).  handles, when non-NULL, gets per stub the twin's
 * handle global or NULL when none was (or had been) registered.  Returns how
 * many registrations were added.  Idempotent. */
unsigned pg_register_twins(LLVMModuleRef m, const LLVMValueRef *stubs, unsigned n,
                           LLVMValueRef *handles);
/* The handle of the twin of the kernel with this mangled name, when
 * pg_register_twins registered it; else NULL. */
LLVMValueRef pg_twin_handle(LLVMModuleRef m, const char *mangled);

#endif
