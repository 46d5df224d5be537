/* loop_trace.c - one iteration of a loop, followed (loop_trace.h). */
#include "loop_trace.h"
#include "ir_util.h"
#include "loop_values.h"

#include <string.h>

enum { kMemcpyDeviceToHost = 2, kMemcpyDeviceToDevice = 3 };

static const char *name_of(LLVMValueRef f) {
  size_t n;
  return f ? LLVMGetValueName2(f, &n) : "";
}

/* f is CUDA's `base` or one of its per-thread default stream variants
 * (_ptsz for stream calls, _ptds for synchronous ones). */
static int is_api(LLVMValueRef f, const char *base) {
  const char *n = name_of(f);
  size_t len = strlen(base);
  return strncmp(n, base, len) == 0 &&
         (!n[len] || strcmp(n + len, "_ptsz") == 0 || strcmp(n + len, "_ptds") == 0);
}

static int starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int is_memory_intrinsic(LLVMValueRef f) {
  const char *n = name_of(f);
  return starts_with(n, "llvm.memcpy.") || starts_with(n, "llvm.memset.") ||
         starts_with(n, "llvm.memmove.");
}

static long long const_operand(LLVMValueRef call, unsigned k) {
  long long v;
  if (k >= (unsigned)LLVMGetNumArgOperands(call) || !pg_const_int(LLVMGetOperand(call, k), &v))
    return -1;
  return v;
}

/* ---- the status copy ------------------------------------------------- */

static int take_copy(pg_wl_ctx *c, LLVMValueRef call, unsigned kind) {
  pg_whole_loop *wl = c->wl;
  if (wl->copy) {
    wl->at2 = wl->copy;
    return pg_wl_refuse(wl, PG_WL_TWO_COPIES, call);
  }
  long long size = const_operand(call, 2);
  if (size <= 0)
    return pg_wl_refuse(wl, PG_WL_COPY_SIZE, call);
  if (size > (long long)PYGRAPH_WL_MAX_STATUS_BYTES) {
    wl->n = size;
    return pg_wl_refuse(wl, PG_WL_COPY_TOO_LARGE, call);
  }
  long long off;
  LLVMValueRef base = pg_strip_constant_offsets(c->m, LLVMGetOperand(call, 0), &off);
  if (!pg_wl_is_invariant(c, base))
    return pg_wl_refuse(wl, PG_WL_COPY_DEST, call);
  wl->copy = call;
  wl->status_copy = kind;
  wl->status_bytes = (unsigned)size;
  wl->status_op = c->nops;
  wl->dest_base = base;
  wl->status_dest_offset = off;
  wl->status_dest = pg_wl_invariant(c, base);
  PG_PUSH(c->ops, c->nops, c->capops, call);
  if (kind == PYGRAPH_STATUS_MEMCPY_ASYNC)
    c->pending = call;
  else
    c->copy_complete = call;
  return 1;
}

/* A synchronize: completes a pending asynchronous copy on its stream. */
static void synchronize(pg_wl_ctx *c, LLVMValueRef call, LLVMValueRef f) {
  if (!c->pending)
    return;
  if (is_api(f, "cudaStreamSynchronize") &&
      pg_strip(LLVMGetOperand(call, 0)) != pg_strip(LLVMGetOperand(c->pending, 4)))
    return;
  c->pending = NULL;
  c->copy_complete = call;
}

/* A copy that may touch host memory, however the classifier files it (a
 * synchronous copy the runtime defers is an operation, not a barrier):
 * the status copy when it goes device to host, else no candidate (a
 * cudaMemcpyDefault may touch host memory too, a copy to a symbol reads
 * the host unless it goes device to device); 0 with the verdict set,
 * 1 taken, -1 when `call` is no such copy (a device-to-device copy is an
 * operation like any other). */
