/* device_pass.c - the device side: list kernels and their parameter block
 * size, and add their indirect twins (indirect_twins.h). */
#include "ir_util.h"
#include "device_pass.h"
#include "indirect_twins.h"
#include "options.h"
#include "../shim/pygraph_shim.h"

#include <llvm-c/Target.h>

#include <stdio.h>
#include <stdlib.h>

static void kernel_remarks(LLVMModuleRef m) {
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(m);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || !pg_is_device_kernel(f) || pg_is_indirect_twin(f))
      continue;
    unsigned n = LLVMCountParams(f);
    unsigned long long bytes = pg_param_layout(dl, f, NULL, NULL);
    size_t len;
    char *name = pg_demangle(LLVMGetValueName2(f, &len));
    char *msg = pg_strf("device kernel '%s': %u parameter%s, %llu bytes", name, n,
             n == 1 ? "" : "s", bytes);
    pg_remark(PG_REMARK_ANALYSIS, "Kernel", f, msg);
    free(msg);
    free(name);
  }
}

int pg_run_device(LLVMModuleRef m) {
  if (pg_remark_enabled(m, PG_REMARK_ANALYSIS))
    kernel_remarks(m);
  if (!pg_opts()->indirection || pg_opts()->analyze_only)
    return 0;
  return pg_make_indirect_twins(m) > 0;
}
