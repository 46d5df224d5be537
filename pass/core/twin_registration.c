/* twin_registration.c - register indirect twins next to their kernels. */
#include "twin_registration.h"
#include "indirect_twins.h"
#include "ir_util.h"
#include "options.h"

#include <llvm-c/DebugInfo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char kHandlePrefix[] = "__pygraph_twin.";

static char *handle_name(const char *mangled) {
  size_t n = strlen(kHandlePrefix) + strlen(mangled) + 1;
  char *s = malloc(n);
  snprintf(s, n, "%s%s", kHandlePrefix, mangled);
  return s;
}

LLVMValueRef pg_twin_handle(LLVMModuleRef m, const char *mangled) {
  if (!mangled)
    return NULL;
  char *name = handle_name(mangled);
  LLVMValueRef g = LLVMGetNamedGlobal(m, name);
  free(name);
  return g;
}

/* The host handle only needs a unique address.  It is writable on purpose:
 * identical read-only data may be folded by a linker (--icf=all). */
static LLVMValueRef new_handle(LLVMModuleRef m, const char *mangled) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef i8 = LLVMInt8TypeInContext(ctx);
  char *name = handle_name(mangled);
  LLVMValueRef g = LLVMAddGlobal(m, i8, name);
  free(name);
  LLVMSetInitializer(g, LLVMConstNull(i8));
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetAlignment(g, 1);
  return g;
}

static int listed(const LLVMValueRef *stubs, unsigned n, LLVMValueRef stub) {
  for (unsigned i = 0; i < n; ++i)
    if (pg_strip(stubs[i]) == stub)
      return 1;
  return 0;
}

unsigned pg_register_twins(LLVMModuleRef m, const LLVMValueRef *stubs, unsigned n,
                           LLVMValueRef *handles) {
  if (handles)
    for (unsigned i = 0; i < n; ++i)
      handles[i] = NULL;
  LLVMValueRef reg = LLVMGetNamedFunction(m, "__cudaRegisterFunction");
  if (!reg || !n || !pg_opts()->indirection || pg_opts()->analyze_only)
    return 0;
  /* Collect first: the new calls are uses of reg too. */
  unsigned ncalls = 0, cap = 16, added = 0;
  LLVMValueRef *calls = malloc(cap * sizeof *calls);
  for (LLVMUseRef u = LLVMGetFirstUse(reg); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || pg_called_function(call) != reg ||
        LLVMGetNumArgOperands(call) < 4)
      continue;
    if (ncalls == cap)
      calls = realloc(calls, (cap *= 2) * sizeof *calls);
    calls[ncalls++] = call;
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  for (unsigned c = 0; c < ncalls; ++c) {
    LLVMValueRef call = calls[c];
    LLVMValueRef stub = pg_strip(LLVMGetOperand(call, 1));
    const char *mangled = pg_global_cstring(LLVMGetOperand(call, 2));
    if (!stub || !LLVMIsAFunction(stub) || !mangled || !listed(stubs, n, stub))
      continue;
    if (strstr(mangled, PG_TWIN_SUFFIX) || pg_twin_handle(m, mangled))
      continue; /* a twin's own registration, or done already */
    size_t tl = strlen(mangled) + sizeof PG_TWIN_SUFFIX;
    char *tname = malloc(tl);
    snprintf(tname, tl, "%s%s", mangled, PG_TWIN_SUFFIX);
    LLVMValueRef handle = new_handle(m, mangled);
    LLVMValueRef str = pg_private_cstring(m, tname, ".pygraph.twin.name");
    unsigned na = LLVMGetNumArgOperands(call);
    LLVMValueRef *args = malloc(na * sizeof *args);
    for (unsigned i = 0; i < na; ++i)
      args[i] = LLVMGetOperand(call, i);
    args[1] = handle;
    args[2] = str;
    args[3] = str;
    LLVMValueRef next = LLVMGetNextInstruction(call);
    LLVMPositionBuilderBefore(b, next);
    LLVMValueRef nc = LLVMBuildCall2(b, LLVMGetCalledFunctionType(call),
                                     LLVMGetCalledValue(call), args, na, "");
    LLVMSetInstructionCallConv(nc, LLVMGetInstructionCallConv(call));
    LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(call);
    if (loc)
      LLVMInstructionSetDebugLoc(nc, loc);
    ++added;
    free(args);
    free(tname);
  }
  LLVMDisposeBuilder(b);
  if (handles)
    for (unsigned i = 0; i < n; ++i) {
      const char *mangled = NULL;
      LLVMValueRef s = pg_strip(stubs[i]);
      for (unsigned c = 0; c < ncalls && !mangled; ++c)
        if (pg_strip(LLVMGetOperand(calls[c], 1)) == s)
          mangled = pg_global_cstring(LLVMGetOperand(calls[c], 2));
      handles[i] = pg_twin_handle(m, mangled);
    }
  free(calls);
  return added;
}