static int host_copy(pg_wl_ctx *c, LLVMValueRef call, LLVMValueRef f) {
  int sync = is_api(f, "cudaMemcpy"), symbol = is_api(f, "cudaMemcpyFromSymbol");
  int async = is_api(f, "cudaMemcpyAsync"), to_symbol = is_api(f, "cudaMemcpyToSymbol");
  unsigned kind_op = sync || async ? 3 : 4;
  if (!sync && !symbol && !async && !to_symbol)
    return -1;
  long long kind = const_operand(call, kind_op);
  if (!symbol && kind == kMemcpyDeviceToDevice)
    return -1; /* an operation like any other (a routed one, or a barrier judged as such) */
  /* a copy to a symbol from the host: a WHILE graph would deliver the
   * bytes of the iteration it was made from in every iteration */
  if (kind != kMemcpyDeviceToHost || to_symbol ||
      LLVMGetNumArgOperands(call) < (async ? 5 : 4)) {
    c->wl->n = kind;
    return pg_wl_refuse(c->wl, PG_WL_COPY_DIRECTION, call);
  }
  return take_copy(c, call, sync ? PYGRAPH_STATUS_MEMCPY
                            : async ? PYGRAPH_STATUS_MEMCPY_ASYNC
                                    : PYGRAPH_STATUS_MEMCPY_FROM_SYMBOL);
}

/* A barrier other than a copy: a synchronize, or the end of the verdict. */
static int barrier(pg_wl_ctx *c, const pg_call_info *ci) {
  LLVMValueRef call = ci->inst, f = ci->callee;
  if (is_api(f, "cudaStreamSynchronize") || is_api(f, "cudaDeviceSynchronize")) {
    synchronize(c, call, f);
    return 1;
  }
  if (ci->why == PG_WHY_UNKNOWN_EXTERNAL || ci->why == PG_WHY_CALLEE_MAY_SYNC) {
    c->wl->callee = f;
    return pg_wl_refuse(c->wl, PG_WL_CALL_EFFECT, call);
  }
  return pg_wl_refuse(c->wl, PG_WL_BARRIER, call);
}

/* ---- host code --------------------------------------------------------- */

/* A harmless CUDA call: the <<<>>> configuration, error queries, device
 * queries.  What its pointers point to it may write: a stack slot is a
 * host write like a store (checked after the trace), other memory (a
 * global, memory a pointer leads to) an effect the loop would skip;
 * functions (a kernel's handle) and the configuration's stream are only
 * read. */
static int cuda_query(pg_wl_ctx *c, LLVMValueRef call, LLVMValueRef f) {
  if (pg_call_only_reads_memory(call) ||
      strcmp(name_of(f), "__cudaPushCallConfiguration") == 0)
    return 1;
  int slots = 0;
  for (unsigned k = 0; k < (unsigned)LLVMGetNumArgOperands(call); ++k) {
    LLVMValueRef arg = LLVMGetOperand(call, k);
    if (LLVMGetTypeKind(LLVMTypeOf(arg)) != LLVMPointerTypeKind ||
        LLVMIsAFunction(pg_strip(arg)))
      continue;
    if (!LLVMIsAAllocaInst(pg_underlying_object(arg))) {
      c->wl->callee = f;
      return pg_wl_refuse(c->wl, PG_WL_CALL_EFFECT, call);
    }
    slots = 1;
  }
  if (slots)
    PG_PUSH(c->writes, c->nwrites, c->capwrites, call);
  return 1;
}

/* A call that is no barrier and no operation: CUDA's harmless calls,
 * intrinsics (memory ones are host writes) and calls that only read
 * memory; anything else has an effect the whole-loop graph would skip. */
static int host_call(pg_wl_ctx *c, LLVMValueRef call) {
  LLVMValueRef f = pg_called_function(call);
  if (!f)
    return 1;
  if (pg_api_lookup(name_of(f)))
    return cuda_query(c, call, f);
  if (LLVMGetIntrinsicID(f)) {
    if (is_memory_intrinsic(f))
      PG_PUSH(c->writes, c->nwrites, c->capwrites, call);
    return 1;
  }
  if (pg_call_only_reads_memory(call))
    return 1;
  c->wl->callee = f;
  return pg_wl_refuse(c->wl, PG_WL_CALL_EFFECT, call);
}

/* 1 when i stores to the status (after its copy was seen). */
static int writes_status(const pg_wl_ctx *c, LLVMValueRef i) {
  return c->wl->copy && LLVMIsAStoreInst(i) &&
         pg_underlying_object(LLVMGetOperand(i, 1)) == c->wl->dest_base;
}

static int host_inst(pg_wl_ctx *c, LLVMValueRef i) {
  if (writes_status(c, i)) /* named as such, though it also writes memory that escapes */
    return pg_wl_refuse(c->wl, PG_WL_STATUS_STORE, i);
  if (pg_batch_judge_effect(c->memo, i, &c->wl->batch))
    return pg_wl_refuse(c->wl, PG_WL_EFFECT, i);
  if (pg_is_call(i))
    return host_call(c, i);
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  if (op == LLVMStore || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg)
    PG_PUSH(c->writes, c->nwrites, c->capwrites, i);
  return 1;
}

