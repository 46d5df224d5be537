/* device_pass.c - the device side: list kernels and their parameter block
 * size (the layout the indirect twins of a later stage will read). */
#include "device_pass.h"
#include "../shim/pygraph_shim.h"

#include <llvm-c/Target.h>

#include <stdio.h>
#include <stdlib.h>

static int is_kernel(LLVMValueRef f) {
  return LLVMGetFunctionCallConv(f) == LLVMPTXKernelCallConv;
}

int pg_run_device(LLVMModuleRef m) {
  if (!pg_remark_enabled(m, PG_REMARK_ANALYSIS))
    return 0;
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(m);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || !is_kernel(f))
      continue;
    unsigned long long bytes = 0;
    unsigned n = LLVMCountParams(f);
    for (unsigned i = 0; i < n; ++i) {
      LLVMValueRef p = LLVMGetParam(f, i);
      LLVMTypeRef t = LLVMTypeOf(p);
      unsigned kind = LLVMGetEnumAttributeKindForName("byval", 5);
      LLVMAttributeRef byval = LLVMGetEnumAttributeAtIndex(f, i + 1, kind);
      if (byval)
        t = LLVMGetTypeAttributeValue(byval);
      unsigned long long align = LLVMABIAlignmentOfType(dl, t);
      bytes = (bytes + align - 1) / align * align + LLVMABISizeOfType(dl, t);
    }
    size_t len;
    char *name = pg_demangle(LLVMGetValueName2(f, &len));
    char msg[512];
    snprintf(msg, sizeof msg, "device kernel '%s': %u parameter%s, %llu bytes", name, n,
             n == 1 ? "" : "s", bytes);
    pg_remark(PG_REMARK_ANALYSIS, "Kernel", f, msg);
    free(name);
  }
  return 0;
}
