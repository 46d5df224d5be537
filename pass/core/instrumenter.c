/* instrumenter.c - emit descriptors and runtime calls. */
#include "instrumenter.h"
#include "ir_util.h"
#include "twin_registration.h"

#include <llvm-c/DebugInfo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One private global per distinct string (file names repeat per site). */
static LLVMValueRef cstring(LLVMModuleRef m, const char *s) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  if (!s)
    return LLVMConstNull(LLVMPointerTypeInContext(ctx, 0));
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    size_t n;
    const char *name = LLVMGetValueName2(g, &n);
    const char *have = strncmp(name, ".pygraph.str", 12) == 0 ? pg_global_cstring(g) : NULL;
    if (have && strcmp(have, s) == 0)
      return g;
  }
  return pg_private_cstring(m, s, ".pygraph.str");
}

static LLVMTypeRef ptr_ty(LLVMModuleRef m) {
  return LLVMPointerTypeInContext(LLVMGetModuleContext(m), 0);
}
static LLVMTypeRef i32_ty(LLVMModuleRef m) {
  return LLVMInt32TypeInContext(LLVMGetModuleContext(m));
}

static LLVMValueRef get_fn(LLVMModuleRef m, const char *name, LLVMTypeRef ty) {
  LLVMValueRef f = LLVMGetNamedFunction(m, name);
  return f ? f : LLVMAddFunction(m, name, ty);
}

static LLVMTypeRef begin_ty(LLVMModuleRef m) {
  LLVMTypeRef params[2] = {ptr_ty(m), i32_ty(m)};
  return LLVMFunctionType(LLVMVoidTypeInContext(LLVMGetModuleContext(m)), params, 2, 0);
}
static LLVMTypeRef end_ty(LLVMModuleRef m) {
  LLVMTypeRef params[1] = {ptr_ty(m)};
  return LLVMFunctionType(LLVMVoidTypeInContext(LLVMGetModuleContext(m)), params, 1, 0);
}

/* struct pygraph_region { u32 abi, kind, n_segments, n_static_launches;
 *   const char *function, *file; u32 line_begin, line_end;
 *   long long trip_count; void *state; } */
static LLVMValueRef region_desc(LLVMModuleRef m, const pg_scope *s, const char *fn_name,
                                const char *file, unsigned lb, unsigned le,
                                unsigned n_launches) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = i32_ty(m), i64 = LLVMInt64TypeInContext(ctx), p = ptr_ty(m);
  LLVMTypeRef fields[10] = {i32, i32, i32, i32, p, p, i32, i32, i64, p};
  LLVMTypeRef ty = LLVMStructTypeInContext(ctx, fields, 10, 0);
  LLVMValueRef vals[10] = {
      LLVMConstInt(i32, 1, 0),
      LLVMConstInt(i32, s->loop ? 0 : 1, 0),
      LLVMConstInt(i32, s->n_instrumented, 0),
      LLVMConstInt(i32, n_launches, 0),
      cstring(m, fn_name),
      cstring(m, file && file[0] ? file : NULL),
      LLVMConstInt(i32, lb, 0),
      LLVMConstInt(i32, le, 0),
      LLVMConstInt(i64, s->trip_count ? s->trip_count : (unsigned long long)-1LL, 1),
      LLVMConstNull(p)};
  LLVMValueRef g = LLVMAddGlobal(m, ty, ".pygraph.region");
  LLVMSetInitializer(g, LLVMConstNamedStruct(ty, vals, 10));
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetAlignment(g, 8);
  return g;
}

static void call_before(LLVMBuilderRef b, LLVMValueRef before, LLVMTypeRef ty, LLVMValueRef fn,
                        LLVMValueRef *args, unsigned nargs) {
  LLVMPositionBuilderBefore(b, before);
  LLVMValueRef call = LLVMBuildCall2(b, ty, fn, args, nargs, "");
  /* Keep the neighbour's line so debuggers and remarks stay sensible. */
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(before);
  if (loc)
    LLVMInstructionSetDebugLoc(call, loc);
}