static int judge_inst(pg_wl_ctx *c, LLVMValueRef i) {
  const pg_call_info *ci = pg_call_at(c->calls, i);
  int copy = ci->callee ? host_copy(c, i, ci->callee) : -1;
  if (copy >= 0)
    return copy;
  if (ci->kind == PG_CALL_ROUTED_OP && ci->api &&
      (ci->api->cls == PG_API_POOLED || ci->api->cls == PG_API_FUNC_SETTING ||
       ci->api->cls == PG_API_DEVICE_SET ||
       (ci->api->cls == PG_API_LIBRARY && strncmp(ci->api->name, "nccl", 4) == 0)))
    return pg_wl_refuse(c->wl, PG_WL_HOST_ONLY_CALL, i);
  switch (ci->kind) {
  case PG_CALL_LAUNCH:
  case PG_CALL_ROUTED_OP:
  case PG_CALL_STUB_INTERNAL:
    PG_PUSH(c->ops, c->nops, c->capops, i);
    return 1;
  case PG_CALL_LAUNCHING_CALLEE:
    c->wl->callee = ci->callee;
    return pg_wl_refuse(c->wl, PG_WL_LAUNCHING_CALL, i);
  case PG_CALL_BARRIER:
  case PG_CALL_EXTERNAL_CHECKED:   /* an effect the loop would skip, run whole */
    return barrier(c, ci);
  case PG_CALL_HARMLESS:
    break;
  }
  return host_inst(c, i);
}

/* ---- control flow ---------------------------------------------------- */

/* A compare of a CUDA call's result with cudaSuccess (0): *ok_on_true says
 * which side is the success. */
static int error_check(LLVMValueRef cond, int *ok_on_true) {
  if (!LLVMIsAICmpInst(cond))
    return 0;
  LLVMIntPredicate p = LLVMGetICmpPredicate(cond);
  LLVMValueRef x = LLVMGetOperand(cond, 0), y = LLVMGetOperand(cond, 1);
  long long zero;
  if (!pg_const_int(y, &zero)) {
    LLVMValueRef t = x;
    x = y;
    y = t;
  }
  if ((p != LLVMIntEQ && p != LLVMIntNE) || !pg_const_int(y, &zero) || zero != 0)
    return 0;
  LLVMValueRef f = pg_called_function(x);
  if (!f || !pg_api_lookup(name_of(f)))
    return 0;
  *ok_on_true = p == LLVMIntEQ;
  return 1;
}

static int exit_branch(pg_wl_ctx *c, LLVMValueRef br, int leave_when) {
  pg_wl_exit e = {br, LLVMGetCondition(br), leave_when, c->nops, c->copy_complete != NULL};
  PG_PUSH(c->exits, c->nexits, c->capexits, e);
  return 1;
}

/* The block the iteration goes on to after `term`; 0 with the verdict set
 * when it branches otherwise than on an exit test or a CUDA error check. */
static int follow(pg_wl_ctx *c, LLVMValueRef term, LLVMBasicBlockRef *next) {
  pg_whole_loop *wl = c->wl;
  if (LLVMIsAInvokeInst(term)) {
    *next = LLVMGetNormalDest(term);
    return pg_loop_contains_block(c->loop, *next) || pg_wl_refuse(wl, PG_WL_BRANCH, term);
  }
  if (!LLVMIsABranchInst(term))
    return pg_wl_refuse(wl, PG_WL_BRANCH, term);
  LLVMBasicBlockRef t = LLVMGetSuccessor(term, 0);
  if (!LLVMIsConditional(term)) {
    *next = t;
    return pg_loop_contains_block(c->loop, t) || pg_wl_refuse(wl, PG_WL_BRANCH, term);
  }
  LLVMBasicBlockRef f = LLVMGetSuccessor(term, 1);
  int in_t = pg_loop_contains_block(c->loop, t), in_f = pg_loop_contains_block(c->loop, f);
  int ok_on_true;
  if (error_check(LLVMGetCondition(term), &ok_on_true)) {
    *next = ok_on_true ? t : f;
    return (ok_on_true ? in_t : in_f) || pg_wl_refuse(wl, PG_WL_BRANCH, term);
  }
  if (in_t == in_f)
    return pg_wl_refuse(wl, PG_WL_BRANCH, term);
  *next = in_t ? t : f;
  return exit_branch(c, term, !in_t);
}

