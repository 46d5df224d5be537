/* whole_loop_instrument.c - the whole-loop protocol around candidate
 * loops (whole_loop_instrument.h). */
#include "whole_loop_instrument.h"
#include "abi_ir.h"
#include "ir_util.h"
#include "options.h"
#include "pygraph_abi.h"

#include <llvm-c/DebugInfo.h>

#include <stdlib.h>
#include <string.h>

/* ---- the protocol's entry points (pygraph_abi.def) ----------------------- */

#define PG_IR_KINDS_3(a, b, c) {PG_IR_##a, PG_IR_##b, PG_IR_##c}
enum loop_call {
#define PYGRAPH_LOOP_CALL(ret, ir_ret, name, n, ir, ...) LOOP_##name,
#include "pygraph_abi.def"
  LOOP_NCALLS
};
static const struct {
  const char *name;
  pg_abi_ir ret;
  pg_abi_ir params[3];
} kCalls[LOOP_NCALLS] = {
#define PYGRAPH_LOOP_CALL(ret, ir_ret, name, n, ir, ...) \
  {PYGRAPH_ROUTED_PREFIX #name, PG_IR_##ir_ret, PG_IR_KINDS_##n ir},
#include "pygraph_abi.def"
};

static LLVMTypeRef call_type(LLVMModuleRef m, enum loop_call which) {
  LLVMTypeRef params[3];
  for (unsigned i = 0; i < 3; ++i)
    params[i] = pg_abi_ir_type(m, kCalls[which].params[i]);
  return LLVMFunctionType(pg_abi_ir_type(m, kCalls[which].ret), params, 3, 0);
}

static LLVMValueRef call(LLVMModuleRef m, LLVMBuilderRef b, enum loop_call which,
                         LLVMValueRef *args) {
  LLVMTypeRef ty = call_type(m, which);
  LLVMValueRef f = LLVMGetNamedFunction(m, kCalls[which].name);
  if (!f)
    f = LLVMAddFunction(m, kCalls[which].name, ty);
  return LLVMBuildCall2(b, ty, f, args, 3, "");
}

/* ---- values computed before the loop ----------------------------------- */

static int in_loop(pg_loop *l, LLVMValueRef v) {
  return v && LLVMIsAInstruction(v) && pg_loop_contains_block(l, LLVMGetInstructionParent(v));
}

/* A divisor that cannot trap: a constant other than 0 (and -1, signed). */
static int safe_divisor(LLVMValueRef d, int is_signed) {
  long long k;
  return pg_const_int(d, &k) && k != 0 && !(is_signed && k == -1);
}

/* Whether an instruction of the loop can be computed again before it:
 * a plain load (of a slot the loop does not write: the judge saw to that)
 * or arithmetic that cannot trap. */
static int recomputable_op(LLVMValueRef v) {
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMLoad:
    return !LLVMGetVolatile(v) && LLVMGetOrdering(v) == LLVMAtomicOrderingNotAtomic;
  case LLVMUDiv: case LLVMURem:
    return safe_divisor(LLVMGetOperand(v, 1), 0);
  case LLVMSDiv: case LLVMSRem:
    return safe_divisor(LLVMGetOperand(v, 1), 1);
  case LLVMGetElementPtr: case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI:
  case LLVMFPToSI: case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt:
  case LLVMPtrToInt: case LLVMIntToPtr: case LLVMBitCast: case LLVMAdd: case LLVMSub:
  case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr:
  case LLVMXor: case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFNeg:
  case LLVMICmp: case LLVMFCmp: case LLVMSelect: case LLVMFreeze:
    return 1;
  default:
    return 0;
  }
}

/* v can be had before the loop: a value from outside it, or one it
 * computes from such values (a few steps deep). */
static int before_loop(pg_loop *l, LLVMValueRef v, unsigned depth) {
  if (!in_loop(l, v))
    return 1;
  if (depth > 8 || !recomputable_op(v))
    return 0;
  for (int k = 0; k < LLVMGetNumOperands(v); ++k)
    if (!before_loop(l, LLVMGetOperand(v, (unsigned)k), depth + 1))
      return 0;
  return 1;
}

