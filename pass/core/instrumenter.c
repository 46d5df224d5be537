/* instrumenter.c - emit descriptors and runtime calls. */
#include "instrumenter.h"
#include "abi_ir.h"
#include "external_calls.h"
#include "ir_util.h"
#include "launch_args.h"
#include "options.h"
#include "twin_registration.h"
#include "whole_loop_emit.h"
#include "whole_loop_instrument.h"
#include "pygraph_abi.h"

#include <llvm-c/DebugInfo.h>

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

/* ---- the ABI of runtime/include/pygraph_abi.def, as LLVM types -------- */
/* Field numbers (SITE_kernel, REGION_trip_count, ...) and kinds, in order. */
enum site_field {
#define PYGRAPH_SITE_FIELD(type, name, ir) SITE_##name,
#include "pygraph_abi.def"
  SITE_NFIELDS
};
static const pg_abi_ir kSiteKinds[SITE_NFIELDS] = {
#define PYGRAPH_SITE_FIELD(type, name, ir) PG_IR_##ir,
#include "pygraph_abi.def"
};
enum region_field {
#define PYGRAPH_REGION_FIELD(type, name, ir) REGION_##name,
#include "pygraph_abi.def"
  REGION_NFIELDS
};
static const pg_abi_ir kRegionKinds[REGION_NFIELDS] = {
#define PYGRAPH_REGION_FIELD(type, name, ir) PG_IR_##ir,
#include "pygraph_abi.def"
};

/* A descriptor global of the given field kinds; every value must be set
 * (a field added to pygraph_abi.def and not filled here stops the build of
 * the module rather than emitting a short descriptor). */
static LLVMValueRef descriptor(LLVMModuleRef m, const pg_abi_ir *kinds, LLVMValueRef *vals,
                               unsigned n, const char *name) {
  LLVMTypeRef ty = pg_abi_struct_type(m, kinds, n);
  LLVMValueRef g = LLVMAddGlobal(m, ty, name);
  LLVMSetInitializer(g, pg_abi_struct_const(ty, vals, n, name));
  LLVMSetAlignment(g, 8);
  return g;
}

/* struct pygraph_region (pygraph_abi.def) for scope s. */
static LLVMValueRef region_desc(LLVMModuleRef m, const pg_scope *s, const char *fn_name,
                                const char *file, unsigned lb, unsigned le,
                                unsigned n_launches) {
  LLVMTypeRef i32 = i32_ty(m), i64 = pg_abi_ir_type(m, PG_IR_I64);
  LLVMValueRef vals[REGION_NFIELDS] = {0};
  vals[REGION_abi_version] = LLVMConstInt(i32, PYGRAPH_ABI_VERSION, 0);
  unsigned kind = !s->loop ? PYGRAPH_REGION_STRAIGHT
                  : s->batch.ok ? PYGRAPH_REGION_BATCH
                                : PYGRAPH_REGION_LOOP;
  vals[REGION_kind] = LLVMConstInt(i32, kind, 0);
  vals[REGION_n_segments] = LLVMConstInt(i32, s->n_instrumented, 0);
  vals[REGION_n_static_launches] = LLVMConstInt(i32, n_launches, 0);
  vals[REGION_function] = cstring(m, fn_name);
  vals[REGION_file] = cstring(m, file && file[0] ? file : NULL);
  vals[REGION_line_begin] = LLVMConstInt(i32, lb, 0);
  vals[REGION_line_end] = LLVMConstInt(i32, le, 0);
  vals[REGION_trip_count] =
      LLVMConstInt(i64, s->trip_count ? s->trip_count : (unsigned long long)-1LL, 1);
  vals[REGION_batch_max] = LLVMConstInt(i32, s->batch.ok ? (unsigned)pg_opts()->batch : 0, 0);
  vals[REGION_state] = LLVMConstNull(ptr_ty(m));
  vals[REGION_whole_loop] = pg_whole_loop_emit(m, s->whole_loops);
  LLVMValueRef g = descriptor(m, kRegionKinds, vals, REGION_NFIELDS, ".pygraph.region");
  LLVMSetLinkage(g, LLVMInternalLinkage); /* written by the runtime: `state` */
  return g;
}

/* The region descriptor of an instrumented scope. */
static LLVMValueRef scope_desc(LLVMModuleRef m, const pg_scope *s, const char *fn_name) {
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
  return region_desc(m, s, fn_name, file, lb, le, nl);
}

/* loop_enter(r, trips) last before the preheader's terminator, after the
 * end of the function scope's region there: trips is counted at run time
 * where ScalarEvolution can, -1 otherwise. */
