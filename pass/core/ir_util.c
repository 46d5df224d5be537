/* ir_util.c - small LLVM-C helpers shared by the pass core. */
#include "ir_util.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include "../shim/pygraph_shim.h"

#include <llvm-c/DebugInfo.h>

#include <stdio.h>
#include <string.h>

int pg_is_call(LLVMValueRef inst) {
  return inst && (LLVMIsACallInst(inst) || LLVMIsAInvokeInst(inst));
}

LLVMValueRef pg_strip(LLVMValueRef v) {
  while (v) {
    if (LLVMIsAGlobalAlias(v)) {
      v = LLVMAliasGetAliasee(v);
    } else if (LLVMIsAConstantExpr(v) &&
               (LLVMGetConstOpcode(v) == LLVMBitCast ||
                LLVMGetConstOpcode(v) == LLVMAddrSpaceCast)) {
      v = LLVMGetOperand(v, 0);
    } else if (LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v)) {
      v = LLVMGetOperand(v, 0);
    } else {
      break;
    }
  }
  return v;
}

LLVMValueRef pg_called_function(LLVMValueRef call) {
  if (!pg_is_call(call))
    return NULL;
  LLVMValueRef callee = pg_strip(LLVMGetCalledValue(call));
  return (callee && LLVMIsAFunction(callee)) ? callee : NULL;
}

const char *pg_called_name(LLVMValueRef call) {
  LLVMValueRef f = pg_called_function(call);
  size_t len;
  return f ? LLVMGetValueName2(f, &len) : NULL;
}

const char *pg_global_cstring(LLVMValueRef v) {
  v = pg_strip(v);
  if (!v || !LLVMIsAGlobalVariable(v))
    return NULL;
  LLVMValueRef init = LLVMGetInitializer(v);
  if (!init || !LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init))
    return NULL;
  size_t len;
  return LLVMGetAsString(init, &len);
}

const char *pg_inst_file(LLVMValueRef inst, unsigned *line, unsigned *col) {
  return pg_user_loc(inst, line, col);
}

unsigned pg_block_preds(LLVMBasicBlockRef bb, LLVMBasicBlockRef *out, unsigned max) {
  unsigned n = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsATerminatorInst(user))
      continue;
    LLVMBasicBlockRef p = LLVMGetInstructionParent(user);
    int dup = 0;
    for (unsigned i = 0; i < n && i < max; ++i)
      dup |= out[i] == p;
    if (dup)
      continue;
    if (n < max)
      out[n] = p;
    ++n;
  }
  return n;
}

int pg_module_is_device(LLVMModuleRef m) {
  const char *t = LLVMGetTarget(m);
  return t && (strncmp(t, "nvptx", 5) == 0 || strncmp(t, "amdgcn", 6) == 0);
}

int pg_const_int(LLVMValueRef v, long long *out) {
  if (!v || !LLVMIsAConstantInt(v))
    return 0;
  *out = LLVMConstIntGetSExtValue(v);
  return 1;
}

LLVMValueRef pg_private_cstring(LLVMModuleRef m, const char *s, const char *name) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMValueRef init = LLVMConstStringInContext2(ctx, s, strlen(s), 0);
  LLVMValueRef g = LLVMAddGlobal(m, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  LLVMSetAlignment(g, 1);
  return g;
}

_Noreturn void pg_out_of_memory(void) {
  fputs("pygraph: out of memory\n", stderr);
  abort();
}

void *pg_grow(void *arr, unsigned *cap, size_t elem) {
  unsigned want = *cap ? 2 * *cap : 8;
  if (want <= *cap || (size_t)want > SIZE_MAX / elem)
    pg_out_of_memory();
  void *grown = realloc(arr, (size_t)want * elem);
  if (!grown)
    pg_out_of_memory();
  *cap = want;
  return grown;
}

char *pg_strf(const char *fmt, ...) {
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *out = malloc(n > 0 ? (size_t)n + 1 : 1);
  if (n > 0)
    vsnprintf(out, (size_t)n + 1, fmt, again);
  else
    out[0] = '\0';
  va_end(again);
  return out;
}

char *pg_loc_dup(LLVMValueRef inst) {
  unsigned line;
  const char *file = pg_inst_file(inst, &line, NULL);
  if (!line)
    return pg_strf("<unknown location>");
  const char *base = strrchr(file, '/');
  return pg_strf("%s:%u", base ? base + 1 : file, line);
}

unsigned pg_count_definitions(LLVMModuleRef m) {
  unsigned n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    n += !LLVMIsDeclaration(f);
  return n;
}

LLVMValueRef pg_call_before(LLVMBuilderRef b, LLVMValueRef before, LLVMTypeRef ty, LLVMValueRef fn,
                            LLVMValueRef *args, unsigned nargs) {
  LLVMPositionBuilderBefore(b, before);
  LLVMValueRef call = LLVMBuildCall2(b, ty, fn, args, nargs, "");
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(before);
  if (loc)
    LLVMInstructionSetDebugLoc(call, loc);
  return call;
}

int pg_by_address(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (const void *const *)a, y = (uintptr_t) * (const void *const *)b;
  return (x > y) - (x < y);
}