/* ---- the check ------------------------------------------------------------ */

static int int_of(LLVMValueRef v, LLVMTypeRef t) {
  return !v || LLVMTypeOf(v) == t;
}

/* A value the loop leaves that the exits can be given (see the header). */
static int liveout_ok(const pg_whole_loop *wl, const pg_wl_liveout *lo, int exits_after_top) {
  pg_loop *l = wl->loop;
  LLVMTypeRef t = LLVMTypeOf(lo->v);
  if (lo->kind == PG_WLO_FIELD)
    return lo->after_copy || !exits_after_top;
  if (lo->kind != PG_WLO_EVOLUTION)
    return 1;
  switch (lo->val.evolution) {
  case PYGRAPH_EVOLVE_INVARIANT:
    return before_loop(l, lo->v, 0);
  case PYGRAPH_EVOLVE_AFFINE:
    if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
      return lo->base && before_loop(l, lo->base, 0) &&
             int_of(lo->step_by, LLVMInt64TypeInContext(LLVMGetTypeContext(t))) &&
             before_loop(l, lo->step_by, 0);
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind && int_of(lo->base, t) &&
           int_of(lo->step_by, t) && before_loop(l, lo->base, 0) &&
           before_loop(l, lo->step_by, 0);
  default:
    for (unsigned k = 0; k < lo->val.count; ++k)
      if (LLVMTypeOf(lo->members[k]) != t || !before_loop(l, lo->members[k], 0))
        return 0;
    return lo->val.count > 0;
  }
}

/* Some exit test is made after the iteration's first operation. */
static int exits_after_top(const pg_whole_loop *wl) {
  for (unsigned k = 0; k < wl->nnodes; ++k)
    if (wl->nodes[k].op == PYGRAPH_EXIT_LEAVE && wl->nodes[k].arg != PYGRAPH_EXIT_AT_TOP)
      return 1;
  return 0;
}

void pg_wl_instrument_check(const pg_scope *s, pg_whole_loop *wl) {
  wl->not_run = NULL;
  if (wl->why != PG_WL_CANDIDATE)
    return;
  if (pg_opts()->whole_loops < 2)
    wl->not_run = "whole-loops=2 not given";
  else if (!s->n_instrumented)
    wl->not_run = "the loop forms no graph region";
  else if (wl->status_copy == PYGRAPH_STATUS_MEMCPY_FROM_SYMBOL)
    wl->not_run = "a status copy from a symbol";
  else if (wl->nexits > 64)
    wl->not_run = "more than 64 exit tests";
  else if (wl->copy &&
           LLVMGetTypeKind(LLVMTypeOf(wl->invariants[wl->status_dest])) != LLVMPointerTypeKind)
    wl->not_run = "a status destination that is no pointer";
  for (unsigned k = 0; !wl->not_run && k < wl->ninv; ++k)
    if (!before_loop(wl->loop, wl->invariants[k], 0))
      wl->not_run = "an invariant the loop computes that cannot be computed before it";
  int after_top = exits_after_top(wl);
  for (unsigned k = 0; !wl->not_run && k < wl->nliveouts; ++k)
    if (!liveout_ok(wl, &wl->liveouts[k], after_top))
      wl->not_run = "a value used after the loop that cannot be recomputed where it leaves";
}

/* ---- emission ---------------------------------------------------------------- */

typedef struct emit {
  LLVMModuleRef m;
  LLVMContextRef ctx;
  LLVMBuilderRef b;
  pg_whole_loop *wl;
  LLVMValueRef region;
  LLVMBasicBlockRef body;     /* the header's rest once split off (LoopInfo knows it not) */
  LLVMValueRef *from, *to;    /* values of the loop computed again before it */
  unsigned nmade, capmade, captos;
  LLVMValueRef inv, left;     /* the allocas */
  LLVMValueRef dest;          /* the status destination, before the loop */
} emit;

