/* kernel_pointers.c - <<<>>> launches through a kernel pointer (kernel_pointers.h). */
#include "kernel_pointers.h"
#include "ir_util.h"
#include "kernel_registry.h"
#include "../shim/pygraph_shim.h"

#include <stdint.h>
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

static int is_stub_call_shape(LLVMValueRef inst) {
  return pg_is_call(inst) && !pg_called_function(inst) &&
         !LLVMIsAInlineAsm(LLVMGetCalledValue(inst)) &&
         LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMVoidTypeKind;
}

/* The blocks of fn that configured launches enter (NULL-free), into *out;
 * how many. */
static unsigned configured_blocks(LLVMValueRef fn, LLVMValueRef push_fn,
                                  LLVMBasicBlockRef **out, unsigned *cap) {
  unsigned n = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(push_fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef push = LLVMGetUser(u);
    if (!LLVMIsAInstruction(push) || LLVMGetBasicBlockParent(LLVMGetInstructionParent(push)) != fn)
      continue;
    LLVMBasicBlockRef bb = configured_block(push);
    if (bb)
      PG_PUSH(*out, n, *cap, bb);
  }
  return n;
}

/* fn's pointer launches into p (fn configures at least one launch). */
static void launches_in(pg_pointer_launches *p, LLVMValueRef fn, LLVMBasicBlockRef *configured,
                        unsigned nconf) {
  pg_loop_info *li = pg_loops_compute(fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    int dominated = 0;
    for (unsigned k = 0; k < nconf && !dominated; ++k)
      dominated = configured[k] == bb || pg_block_dominates(li, configured[k], bb);
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); dominated && i; i = LLVMGetNextInstruction(i))
      if (is_stub_call_shape(i))
        PG_PUSH(p->calls, p->n, p->cap, i);
  }
  pg_loops_free(li);
}

void pg_pointer_launches_build(pg_pointer_launches *p, LLVMModuleRef m) {
  memset(p, 0, sizeof *p);
  LLVMValueRef push_fn = LLVMGetNamedFunction(m, "__cudaPushCallConfiguration");
  if (!push_fn)
    return;
  LLVMBasicBlockRef *configured = NULL;
  unsigned cap = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (LLVMIsDeclaration(fn))
      continue;
    unsigned nconf = configured_blocks(fn, push_fn, &configured, &cap);
    if (nconf)
      launches_in(p, fn, configured, nconf);
  }
  free(configured);
  if (p->n)
    qsort(p->calls, p->n, sizeof *p->calls, pg_by_address);
}

void pg_pointer_launches_free(pg_pointer_launches *p) {
  free(p->calls);
  memset(p, 0, sizeof *p);
}

int pg_is_pointer_launch(const pg_pointer_launches *p, LLVMValueRef call) {
  return p->n && bsearch(&call, p->calls, p->n, sizeof *p->calls, pg_by_address) != NULL;
}

/* Is the stub this file's own at run time: a strong definition, or a
 * linkonce_odr one that own_copies.h makes internal?  A weak stub (an
 * explicit instantiation's, or an interposable one) may be another file's,
 * which launches behind the runtime's back: not in the table, its pointer
 * splits the region. */
static int stays_this_files(LLVMValueRef stub) {
  switch (LLVMGetLinkage(stub)) {
  case LLVMExternalLinkage:
  case LLVMInternalLinkage:
  case LLVMPrivateLinkage:
  case LLVMLinkOnceODRLinkage:
    return 1;
  default:
    return 0;
  }
}

LLVMValueRef pg_kernel_stub_table(LLVMModuleRef m, unsigned *nstubs) {
  LLVMValueRef g = LLVMGetNamedGlobal(m, kTableName);
  if (g) {
    *nstubs = LLVMGetArrayLength2(LLVMGlobalGetValueType(g));
    return g;
  }
  pg_kernel_registry reg;
  pg_registry_build(&reg, m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0);
  LLVMValueRef *stubs = calloc(reg.n ? reg.n : 1, sizeof *stubs);
  if (!stubs)
    pg_out_of_memory();
  unsigned n = 0;
  for (unsigned i = 0; i < reg.n; ++i)
    if (stays_this_files(reg.kernels[i].stub))
      stubs[n++] = reg.kernels[i].stub;
  LLVMValueRef arr = LLVMConstArray2(ptr, stubs, n);
  g = LLVMAddGlobal(m, LLVMTypeOf(arr), kTableName);
  LLVMSetInitializer(g, arr);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  *nstubs = n;
  free(stubs);
  pg_registry_free(&reg);
  return g;
}
