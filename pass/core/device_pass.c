/* device_pass.c - the device side: add the kernels' indirect twins
 * (indirect_twins.h) and say, per kernel, what graphs can do with its
 * arguments (remarks under "pygraph-device"). */
#include "ir_util.h"
#include "device_pass.h"
#include "indirect_twins.h"
#include "options.h"
#include "../shim/pygraph_shim.h"

#include <llvm-c/Target.h>

#include <stdio.h>
#include <stdlib.h>

char *pg_kernel_remark_text(LLVMValueRef k, unsigned nparams, unsigned long long bytes,
                            const char *what) {
  size_t len;
  char *name = pg_demangle(LLVMGetValueName2(k, &len));
  char *msg = pg_strf("kernel '%s' (%u parameter%s, %llu bytes): %s", name, nparams,
                      nparams == 1 ? "" : "s", bytes, what);
  free(name);
  return msg;
}

/* Kernels that get no twin in this compile (indirection=0, analyze-only):
 * their remark says so; the others' comes with their twin. */
static void untwinned_remarks(LLVMModuleRef m, const char *why) {
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(m);
  char *what = pg_strf("graphs change its arguments with a per-launch update (%s)", why);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || !pg_is_device_kernel(f) || pg_is_indirect_twin(f))
      continue;
    char *msg = pg_kernel_remark_text(f, LLVMCountParams(f), pg_param_layout(dl, f, NULL, NULL),
                                      what);
    pg_device_remark(PG_REMARK_ANALYSIS, "Kernel", f, msg);
    free(msg);
  }
  free(what);
}

int pg_run_device(LLVMModuleRef m) {
  const pg_options *o = pg_opts();
  if (!o->indirection || o->analyze_only) {
    if (pg_device_remark_wanted(m, PG_REMARK_ANALYSIS))
      untwinned_remarks(m, o->analyze_only ? "analyze-only" : "indirection=0");
    return 0;
  }
  return pg_make_indirect_twins(m) > 0;
}