static int in_loop_now(const emit *e, LLVMValueRef v) {
  return in_loop(e->wl->loop, v) ||
         (e->body && LLVMIsAInstruction(v) && LLVMGetInstructionParent(v) == e->body);
}

/* v as computed before the loop (pg_wl_instrument_check said it can be):
 * itself, or its instructions again, last before the preheader's end. */
static LLVMValueRef before(emit *e, LLVMValueRef v) {
  if (!in_loop(e->wl->loop, v))
    return v;
  for (unsigned k = 0; k < e->nmade; ++k)
    if (e->from[k] == v)
      return e->to[k];
  LLVMValueRef c = LLVMInstructionClone(v);
  for (int k = 0; k < LLVMGetNumOperands(v); ++k)
    LLVMSetOperand(c, (unsigned)k, before(e, LLVMGetOperand(v, (unsigned)k)));
  LLVMInsertIntoBuilderWithName(e->b, c, "");
  unsigned n = e->nmade;
  PG_PUSH(e->from, e->nmade, e->capmade, v);
  PG_PUSH(e->to, n, e->captos, c);
  return c;
}

/* v's bits as the runtime reads an invariant (pygraph_rt.h). */
static LLVMValueRef bits64(emit *e, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v), i64 = LLVMInt64TypeInContext(e->ctx);
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    if (LLVMGetIntTypeWidth(t) > 64)
      break;
    return LLVMGetIntTypeWidth(t) < 64 ? LLVMBuildZExt(e->b, v, i64, "") : v;
  case LLVMPointerTypeKind:
    return LLVMBuildPtrToInt(e->b, v, i64, "");
  case LLVMFloatTypeKind:
    return LLVMBuildZExt(e->b, LLVMBuildBitCast(e->b, v, LLVMInt32TypeInContext(e->ctx), ""),
                         i64, "");
  case LLVMDoubleTypeKind:
    return LLVMBuildBitCast(e->b, v, i64, "");
  default:
    break;
  }
  return LLVMConstInt(i64, 0, 0);
}

static LLVMValueRef first_insertion_point(LLVMBasicBlockRef bb) {
  LLVMValueRef i = LLVMGetFirstInstruction(bb);
  while (i && (LLVMIsAPHINode(i) || LLVMIsALandingPadInst(i)))
    i = LLVMGetNextInstruction(i);
  return i;
}

static void position_before(emit *e, LLVMValueRef at) {
  LLVMPositionBuilderBefore(e->b, at);
  LLVMSetCurrentDebugLocation2(e->b, LLVMInstructionGetDebugLoc(at));
}

/* The allocas, the invariants stored, the values the exits need computed,
 * and the enter call: last in the preheader. */
