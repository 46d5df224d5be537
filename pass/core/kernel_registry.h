/* kernel_registry.h - which host functions are kernel stubs, and their
 * kernels' mangled names (from __cudaRegisterFunction or offload entries). */
#ifndef PYGRAPH_KERNEL_REGISTRY_H
#define PYGRAPH_KERNEL_REGISTRY_H

#include <llvm-c/Core.h>

typedef struct pg_kernel {
  LLVMValueRef stub;     /* host handle: the __device_stub__ function */
  char *mangled;         /* device-side name */
} pg_kernel;

typedef struct pg_kernel_registry {
  pg_kernel *kernels;
  unsigned n, cap;
  int has_registration;  /* __cudaRegisterFunction or offload entries seen */
} pg_kernel_registry;

void pg_registry_build(pg_kernel_registry *r, LLVMModuleRef m);
void pg_registry_free(pg_kernel_registry *r);
/* The kernel whose stub is `fn` (casts stripped), or NULL. */
const pg_kernel *pg_registry_find(const pg_kernel_registry *r, LLVMValueRef fn);

#endif