void pg_instrument_function(LLVMModuleRef m, pg_function_plan *plan, const char *fn_name) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMValueRef beginf = get_fn(m, "__pygraph_region_begin", begin_ty(m));
  LLVMValueRef endf = get_fn(m, "__pygraph_region_end", end_ty(m));
  LLVMValueRef *descs = calloc(plan->nscopes, sizeof *descs);
  for (unsigned k = 0; k < plan->nscopes; ++k) {
    pg_scope *s = &plan->scopes[k];
    if (!s->n_instrumented)
      continue;
    unsigned lb = s->line_begin, le = s->line_end, nl = 0, line;
    const char *file = "";
    for (unsigned i = 0; i < s->nsegs; ++i) {
      pg_segment *seg = &s->segs[i];
      if (seg->index < 0)
        continue;
      nl += seg->weight;
      if (seg->first_launch) {
        const char *f = pg_inst_file(seg->first_launch, &line, NULL);
        if (!file[0]) file = f;
        if (!s->loop && line && (!lb || line < lb)) lb = line;
        if (!s->loop && line > le) le = line;
      }
    }
    descs[k] = region_desc(m, s, fn_name, file, lb, le, nl);
  }
  /* Order at a shared point: loop-exit ends, then begins, then the ends in
   * front of barriers (so a begin never follows the end of its barrier). */
  for (unsigned k = 0; k < plan->nscopes; ++k)
    for (unsigned i = 0; descs[k] && i < plan->scopes[k].nentry_ends; ++i)
      call_before(b, plan->scopes[k].entry_ends[i], end_ty(m), endf, &descs[k], 1);
  for (unsigned k = 0; k < plan->nscopes; ++k)
    for (unsigned i = 0; descs[k] && i < plan->scopes[k].nsegs; ++i) {
      pg_segment *seg = &plan->scopes[k].segs[i];
      if (seg->index < 0)
        continue;
      LLVMValueRef args[2] = {descs[k], LLVMConstInt(i32_ty(m), (unsigned)seg->index, 0)};
      call_before(b, seg->begin_before, begin_ty(m), beginf, args, 2);
    }
  for (unsigned k = 0; k < plan->nscopes; ++k)
    for (unsigned i = 0; descs[k] && i < plan->scopes[k].nends; ++i)
      call_before(b, plan->scopes[k].ends[i], end_ty(m), endf, &descs[k], 1);
  free(descs);
  LLVMDisposeBuilder(b);
}

/* struct pygraph_site { const char *kernel, *file; u32 line, flags;
 *   const void *indirect_twin; } */
static LLVMValueRef site_desc(LLVMModuleRef m, const pg_call_info *ci, LLVMValueRef call) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef i32 = i32_ty(m), p = ptr_ty(m);
  LLVMTypeRef fields[5] = {p, p, i32, i32, p};
  LLVMTypeRef ty = LLVMStructTypeInContext(ctx, fields, 5, 0);
  unsigned line;
  const char *file = pg_inst_file(call, &line, NULL);
  LLVMValueRef vals[5] = {cstring(m, ci->kernel ? ci->kernel->mangled : NULL),
                          cstring(m, file[0] ? file : NULL), LLVMConstInt(i32, line, 0),
                          LLVMConstInt(i32, 0, 0), LLVMConstNull(p)};
  /* The indirect twin's handle, when pg_register_twins registered one. */
  LLVMValueRef twin = ci->kernel ? pg_twin_handle(m, ci->kernel->mangled) : NULL;
  if (twin)
    vals[4] = twin;
  LLVMValueRef g = LLVMAddGlobal(m, ty, ".pygraph.site");
  LLVMSetInitializer(g, LLVMConstNamedStruct(ty, vals, 5));
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetAlignment(g, 8);
  return g;
}

static void reroute(LLVMModuleRef m, LLVMBuilderRef b, const pg_call_info *ci, LLVMValueRef call) {
  LLVMValueRef callee = ci->callee;
  LLVMTypeRef fty = LLVMGlobalGetValueType(callee);
  unsigned np = LLVMCountParamTypes(fty);
  LLVMTypeRef *params = calloc(np + 1, sizeof *params);
  params[0] = ptr_ty(m);
  LLVMGetParamTypes(fty, params + 1);
  LLVMTypeRef nty = LLVMFunctionType(LLVMGetReturnType(fty), params, np + 1, 0);
  size_t len;
  char *name = pg_strf("__pygraph_%s", LLVMGetValueName2(callee, &len));
  LLVMValueRef nf = get_fn(m, name, nty);
  free(name);
  unsigned na = LLVMGetNumArgOperands(call);
  LLVMValueRef *args = calloc(na + 1, sizeof *args);
  args[0] = site_desc(m, ci, call);
  for (unsigned i = 0; i < na; ++i)
    args[i + 1] = LLVMGetOperand(call, i);
  LLVMPositionBuilderBefore(b, call);
  /* In C++ code with cleanups, inlined stubs call the launch API through
   * invoke: keep its normal and unwind edges. */
  LLVMValueRef nc = LLVMIsAInvokeInst(call)
                        ? LLVMBuildInvoke2(b, nty, nf, args, na + 1, LLVMGetNormalDest(call),
                                           LLVMGetUnwindDest(call), "")
                        : LLVMBuildCall2(b, nty, nf, args, na + 1, "");
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(call);
  if (loc)
    LLVMInstructionSetDebugLoc(nc, loc);
  LLVMReplaceAllUsesWith(call, nc);
  LLVMInstructionEraseFromParent(call);
  free(params);
  free(args);
}

unsigned pg_reroute_calls(LLVMModuleRef m, const pg_classifier *c) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  unsigned n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;) {
        LLVMValueRef next = LLVMGetNextInstruction(i);
        if (pg_is_call(i)) {
          pg_call_info ci;
          pg_classify(c, i, &ci);
          /* Only API calls (not -O0 stub calls): those are where work is enqueued. */
          if (ci.api && ci.api->routed &&
              (ci.kind == PG_CALL_LAUNCH || ci.kind == PG_CALL_STUB_INTERNAL ||
               ci.kind == PG_CALL_ROUTED_OP)) {
            reroute(m, b, &ci, i);
            ++n;
          }
        }
        i = next;
      }
  LLVMDisposeBuilder(b);
  return n;
}