static void loop_enter(LLVMModuleRef m, LLVMBuilderRef b, pg_loop_info *li, const pg_scope *s,
                       LLVMValueRef desc) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(pg_loop_preheader(s->loop));
  LLVMValueRef trips = pg_loop_expand_trip_count(li, s->loop, term);
  LLVMValueRef none = LLVMConstInt(pg_abi_ir_type(m, PG_IR_I64), -1, 1);
  LLVMValueRef args[2] = {desc, trips ? trips : none};
  pg_call_before(b, term, pg_protocol_type(m, PG_PROTOCOL_region_loop_enter),
              pg_protocol_fn(m, PG_PROTOCOL_region_loop_enter), args, 2);
}

void pg_instrument_function(LLVMModuleRef m, pg_function_plan *plan, const char *fn_name) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMValueRef beginf = pg_protocol_fn(m, PG_PROTOCOL_region_begin);
  LLVMValueRef endf = pg_protocol_fn(m, PG_PROTOCOL_region_end);
  LLVMTypeRef begin_ty = pg_protocol_type(m, PG_PROTOCOL_region_begin);
  LLVMTypeRef end_ty = pg_protocol_type(m, PG_PROTOCOL_region_end);
  LLVMValueRef *descs = calloc(plan->nscopes ? plan->nscopes : 1, sizeof *descs);
  if (!descs)
    pg_out_of_memory();
  for (unsigned k = 0; k < plan->nscopes; ++k)
    if (plan->scopes[k].n_instrumented)
      descs[k] = scope_desc(m, &plan->scopes[k], fn_name);
  /* Order at a shared point: loop-exit ends (exits for batchable loops),
   * then begins, then the ends in front of barriers (so a begin never
   * follows the end of its barrier), then loop enters. */
  for (unsigned k = 0; k < plan->nscopes; ++k) {
    int batch = plan->scopes[k].batch.ok;
    pg_protocol_call leave = batch ? PG_PROTOCOL_region_exit : PG_PROTOCOL_region_end;
    for (unsigned i = 0; descs[k] && i < plan->scopes[k].nentry_ends; ++i)
      pg_call_before(b, plan->scopes[k].entry_ends[i], pg_protocol_type(m, leave),
                  pg_protocol_fn(m, leave), &descs[k], 1);
  }
  for (unsigned k = 0; k < plan->nscopes; ++k)
    for (unsigned i = 0; descs[k] && i < plan->scopes[k].nsegs; ++i) {
      pg_segment *seg = &plan->scopes[k].segs[i];
      if (seg->index < 0)
        continue;
      LLVMValueRef args[2] = {descs[k], LLVMConstInt(i32_ty(m), (unsigned)seg->index, 0)};
      pg_call_before(b, seg->begin_before, begin_ty, beginf, args, 2);
    }
  for (unsigned k = 0; k < plan->nscopes; ++k)
    for (unsigned i = 0; descs[k] && i < plan->scopes[k].nends; ++i)
      pg_call_before(b, plan->scopes[k].ends[i], end_ty, endf, &descs[k], 1);
  for (unsigned k = 0; k < plan->nscopes; ++k)
    if (descs[k] && plan->scopes[k].batch.ok)
      loop_enter(m, b, plan->loops, &plan->scopes[k], descs[k]);
  for (unsigned k = 0; k < plan->nscopes; ++k)
    for (unsigned i = 0; descs[k] && i < plan->scopes[k].nsofts; ++i)
      pg_external_hook(m, plan->scopes[k].softs[i].call, descs[k],
                       plan->scopes[k].softs[i].index);
  /* last: it enters after the region's end in the preheader and tries
   * before the region's begin in the header */
  pg_whole_loops_instrument(m, plan, descs);
  free(descs);
  LLVMDisposeBuilder(b);
}