static void enter(emit *e) {
  pg_whole_loop *wl = e->wl;
  LLVMTypeRef i64 = LLVMInt64TypeInContext(e->ctx);
  LLVMTypeRef arr = LLVMArrayType2(i64, wl->ninv ? wl->ninv : 1);
  LLVMValueRef fn = LLVMGetBasicBlockParent(pg_loop_header(wl->loop));
  position_before(e, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
  e->inv = LLVMBuildAlloca(e->b, arr, "pg.wl.inv");
  e->left = LLVMBuildAlloca(e->b, i64, "pg.wl.left");
  position_before(e, LLVMGetBasicBlockTerminator(pg_loop_preheader(wl->loop)));
  for (unsigned k = 0; k < wl->ninv; ++k) {
    LLVMValueRef idx[2] = {LLVMConstInt(i64, 0, 0), LLVMConstInt(i64, k, 0)};
    LLVMValueRef slot = LLVMBuildInBoundsGEP2(e->b, arr, e->inv, idx, 2, "");
    LLVMBuildStore(e->b, bits64(e, before(e, wl->invariants[k])), slot);
  }
  if (wl->copy) { /* a counted loop has no status (and no field to reload) */
    LLVMValueRef off = LLVMConstInt(i64, (unsigned long long)wl->status_dest_offset, 1);
    e->dest = LLVMBuildGEP2(e->b, LLVMInt8TypeInContext(e->ctx),
                            before(e, wl->invariants[wl->status_dest]), &off, 1, "pg.wl.dest");
  }
  for (unsigned k = 0; k < wl->nliveouts; ++k) {
    const pg_wl_liveout *lo = &wl->liveouts[k];
    if (lo->kind != PG_WLO_EVOLUTION)
      continue;
    if (lo->val.evolution == PYGRAPH_EVOLVE_INVARIANT)
      before(e, lo->v);
    if (lo->base)
      before(e, lo->base);
    if (lo->step_by)
      before(e, lo->step_by);
    for (unsigned j = 0; lo->members && j < lo->val.count; ++j)
      before(e, lo->members[j]);
  }
  LLVMValueRef args[3] = {e->region, wl->desc, e->inv};
  call(e->m, e->b, LOOP_whole_loop_enter, args);
}

static const pg_wl_liveout *liveout_of(const pg_whole_loop *wl, LLVMValueRef v) {
  for (unsigned k = 0; k < wl->nliveouts; ++k)
    if (wl->liveouts[k].v == v)
      return &wl->liveouts[k];
  return NULL;
}

/* An affine value in iteration i: base + a + b * step * i, wrapping at
 * its type (pointers: bytes from base). */
static LLVMValueRef affine(emit *e, const pg_wl_liveout *lo, LLVMValueRef i) {
  LLVMTypeRef t = LLVMTypeOf(lo->v);
  int ptr = LLVMGetTypeKind(t) == LLVMPointerTypeKind;
  LLVMTypeRef it = ptr ? LLVMInt64TypeInContext(e->ctx) : t;
  LLVMValueRef n = LLVMGetIntTypeWidth(it) < 64 ? LLVMBuildTrunc(e->b, i, it, "") : i;
  LLVMValueRef r = LLVMBuildMul(e->b, LLVMConstInt(it, (unsigned long long)lo->val.b, 1), n, "");
  if (lo->step_by)
    r = LLVMBuildMul(e->b, r, before(e, lo->step_by), "");
  r = LLVMBuildAdd(e->b, r, LLVMConstInt(it, (unsigned long long)lo->val.a, 1), "");
  if (ptr)
    return LLVMBuildGEP2(e->b, LLVMInt8TypeInContext(e->ctx), before(e, lo->base), &r, 1, "");
  return lo->base ? LLVMBuildAdd(e->b, r, before(e, lo->base), "") : r;
}

/* A rotating value in iteration i: member (a + i) % count of its set. */
static LLVMValueRef rotating(emit *e, const pg_wl_liveout *lo, LLVMValueRef i) {
  LLVMTypeRef i64 = LLVMInt64TypeInContext(e->ctx);
  LLVMValueRef pos = LLVMBuildAdd(e->b, i, LLVMConstInt(i64, (unsigned long long)lo->val.a, 0), "");
  pos = LLVMBuildURem(e->b, pos, LLVMConstInt(i64, lo->val.count, 0), "");
  LLVMValueRef v = before(e, lo->members[0]);
  for (unsigned j = 1; j < lo->val.count; ++j) {
    LLVMValueRef is = LLVMBuildICmp(e->b, LLVMIntEQ, pos, LLVMConstInt(i64, j, 0), "");
    v = LLVMBuildSelect(e->b, is, before(e, lo->members[j]), v, "");
  }
  return v;
}

/* What v, a value an exit's phi takes from the loop, is when the loop
 * leaves in iteration i (the builder in that exit's block). */
static LLVMValueRef recompute(emit *e, LLVMValueRef v, LLVMValueRef i) {
  const pg_wl_liveout *lo = in_loop_now(e, v) ? liveout_of(e->wl, v) : NULL;
  if (!lo)
    return v;                 /* from outside the loop (dispatch_ok saw to that) */
  if (lo->kind == PG_WLO_CUDA)
    return LLVMConstNull(LLVMTypeOf(v));
  if (lo->kind == PG_WLO_FIELD) {
    LLVMValueRef off = LLVMConstInt(LLVMInt64TypeInContext(e->ctx), lo->offset, 0);
    LLVMValueRef at = LLVMBuildGEP2(e->b, LLVMInt8TypeInContext(e->ctx), e->dest, &off, 1, "");
    return LLVMBuildLoad2(e->b, LLVMTypeOf(v), at, "");
  }
  if (lo->val.evolution == PYGRAPH_EVOLVE_INVARIANT)
    return before(e, v);
  return lo->val.evolution == PYGRAPH_EVOLVE_AFFINE ? affine(e, lo, i) : rotating(e, lo, i);
}

/* The block outside the loop test t's branch leads to. */
static LLVMBasicBlockRef out_of(const pg_wl_exit *x) {
  return LLVMGetSuccessor(x->br, x->leave_when ? 0 : 1);
}

static LLVMValueRef incoming(LLVMValueRef phi, LLVMBasicBlockRef from) {
  for (unsigned k = 0; k < LLVMCountIncoming(phi); ++k)
    if (LLVMGetIncomingBlock(phi, k) == from)
      return LLVMGetIncomingValue(phi, k);
  return NULL;
}

/* Every phi of every test's exit takes a value the exit can be given
 * (checked before anything is emitted, in LCSSA form). */
static int dispatch_ok(const emit *e) {
  const pg_whole_loop *wl = e->wl;
  for (unsigned t = 0; t < wl->nexits; ++t) {
    LLVMBasicBlockRef to = out_of(&wl->exits[t]), from = LLVMGetInstructionParent(wl->exits[t].br);
    if (in_loop(wl->loop, LLVMGetFirstInstruction(to)))
      return 0;
    for (LLVMValueRef p = LLVMGetFirstInstruction(to); p && LLVMIsAPHINode(p);
         p = LLVMGetNextInstruction(p)) {
      LLVMValueRef v = incoming(p, from);
      if (!v || (in_loop(wl->loop, v) && !liveout_of(wl, v)))
        return 0;
    }
  }
  return 1;
}

/* pg.wl.left for test t: the exit's phis given the values, then the exit. */
static void leave_by(emit *e, LLVMValueRef sw, unsigned t) {
  const pg_wl_exit *x = &e->wl->exits[t];
  LLVMBasicBlockRef to = out_of(x), from = LLVMGetInstructionParent(x->br);
  LLVMValueRef fn = LLVMGetBasicBlockParent(to);
  LLVMBasicBlockRef d = LLVMAppendBasicBlockInContext(e->ctx, fn, "pg.wl.left");
  LLVMAddCase(sw, LLVMConstInt(LLVMInt32TypeInContext(e->ctx), t, 0), d);
  LLVMPositionBuilderAtEnd(e->b, d);
  LLVMValueRef i = LLVMBuildLoad2(e->b, LLVMInt64TypeInContext(e->ctx), e->left, "pg.wl.i");
  for (LLVMValueRef p = LLVMGetFirstInstruction(to); p && LLVMIsAPHINode(p);
       p = LLVMGetNextInstruction(p)) {
    LLVMValueRef v = recompute(e, incoming(p, from), i);
    LLVMAddIncoming(p, &v, &d, 1);
  }
  LLVMBuildBr(e->b, to);
}

/* The try call first in the header, the rest of the header split off as
 * the iteration as written; returns the switch that chooses. */
static LLVMValueRef try_at_top(emit *e) {
  LLVMBasicBlockRef header = pg_loop_header(e->wl->loop);
  LLVMValueRef first = first_insertion_point(header);
  position_before(e, first);
  LLVMValueRef args[3] = {e->region, e->wl->desc, e->left};
  LLVMValueRef k = call(e->m, e->b, LOOP_whole_loop_try, args);
  e->body = pg_split_block_before(first, "pg.wl.iteration");
  LLVMInstructionEraseFromParent(LLVMGetBasicBlockTerminator(header));
  LLVMPositionBuilderAtEnd(e->b, header);
  return LLVMBuildSwitch(e->b, k, e->body, e->wl->nexits);
}

/* Where exit(region, wl, mask) goes in exit block bb: first, or right
 * after a batchable loop's __pygraph_region_exit there, so that the
 * iterations the batch left unrun are issued before the runtime's exit
 * (which may time the execution to its end: whole_loop_choice.c). */
static LLVMValueRef exit_call_point(LLVMBasicBlockRef bb) {
  LLVMValueRef at = first_insertion_point(bb);
  for (LLVMValueRef i = at; i && pg_is_call(i); i = LLVMGetNextInstruction(i)) {
    LLVMValueRef f = pg_called_function(i);
    size_t n;
    if (f && strcmp(LLVMGetValueName2(f, &n), PYGRAPH_ROUTED_PREFIX "region_exit") == 0)
      return LLVMGetNextInstruction(i);
  }
  return at;
}

/* exit(region, wl, mask) first in every exit block of the loop (before
 * the exits get their new predecessors; after a batch's region exit);
 * an exit that begins with an exception pad other than a landing pad
 * gets none (the runtime then stops checking the loop at its next
 * entry). */
static void exit_calls(emit *e) {
  pg_loop *l = e->wl->loop;
  unsigned n = pg_loop_exit_blocks(l, NULL, 0);
  LLVMBasicBlockRef *exits = malloc((n ? n : 1) * sizeof *exits);
  if (!exits)
    pg_out_of_memory();
  pg_loop_exit_blocks(l, exits, n);
  for (unsigned j = 0; j < n; ++j) {
    unsigned long long mask = 0;
    for (unsigned t = 0; t < e->wl->nexits; ++t)
      if (out_of(&e->wl->exits[t]) == exits[j])
        mask |= 1ull << t;
    LLVMValueRef at = first_insertion_point(exits[j]);
    if (!at || LLVMIsAFuncletPadInst(at) || LLVMIsACatchSwitchInst(at))
      continue;
    at = exit_call_point(exits[j]);
    position_before(e, at);
    LLVMValueRef args[3] = {e->region, e->wl->desc,
                            LLVMConstInt(LLVMInt64TypeInContext(e->ctx), mask, 0)};
    call(e->m, e->b, LOOP_whole_loop_exit, args);
  }
  free(exits);
}

/* The protocol around one loop (in LCSSA form, its region's protocol in
 * place); 0 when an exit's value cannot be given (nothing emitted). */
static int instrument(LLVMModuleRef m, pg_whole_loop *wl, LLVMValueRef region) {
  emit e;
  memset(&e, 0, sizeof e);
  e.m = m;
  e.ctx = LLVMGetModuleContext(m);
  e.wl = wl;
  e.region = region;
  if (!dispatch_ok(&e))
    return 0;
  e.b = LLVMCreateBuilderInContext(e.ctx);
  exit_calls(&e);
  enter(&e);
  LLVMValueRef sw = try_at_top(&e);
  for (unsigned t = 0; t < wl->nexits; ++t)
    leave_by(&e, sw, t);
  LLVMDisposeBuilder(e.b);
  free(e.from);
  free(e.to);
  return 1;
}

static int ready(const pg_whole_loop *wl, LLVMValueRef desc) {
  return wl->why == PG_WL_CANDIDATE && !wl->not_run && desc && wl->desc;
}

void pg_whole_loops_instrument(LLVMModuleRef m, pg_function_plan *plan, LLVMValueRef *descs) {
  if (pg_opts()->whole_loops < 2)
    return;
  /* LCSSA for all first: instrumenting one loop changes the CFG the
   * analyses describe */
  for (unsigned k = 0; k < plan->nscopes; ++k)
    for (pg_whole_loop *wl = plan->scopes[k].whole_loops; wl; wl = wl->next)
      if (ready(wl, descs[k]) && !pg_loop_form_lcssa(plan->loops, wl->loop))
        wl->not_run = "the loop cannot be put in LCSSA form";
  for (unsigned k = 0; k < plan->nscopes; ++k)
    for (pg_whole_loop *wl = plan->scopes[k].whole_loops; wl; wl = wl->next)
      if (ready(wl, descs[k]))
        wl->instrumented = instrument(m, wl, descs[k]);
}
