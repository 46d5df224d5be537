/* own_copies.c - the functions pygraph changed run as this file compiled
 * them (own_copies.h). */
#include "own_copies.h"
#include "ir_util.h"
#include "pygraph_abi.h"

#include <llvm-c/Comdat.h>

#include <string.h>

/* Does fn call pygraph, other than at barrier points?  A function with a
 * barrier of its own is a barrier to its callers, which end their regions
 * before calling it: its barrier points serve only callers in other files,
 * which call their own copy. */
static int calls_pygraph(LLVMValueRef fn) {
  size_t len = strlen(PYGRAPH_ROUTED_PREFIX);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      const char *name = pg_is_call(i) ? pg_called_name(i) : NULL;
      if (name && strncmp(name, PYGRAPH_ROUTED_PREFIX, len) == 0 &&
          strcmp(name + len, "barrier_point") != 0)
        return 1;
    }
  return 0;
}

static int replaceable(LLVMValueRef fn) {
  LLVMLinkage l = LLVMGetLinkage(fn);
  return l == LLVMLinkOnceODRLinkage || l == LLVMAvailableExternallyLinkage;
}

unsigned pg_keep_own_copies(LLVMModuleRef m) {
  unsigned n = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (LLVMIsDeclaration(fn) || !replaceable(fn) || !calls_pygraph(fn))
      continue;
    LLVMSetComdat(fn, NULL);
    LLVMSetLinkage(fn, LLVMInternalLinkage);
    LLVMSetVisibility(fn, LLVMDefaultVisibility);
    LLVMSetDLLStorageClass(fn, LLVMDefaultStorageClass);
    ++n;
  }
  return n;
}