/* struct pygraph_site (pygraph_abi.def) for a routed call. */
static LLVMValueRef site_desc(LLVMModuleRef m, const pg_call_info *ci, LLVMValueRef call) {
  LLVMTypeRef i32 = i32_ty(m);
  unsigned line;
  const char *file = pg_inst_file(call, &line, NULL);
  LLVMValueRef vals[SITE_NFIELDS] = {0};
  vals[SITE_kernel] = cstring(m, ci->kernel ? ci->kernel->mangled : NULL);
  vals[SITE_file] = cstring(m, file[0] ? file : NULL);
  vals[SITE_line] = LLVMConstInt(i32, line, 0);
  vals[SITE_arg_slots] = LLVMConstInt(i32, pg_launch_arg_slots(m, ci, call), 0);
  /* The indirect twin's handle, when pg_register_twins registered one. */
  LLVMValueRef twin = ci->kernel ? pg_twin_handle(m, ci->kernel->mangled) : NULL;
  vals[SITE_indirect_twin] = twin ? twin : LLVMConstNull(ptr_ty(m));
  LLVMValueRef g = descriptor(m, kSiteKinds, vals, SITE_NFIELDS, ".pygraph.site");
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
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
  char *name = pg_strf(PYGRAPH_ROUTED_PREFIX "%s", LLVMGetValueName2(callee, &len));
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

/* Only API calls (not -O0 stub calls): those are where work is enqueued,
 * and the management calls the runtime observes (pygraph_abi.def), which
 * stay barriers.  A routed stream operation classified a barrier (a copy
 * to the host) is not routed: the runtime would defer it. */
static int is_routed(const pg_call_info *ci) {
  if (!ci->api)
    return 0;
  if (pg_api_observed(ci->api))
    return 1;
  return pg_api_routed(ci->api) && (ci->kind == PG_CALL_LAUNCH ||
                                    ci->kind == PG_CALL_STUB_INTERNAL ||
                                    ci->kind == PG_CALL_ROUTED_OP);
}

void pg_reroute_call(LLVMModuleRef m, const pg_call_info *ci) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  reroute(m, b, ci, ci->inst);
  LLVMDisposeBuilder(b);
}

/* @llvm.compiler.used gains `g` (the optimizer then keeps it; the
 * variable is made again with one more element). */
static void keep_global(LLVMModuleRef m, LLVMValueRef g) {
  LLVMValueRef old = LLVMGetNamedGlobal(m, "llvm.compiler.used");
  LLVMValueRef init = old ? LLVMGetInitializer(old) : NULL;
  unsigned n = init ? (unsigned)LLVMGetNumOperands(init) : 0;
  LLVMValueRef *elems = calloc(n + 1, sizeof *elems);
  if (!elems)
    pg_out_of_memory();
  for (unsigned i = 0; i < n; ++i)
    elems[i] = LLVMGetOperand(init, i);
  elems[n] = g;
  LLVMValueRef arr = LLVMConstArray2(ptr_ty(m), elems, n + 1);
  if (old)
    LLVMDeleteGlobal(old);
  LLVMValueRef used = LLVMAddGlobal(m, LLVMTypeOf(arr), "llvm.compiler.used");
  LLVMSetInitializer(used, arr);
  LLVMSetLinkage(used, LLVMAppendingLinkage);
  LLVMSetSection(used, "llvm.metadata");
  free(elems);
}

/* The library functions whose calls were routed stay referenced by the
 * program (a constant table of their addresses, kept): the runtime's
 * adapter refers to them only weakly (a program without the library links
 * it), so without this a link with --as-needed could drop the library the
 * program called. */
static void keep_library_refs(LLVMModuleRef m, LLVMValueRef *fns, unsigned n) {
  if (!n)
    return;
  LLVMValueRef arr = LLVMConstArray2(ptr_ty(m), fns, n);
  LLVMValueRef g = LLVMAddGlobal(m, LLVMTypeOf(arr), ".pygraph.library_refs");
  LLVMSetInitializer(g, arr);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  keep_global(m, g);
}

/* Adds ci's callee to fns when it is a library function not there yet. */
static void note_library_callee(const pg_call_info *ci, LLVMValueRef **fns, unsigned *n,
                                unsigned *cap) {
  if (ci->api->cls != PG_API_LIBRARY)
    return;
  for (unsigned k = 0; k < *n; ++k)
    if ((*fns)[k] == ci->callee)
      return;
  PG_PUSH(*fns, *n, *cap, ci->callee);
}

unsigned pg_reroute_calls(LLVMModuleRef m, const pg_call_map *calls) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMValueRef *library = NULL;
  unsigned n = 0, nlibrary = 0, caplibrary = 0;
  /* In module order, as the map holds them; each call is erased here and
   * read nowhere after. */
  for (unsigned i = 0; i < calls->n; ++i)
    if (is_routed(&calls->calls[i])) {
      note_library_callee(&calls->calls[i], &library, &nlibrary, &caplibrary);
      reroute(m, b, &calls->calls[i], calls->calls[i].inst);
      ++n;
    }
  keep_library_refs(m, library, nlibrary);
  free(library);
  LLVMDisposeBuilder(b);
  return n;
}