/* The loop directly inside c->loop that holds bb. */
static pg_loop *inner_loop(pg_wl_ctx *c, LLVMBasicBlockRef bb) {
  pg_loop *l = pg_loop_for_block(c->li, bb);
  while (l && pg_loop_parent(l) != c->loop)
    l = pg_loop_parent(l);
  return l;
}

static int enter_block(pg_wl_ctx *c, LLVMBasicBlockRef bb) {
  if (pg_loop_for_block(c->li, bb) != c->loop) {
    c->wl->inner = inner_loop(c, bb);
    return pg_wl_refuse(c->wl, PG_WL_INNER_LOOP, LLVMGetFirstInstruction(bb));
  }
  for (unsigned k = 0; k < c->ntrace; ++k)
    if (c->trace[k] == bb) /* a cycle LoopInfo does not call a loop (irreducible) */
      return pg_wl_refuse(c->wl, PG_WL_BRANCH, LLVMGetBasicBlockTerminator(bb));
  PG_PUSH(c->trace, c->ntrace, c->captrace, bb);
  return 1;
}

int pg_wl_trace(pg_wl_ctx *c) {
  LLVMBasicBlockRef header = pg_loop_header(c->loop), bb = header;
  for (;;) {
    if (!enter_block(c, bb))
      return 0;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if ((i != term || LLVMIsAInvokeInst(i)) && !judge_inst(c, i))
        return 0;
    LLVMBasicBlockRef next;
    if (!term || !follow(c, term, &next))
      return term ? 0 : pg_wl_refuse(c->wl, PG_WL_BRANCH, LLVMGetLastInstruction(bb));
    if (next == header) {
      c->latch = bb;
      return 1;
    }
    bb = next;
  }
}

/* ---- looking back along the trace ------------------------------------ */

/* Calls visit(i, ctx) on the instructions before `before` in the trace,
 * last first, until it returns 1; returns that instruction or NULL. */
static LLVMValueRef scan_back(const pg_wl_ctx *c, LLVMValueRef before,
                              int (*visit)(LLVMValueRef, const void *), const void *ctx) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(before);
  unsigned k = c->ntrace;
  while (k > 0 && c->trace[k - 1] != bb)
    --k;
  if (!k)
    return NULL;
  for (LLVMValueRef i = LLVMGetPreviousInstruction(before);; i = LLVMGetPreviousInstruction(i)) {
    while (!i && --k > 0)
      i = LLVMGetLastInstruction(c->trace[k - 1]);
    if (!i)
      return NULL;
    if (visit(i, ctx))
      return i;
  }
}

static int is_push_config(LLVMValueRef i) {
  return pg_is_call(i) && strcmp(name_of(pg_called_function(i)), "__cudaPushCallConfiguration") == 0;
}

/* A push of a configuration, or an earlier operation (which it would
 * configure instead). */
static int push_or_op(LLVMValueRef i, const void *ctx) {
  const pg_wl_ctx *c = ctx;
  if (is_push_config(i))
    return 1;
  for (unsigned k = 0; k < c->nops; ++k)
    if (c->ops[k] == i)
      return 1;
  return 0;
}

LLVMValueRef pg_wl_push_config(const pg_wl_ctx *c, LLVMValueRef launch) {
  LLVMValueRef i = scan_back(c, launch, push_or_op, c);
  return i && is_push_config(i) ? i : NULL;
}

typedef struct place {
  LLVMModuleRef m;
  LLVMValueRef obj;
  long long off;
} place;

static int writes_place(LLVMValueRef i, const void *ctx) {
  const place *p = ctx;
  LLVMValueRef ptr = NULL;
  if (LLVMIsAStoreInst(i))
    ptr = LLVMGetOperand(i, 1);
  else if (pg_is_call(i) && is_memory_intrinsic(pg_called_function(i)))
    ptr = LLVMGetOperand(i, 0);
  long long off;
  return ptr && pg_strip_constant_offsets(p->m, ptr, &off) == p->obj && off == p->off;
}

LLVMValueRef pg_wl_last_write(const pg_wl_ctx *c, LLVMValueRef before, LLVMValueRef obj,
                              long long off) {
  place p = {c->m, obj, off};
  return scan_back(c, before, writes_place, &p);
}
