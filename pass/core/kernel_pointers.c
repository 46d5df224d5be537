/* kernel_pointers.c - <<<>>> launches through a kernel pointer (kernel_pointers.h). */
#include "kernel_pointers.h"
#include "ir_util.h"
#include "kernel_registry.h"
#include "../shim/pygraph_shim.h"

#include <stdlib.h>
#include <string.h>

static const char kTableName[] = ".pygraph.kernel_stubs";

/* The block's only predecessor's terminator, when it has exactly one. */
static LLVMValueRef only_entry_branch(LLVMBasicBlockRef bb) {
  LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb));
  if (!u || LLVMGetNextUse(u))
    return NULL;
  LLVMValueRef term = LLVMGetUser(u);
  return LLVMIsABranchInst(term) && LLVMIsConditional(term) ? term : NULL;
}

static int is_zero(LLVMValueRef v) {
  return LLVMIsAConstantInt(v) && LLVMConstIntGetZExtValue(v) == 0;
}

/* The block entered when the configuration call `push` returned 0, when
 * that is the only way into it (so that being in it means configured). */
static LLVMBasicBlockRef configured_block(LLVMValueRef push) {
  for (LLVMUseRef u = LLVMGetFirstUse(push); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef cmp = LLVMGetUser(u);
    if (!LLVMIsAICmpInst(cmp))
      continue;
    LLVMValueRef other = LLVMGetOperand(cmp, LLVMGetOperand(cmp, 0) == push ? 1 : 0);
    LLVMIntPredicate p = LLVMGetICmpPredicate(cmp);
    if (!is_zero(other) || (p != LLVMIntEQ && p != LLVMIntNE))
      continue;
    for (LLVMUseRef cu = LLVMGetFirstUse(cmp); cu; cu = LLVMGetNextUse(cu)) {
      LLVMValueRef br = LLVMGetUser(cu);
      if (!LLVMIsABranchInst(br) || !LLVMIsConditional(br) || LLVMGetCondition(br) != cmp)
        continue;
      LLVMBasicBlockRef bb = LLVMGetSuccessor(br, p == LLVMIntEQ ? 0 : 1);
      if (only_entry_branch(bb) == br)
        return bb;
    }
  }
  return NULL;
}

/* Is `call` where a configuration call of its function leads, that is, in a
 * block the configured block dominates (argument copies may branch between
 * them)?  The dominator tree is computed only for a function that makes
 * such a call. */
static int after_configuration(LLVMValueRef call) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
  LLVMValueRef fn = LLVMGetBasicBlockParent(bb);
  LLVMValueRef push_fn =
      LLVMGetNamedFunction(LLVMGetGlobalParent(fn), "__cudaPushCallConfiguration");
  pg_loop_info *li = NULL;
  int found = 0;
  for (LLVMUseRef u = push_fn ? LLVMGetFirstUse(push_fn) : NULL; u && !found;
       u = LLVMGetNextUse(u)) {
    LLVMValueRef push = LLVMGetUser(u);
    if (!LLVMIsAInstruction(push) || LLVMGetBasicBlockParent(LLVMGetInstructionParent(push)) != fn)
      continue;
    LLVMBasicBlockRef configured = configured_block(push);
    if (!configured)
      continue;
    if (configured == bb)
      found = 1;
    else {
      if (!li)
        li = pg_loops_compute(fn);
      found = pg_block_dominates(li, configured, bb);
    }
  }
  if (li)
    pg_loops_free(li);
  return found;
}

int pg_is_pointer_launch(LLVMValueRef call) {
  if (!pg_is_call(call) || pg_called_function(call) ||
      LLVMIsAInlineAsm(LLVMGetCalledValue(call)))
    return 0;
  return after_configuration(call);
}

LLVMValueRef pg_kernel_stub_table(LLVMModuleRef m, unsigned *n) {
  LLVMValueRef g = LLVMGetNamedGlobal(m, kTableName);
  if (g) {
    *n = LLVMGetArrayLength2(LLVMGlobalGetValueType(g));
    return g;
  }
  pg_kernel_registry reg;
  pg_registry_build(&reg, m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0);
  LLVMValueRef *stubs = calloc(reg.n ? reg.n : 1, sizeof *stubs);
  if (!stubs)
    pg_out_of_memory();
  for (unsigned i = 0; i < reg.n; ++i)
    stubs[i] = reg.kernels[i].stub;
  LLVMValueRef arr = LLVMConstArray2(ptr, stubs, reg.n);
  g = LLVMAddGlobal(m, LLVMTypeOf(arr), kTableName);
  LLVMSetInitializer(g, arr);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  *n = reg.n;
  free(stubs);
  pg_registry_free(&reg);
  return g;
}
