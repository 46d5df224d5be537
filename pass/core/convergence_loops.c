/* convergence_loops.c - which loops can run whole as one conditional graph
 * (convergence_loops.h). */
#include "convergence_loops.h"
#include "exit_test.h"
#include "ir_util.h"
#include "launch_args.h"
#include "loop_trace.h"
#include "loop_values.h"
#include "options.h"
#include "whole_loop_instrument.h"
#include "whole_loop_text.h"

#include <llvm-c/Target.h>

#include <string.h>

int pg_wl_refuse(pg_whole_loop *wl, pg_wl_why why, LLVMValueRef at) {
  if (wl->why == PG_WL_CANDIDATE) {
    wl->why = why;
    wl->at = at;
  }
  return 0;
}

int pg_wl_in_loop(const pg_wl_ctx *c, LLVMValueRef v) {
  return v && LLVMIsAInstruction(v) &&
         pg_loop_contains_block(c->loop, LLVMGetInstructionParent(v));
}

static int trace_index(const pg_wl_ctx *c, LLVMValueRef i) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(i);
  for (unsigned k = 0; k < c->ntrace; ++k)
    if (c->trace[k] == bb)
      return (int)k;
  return -1;
}

int pg_wl_trace_after(const pg_wl_ctx *c, LLVMValueRef a, LLVMValueRef b) {
  int ia = a ? trace_index(c, a) : -1, ib = trace_index(c, b);
  if (ia < 0 || ib < 0)
    return 0;
  if (ia != ib)
    return ib > ia;
  for (LLVMValueRef i = a; i; i = LLVMGetNextInstruction(i))
    if (i == b)
      return 1;
  return 0;
}

/* ---- memory the loop writes -------------------------------------------- */

/* Is call a library call the runtime records (cuBLAS, cuFFT, cuSPARSE)? */
static int recorded_library_call(const pg_wl_ctx *c, LLVMValueRef call) {
  const pg_call_info *ci = pg_call_at(c->calls, call);
  return ci->kind == PG_CALL_ROUTED_OP && ci->api && ci->api->cls == PG_API_LIBRARY;
}

static int note_written(pg_wl_ctx *c, LLVMValueRef ptr, void *unused) {
  (void)unused;
  LLVMValueRef obj = pg_underlying_object(ptr);
  for (unsigned k = 0; k < c->nwritten; ++k)
    if (c->written[k] == obj)
      return 0;
  PG_PUSH(c->written, c->nwritten, c->capwritten, obj);
  return 0;
}

/* A call given pointers it may write through: not a launch (the runtime
 * copies its argument values), a lifetime marker or a call that only
 * reads memory. */
static int call_may_write(pg_wl_ctx *c, LLVMValueRef call) {
  const pg_call_info *ci = pg_call_at(c->calls, call);
  LLVMValueRef f = pg_called_function(call);
  size_t n;
  if (ci->kind == PG_CALL_LAUNCH || pg_call_only_reads_memory(call))
    return 0;
  return !(f && LLVMGetIntrinsicID(f) && strncmp(LLVMGetValueName2(f, &n), "llvm.lifetime.", 14) == 0);
}

typedef int (*pg_write_visit)(pg_wl_ctx *c, LLVMValueRef ptr, void *ctx);

/* visit(c, ptr, ctx) on each pointer an instruction of the loop may write
 * through (a store's or an atomic's address, a writing call's pointer
 * arguments), a recorded library call's left out when `but_library`;
 * stops at the first visit that returns 1, and returns 1 then. */
static int loop_writes(pg_wl_ctx *c, int but_library, pg_write_visit visit, void *ctx) {
  for (unsigned b = 0; b < pg_loop_num_blocks(c->loop); ++b)
    for (LLVMValueRef i = LLVMGetFirstInstruction(pg_loop_block(c->loop, b)); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      if (op == LLVMStore && visit(c, LLVMGetOperand(i, 1), ctx))
        return 1;
      if ((op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) && visit(c, LLVMGetOperand(i, 0), ctx))
        return 1;
      if (!pg_is_call(i) || !call_may_write(c, i) ||
          (but_library && recorded_library_call(c, i)))
        continue;
      for (unsigned k = 0; k < (unsigned)LLVMGetNumArgOperands(i); ++k)
        if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(i, k))) == LLVMPointerTypeKind &&
            visit(c, LLVMGetOperand(i, k), ctx))
          return 1;
    }
  return 0;
}

static void collect_written(pg_wl_ctx *c) {
  (void)loop_writes(c, 0, note_written, NULL);
}

/* ---- the status copy and the host's writes ------------------------------ */

/* No status copy: a counted loop (its exit tests can read only counters
 * and invariants, as no status field exists), described with no status
 * operation (PYGRAPH_STATUS_NONE). */
static int check_copy(pg_wl_ctx *c) {
  pg_whole_loop *wl = c->wl;
  if (!wl->copy) {
    wl->status_copy = PYGRAPH_STATUS_NONE;
    wl->status_op = PYGRAPH_WL_NONE;
    wl->status_dest = PYGRAPH_WL_NONE;
    wl->status_bytes = 0;
    return 1;
  }
  if (c->pending)
    return pg_wl_refuse(wl, PG_WL_UNSYNCED_COPY, c->pending);
  return 1;
}

static int is_lifetime_call(LLVMValueRef i) {
  LLVMValueRef f = pg_called_function(i);
  size_t n;
  return f && strncmp(LLVMGetValueName2(f, &n), "llvm.lifetime.", 14) == 0;
}

/* An access to the memory of v (a pointer into a stack slot, or derived
 * from one) outside the loop; NULL when there is none. */
static LLVMValueRef access_outside(pg_wl_ctx *c, LLVMValueRef v, unsigned depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u && depth < 16; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user))
      continue;
    if (LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) ||
        LLVMIsAAddrSpaceCastInst(user)) {
      LLVMValueRef r = access_outside(c, user, depth + 1);
      if (r)
        return r;
    } else if (!pg_wl_in_loop(c, user) && !is_lifetime_call(user) &&
               !(LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == v)) {
      return user;
    }
  }
  return NULL;
}

/* The object host write w writes (operand k of a call), its status
 * verdict and readers outside the loop. */
static int check_write(pg_wl_ctx *c, LLVMValueRef w, LLVMValueRef ptr) {
  LLVMValueRef obj = pg_underlying_object(ptr);
  if (obj == c->wl->dest_base)
    return pg_wl_refuse(c->wl, PG_WL_STATUS_STORE, w);
  LLVMValueRef reader = access_outside(c, obj, 0);
  if (reader) {
    c->wl->at2 = reader;
    return pg_wl_refuse(c->wl, PG_WL_LOCAL_READ_AFTER, w);
  }
  return 1;
}

/* Host writes: only to private stack slots (the batchable rules saw to
 * that), never to the status, never to a slot read outside the loop.  A
 * store writes its address, a memory intrinsic its first operand, a CUDA
 * call (cudaGetDevice(&d)) what any of its pointers point to. */
static int check_writes(pg_wl_ctx *c) {
  for (unsigned k = 0; k < c->nwrites; ++k) {
    LLVMValueRef w = c->writes[k];
    LLVMOpcode op = LLVMGetInstructionOpcode(w);
    if (op == LLVMStore || op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) {
      if (!check_write(c, w, LLVMGetOperand(w, op == LLVMStore ? 1 : 0)))
        return 0;
      continue;
    }
    size_t n;
    int intrinsic = strncmp(LLVMGetValueName2(pg_called_function(w), &n), "llvm.", 5) == 0;
    unsigned nargs = intrinsic ? 1 : (unsigned)LLVMGetNumArgOperands(w);
    for (unsigned a = 0; a < nargs; ++a) {
      LLVMValueRef ptr = LLVMGetOperand(w, a);
      if (LLVMIsAAllocaInst(pg_underlying_object(ptr)) && !check_write(c, w, ptr))
        return 0;
    }
  }
  return 1;
}

/* ---- exits ---------------------------------------------------------------- */

/* Where exit e is made: at the top, right after the status copy, or at
 * the end (after the copy completed; a counted loop has no copy). */
static int exit_where(pg_wl_ctx *c, const pg_wl_exit *e, unsigned *where) {
  int copy = c->wl->copy != NULL;
  if (e->ops_before == 0)
    *where = PYGRAPH_EXIT_AT_TOP;
  else if (copy && e->after_copy && e->ops_before == c->wl->status_op + 1)
    *where = PYGRAPH_EXIT_AFTER_COPY;
  else if ((e->after_copy || !copy) && e->ops_before == c->nops)
    *where = PYGRAPH_EXIT_AT_END;
  else
    return pg_wl_refuse(c->wl, PG_WL_EXIT_BETWEEN, e->br);
  return 1;
}

static int check_exits(pg_wl_ctx *c) {
  if (!c->nexits)
    return pg_wl_refuse(c->wl, PG_WL_NO_EXIT, LLVMGetBasicBlockTerminator(c->latch));
  for (unsigned k = 0; k < c->nexits; ++k) {
    unsigned where;
    const pg_wl_exit *e = &c->exits[k];
    if (!exit_where(c, e, &where) || !pg_wl_exit_test(c, e->br, e->cond, e->leave_when, where))
      return 0;
  }
  return 1;
}

/* ---- operands ------------------------------------------------------------ */

static int add_value(pg_wl_ctx *c, unsigned op, unsigned operand, LLVMValueRef v) {
  pg_wl_value val;
  pg_wl_value_why why;
  if (!v || !pg_wl_evolution(c, v, &val, &why)) {
    c->wl->n = operand;
    c->wl->what = v;
    c->wl->value_why = v ? why : PG_WLV_HOST;
    return pg_wl_refuse(c->wl, PG_WL_ARG_PATTERN, c->ops[op]);
  }
  val.op = op;
  val.operand = operand;
  PG_PUSH(c->wl->values, c->wl->nvalues, c->wl->capvalues, val);
  return 1;
}

/* Which part of its configuration operand k of cudaLaunchKernel(func,
 * grid..., block..., args, shmem, stream) is (the host ABI splits each dim3
 * into as many operands): 0 grid, 1 block, 2 shared memory, 3 stream; -1
 * for the kernel and the argument array. */
static int launch_part(unsigned k, unsigned n) {
  if (k == 0 || k + 3 == n)
    return -1;
  if (k + 2 == n)
    return 2;
  if (k + 1 == n)
    return 3;
  return k <= (n - 4) / 2 ? 0 : 1;
}

/* The launch configuration, from the <<<>>>'s __cudaPushCallConfiguration
 * (gxy, gz, bxy, bz, shmem, stream) or the launch call's own operands:
 * every part must be invariant. */
static int config_invariant(pg_wl_ctx *c, LLVMValueRef launch) {
  static const int kPushPart[6] = {0, 0, 1, 1, 2, 3};
  LLVMValueRef push = pg_wl_push_config(c, launch);
  LLVMValueRef from = push ? push : launch;
  unsigned n = push ? 6 : (unsigned)LLVMGetNumArgOperands(launch);
  for (unsigned k = 0; k < n; ++k) {
    int part = push ? kPushPart[k] : launch_part(k, n);
    if (part >= 0 && !pg_wl_is_invariant(c, LLVMGetOperand(from, k))) {
      c->wl->n = part;
      return pg_wl_refuse(c->wl, PG_WL_CONFIG_VARIES, launch);
    }
  }
  return 1;
}

/* The value a launch's argument array holds in slot j: the last store of
 * an address into the slot, then the last write to that address. */
static LLVMValueRef slot_value(pg_wl_ctx *c, LLVMValueRef launch, LLVMValueRef array,
                               long long array_off, unsigned j, LLVMValueRef *copied_from) {
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(c->m);
  long long off = array_off + (long long)j * (long long)LLVMPointerSize(dl);
  LLVMValueRef st = pg_wl_last_write(c, launch, array, off);
  if (!st || !LLVMIsAStoreInst(st))
    return NULL;
  long long arg_off;
  LLVMValueRef arg = pg_strip_constant_offsets(c->m, LLVMGetOperand(st, 0), &arg_off);
  LLVMValueRef w = pg_wl_last_write(c, launch, arg, arg_off);
  if (w && LLVMIsAStoreInst(w))
    return LLVMGetOperand(w, 0);
  if (w && pg_is_call(w)) /* a struct copied in by value */
    *copied_from = LLVMGetOperand(w, 1);
  return NULL;
}

/* An aggregate argument copied from memory: invariant when that memory is
 * a private slot the loop never writes. */
static int add_copied(pg_wl_ctx *c, unsigned op, unsigned j, LLVMValueRef from) {
  if (pg_wl_is_invariant(c, pg_underlying_object(from)) && pg_batch_is_private(from) &&
      !pg_wl_writes(c, from)) {
    pg_wl_value val = {op, j, PYGRAPH_EVOLVE_INVARIANT, PYGRAPH_TYPE_BYTES, PYGRAPH_WL_NONE,
                       PYGRAPH_WL_NONE, 0, 0, 0};
    PG_PUSH(c->wl->values, c->wl->nvalues, c->wl->capvalues, val);
    return 1;
  }
  c->wl->n = j;
  c->wl->what = NULL;
  c->wl->value_why = pg_wl_writes(c, from) ? PG_WLV_MEMORY_WRITTEN : PG_WLV_MEMORY;
  return pg_wl_refuse(c->wl, PG_WL_ARG_PATTERN, c->ops[op]);
}

static int launch_values(pg_wl_ctx *c, unsigned op, const pg_call_info *ci) {
  LLVMValueRef launch = ci->inst;
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(launch);
  if (!ci->api) { /* a stub call: the arguments are its operands */
    if (!pg_wl_push_config(c, launch))
      return pg_wl_refuse(c->wl, PG_WL_LAUNCH_FORM, launch);
    for (unsigned j = 0; j < nargs; ++j)
      if (!add_value(c, op, j, LLVMGetOperand(launch, j)))
        return 0;
    return config_invariant(c, launch);
  }
  unsigned slots = pg_launch_arg_slots(c->m, ci, launch);
  if (ci->api->driver || strncmp(ci->api->name, "cudaLaunchKernelExC", 19) == 0 || !slots)
    return pg_wl_refuse(c->wl, PG_WL_LAUNCH_FORM, launch);
  long long array_off;
  LLVMValueRef array = pg_strip_constant_offsets(c->m, LLVMGetOperand(launch, nargs - 3),
                                                 &array_off);
  for (unsigned j = 0; j < slots; ++j) {
    LLVMValueRef from = NULL;
    LLVMValueRef v = slot_value(c, launch, array, array_off, j, &from);
    int ok = v      ? add_value(c, op, j, v)
             : from ? add_copied(c, op, j, from)
                    : pg_wl_refuse(c->wl, PG_WL_LAUNCH_FORM, launch);
    if (!ok)
      return 0;
  }
  return config_invariant(c, launch);
}

/* The status copy's source (and a symbol copy's offset) and every operand
 * of a stream operation. */
static int call_values(pg_wl_ctx *c, unsigned op) {
  LLVMValueRef call = c->ops[op];
  if (call == c->wl->copy) {
    if (!add_value(c, op, 1, LLVMGetOperand(call, 1)))
      return 0;
    return c->wl->status_copy != PYGRAPH_STATUS_MEMCPY_FROM_SYMBOL ||
           add_value(c, op, 3, LLVMGetOperand(call, 3));
  }
  for (unsigned k = 0; k < (unsigned)LLVMGetNumArgOperands(call); ++k)
    if (!add_value(c, op, k, LLVMGetOperand(call, k)))
      return 0;
  return 1;
}

static int into_object(pg_wl_ctx *c, LLVMValueRef ptr, void *obj) {
  (void)c;
  return pg_underlying_object(ptr) == obj;
}

/* Does anything in the loop but a recorded library call write obj (a
 * store, an atomic, another call given a pointer into it)?  A recorded
 * call only reads the host memory it is given (the runtime copies scalars
 * in when it records, and makes at once, unrecorded, a call that writes a
 * result to the host: the loop then runs as written). */
static int written_but_by_library(pg_wl_ctx *c, LLVMValueRef obj) {
  return loop_writes(c, 1, into_object, obj);
}

/* An operand of a library call the loop cannot change: invariant by the
 * common rules, or a load of a stack slot or global the loop never
 * writes (escaped or not: every call of the loop is one the pass knows,
 * and none is given it). */
static int library_invariant(pg_wl_ctx *c, LLVMValueRef v) {
  if (pg_wl_is_invariant(c, v))
    return 1;
  LLVMValueRef obj = pg_wl_unwritten_load(c, v) ? pg_underlying_object(LLVMGetOperand(v, 0)) : NULL;
  return obj && (LLVMIsAAllocaInst(obj) || LLVMIsAGlobalVariable(obj));
}

/* A library call the runtime records: the WHILE body holds the graph
 * captured from one execution of it, so every operand must be invariant,
 * and host memory an operand points into (a scalar the call reads: a stack
 * slot or a global) written by nothing else in the loop.  No value is
 * described: the runtime compares each recorded call, its scalars read,
 * with iteration 0's as a whole. */
static int library_operands(pg_wl_ctx *c, unsigned op) {
  LLVMValueRef call = c->ops[op];
  for (unsigned k = 0; k < (unsigned)LLVMGetNumArgOperands(call); ++k) {
    LLVMValueRef v = LLVMGetOperand(call, k), obj = pg_underlying_object(v);
    int host = LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind &&
               (LLVMIsAAllocaInst(obj) || LLVMIsAGlobalVariable(obj));
    int written = host && written_but_by_library(c, obj);
    if (!written && library_invariant(c, v))
      continue;
    c->wl->n = k;
    c->wl->what = NULL;                /* the call's place says where */
    c->wl->value_why = written ? PG_WLV_MEMORY_WRITTEN : PG_WLV_HOST;
    return pg_wl_refuse(c->wl, PG_WL_LIBRARY_ARG, call);
  }
  return 1;
}

static int check_ops(pg_wl_ctx *c) {
  for (unsigned op = 0; op < c->nops; ++op) {
    const pg_call_info *ci = pg_call_at(c->calls, c->ops[op]);
    int ok = recorded_library_call(c, c->ops[op])                   ? library_operands(c, op)
             : ci->kind == PG_CALL_LAUNCH && c->ops[op] != c->wl->copy ? launch_values(c, op, ci)
                                                                     : call_values(c, op);
    if (!ok)
      return 0;
  }
  return 1;
}

/* ---- what the loop leaves behind ------------------------------------------ */

/* lo's invariants as values (they do not stay in the descriptor's table). */
static void liveout_values(pg_wl_ctx *c, pg_wl_liveout *lo) {
  pg_whole_loop *wl = c->wl;
  if (lo->val.evolution == PYGRAPH_EVOLVE_AFFINE) {
    lo->base = lo->val.base == PYGRAPH_WL_NONE ? NULL : wl->invariants[lo->val.base];
    lo->step_by = lo->val.step_by == PYGRAPH_WL_NONE ? NULL : wl->invariants[lo->val.step_by];
  } else if (lo->val.evolution == PYGRAPH_EVOLVE_ROTATION) {
    lo->members = calloc(lo->val.count, sizeof *lo->members);
    if (!lo->members)
      pg_out_of_memory();
    for (unsigned k = 0; k < lo->val.count; ++k)
      lo->members[k] = wl->invariants[wl->rotation[lo->val.base + k]];
  }
}

/* A value the runtime can give the host after the loop: a CUDA call's
 * result (success on the whole-loop path), a status field (the status is
 * copied back), a counter or a rotating value (known from the iteration
 * count).  Kept in wl->liveouts with how to recompute it. */
static int live_out_ok(pg_wl_ctx *c, LLVMValueRef v) {
  pg_whole_loop *wl = c->wl;
  pg_wl_liveout lo;
  memset(&lo, 0, sizeof lo);
  lo.v = v;
  LLVMValueRef f = pg_called_function(v);
  size_t n;
  int ok = 1;
  if (f && pg_api_lookup(LLVMGetValueName2(f, &n))) {
    lo.kind = PG_WLO_CUDA;
  } else if (pg_wl_status_field(c, v, &lo.offset, &lo.type)) {
    lo.kind = PG_WLO_FIELD;
    lo.after_copy = c->copy_complete && pg_wl_trace_after(c, c->copy_complete, v);
  } else {
    unsigned ninv = wl->ninv, nrot = wl->nrotation, nrot_phis = c->nrot_phis;
    pg_wl_value_why why;
    lo.kind = PG_WLO_EVOLUTION;
    if ((ok = pg_wl_evolution(c, v, &lo.val, &why)))
      liveout_values(c, &lo);
    wl->ninv = ninv; /* the descriptor describes the iteration, not what leaves it */
    wl->nrotation = nrot;
    c->nrot_phis = nrot_phis;
  }
  if (ok)
    PG_PUSH(wl->liveouts, wl->nliveouts, wl->capliveouts, lo);
  return ok;
}

static int check_live_outs(pg_wl_ctx *c) {
  for (unsigned b = 0; b < pg_loop_num_blocks(c->loop); ++b)
    for (LLVMValueRef i = LLVMGetFirstInstruction(pg_loop_block(c->loop, b)); i;
         i = LLVMGetNextInstruction(i))
      for (LLVMUseRef u = LLVMGetFirstUse(i); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        if (!LLVMIsAInstruction(user) || pg_wl_in_loop(c, user))
          continue;
        if (!live_out_ok(c, i)) {
          c->wl->what = i;
          c->wl->at2 = user;
          return pg_wl_refuse(c->wl, PG_WL_LIVE_OUT, i);
        }
        break; /* one use outside is enough to judge i */
      }
  return 1;
}

/* ---- judging ---------------------------------------------------------------- */

static int is_optnone(LLVMValueRef fn) {
  unsigned kind = LLVMGetEnumAttributeKindForName("optnone", 7);
  return kind && LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind) != NULL;
}

static void ctx_free(pg_wl_ctx *c) {
  free(c->written);
  free(c->rot_phis);
  free(c->trace);
  free(c->ops);
  free(c->exits);
  free(c->writes);
}

static void judge(pg_wl_ctx *c) {
  pg_whole_loop *wl = c->wl;
  LLVMBasicBlockRef header = pg_loop_header(c->loop);
  if (is_optnone(LLVMGetBasicBlockParent(header))) {
    pg_wl_refuse(wl, PG_WL_NOT_OPTIMISED, LLVMGetFirstInstruction(header));
    return;
  }
  if (pg_loop_num_subloops(c->loop)) { /* named before any branch that guards it */
    wl->inner = pg_loop_subloop(c->loop, 0);
    pg_wl_refuse(wl, PG_WL_INNER_LOOP, LLVMGetFirstInstruction(pg_loop_header(wl->inner)));
    return;
  }
  collect_written(c);
  if (pg_wl_trace(c) && check_copy(c) && check_writes(c) && check_exits(c) && check_ops(c) &&
      check_live_outs(c)) {
    wl->n_ops = c->nops;
    wl->exits = c->exits; /* the exit tests' branches, for the instrumentation */
    wl->nexits = c->nexits;
    c->exits = NULL;
  }
}

static int loop_has(const pg_call_map *calls, pg_loop *l, int barrier) {
  for (unsigned b = 0; b < pg_loop_num_blocks(l); ++b)
    for (LLVMValueRef i = LLVMGetFirstInstruction(pg_loop_block(l, b)); i;
         i = LLVMGetNextInstruction(i)) {
      const pg_call_info *ci = pg_call_at(calls, i);
      if (barrier ? pg_is_scope_barrier(calls->cls, ci, 1)
                  : ci->kind == PG_CALL_LAUNCH || ci->kind == PG_CALL_LAUNCHING_CALLEE)
        return 1;
    }
  return 0;
}

typedef struct judge_env {
  const pg_call_map *calls;
  pg_batch_memo *memo;
  pg_function_plan *plan;
  pg_scev *se;
  pg_whole_loop **tail;
} judge_env;

/* Judges l when it launches and either synchronizes or is its region's
 * own loop (a counted loop without a barrier: batchable.h's loops, the
 * issue's "also for counted loops"), then the loops inside it that launch
 * and synchronize. */
static void judge_tree(judge_env *e, pg_loop *l, int nested) {
  if (!loop_has(e->calls, l, 0) || (nested && !loop_has(e->calls, l, 1)))
    return;
  pg_whole_loop *wl = calloc(1, sizeof *wl);
  if (!wl)
    pg_out_of_memory();
  wl->loop = l;
  wl->nested = nested;
  pg_loop_lines(l, &wl->line_begin, &wl->line_end);
  if (!e->se)
    e->se = pg_scev_new(e->plan->loops, LLVMGetBasicBlockParent(pg_loop_header(l)));
  pg_wl_ctx c;
  memset(&c, 0, sizeof c);
  c.m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(pg_loop_header(l)));
  c.calls = e->calls;
  c.memo = e->memo;
  c.li = e->plan->loops;
  c.loop = l;
  c.se = e->se;
  c.wl = wl;
  judge(&c);
  ctx_free(&c);
  *e->tail = wl;
  e->tail = &wl->next;
  for (unsigned i = 0; i < pg_loop_num_subloops(l); ++i)
    judge_tree(e, pg_loop_subloop(l, i), 1);
}

void pg_whole_loops_judge(const pg_call_map *calls, pg_batch_memo *memo, pg_function_plan *plan) {
  if (!pg_opts()->whole_loops)
    return;
  judge_env e = {calls, memo, plan, NULL, NULL};
  for (unsigned k = 0; k < plan->nscopes; ++k) {
    pg_scope *s = &plan->scopes[k];
    if (!s->loop)
      continue;
    e.tail = &s->whole_loops;
    judge_tree(&e, s->loop, 0);
    for (pg_whole_loop *wl = s->whole_loops; wl; wl = wl->next)
      pg_wl_instrument_check(s, wl);
  }
  if (e.se)
    pg_scev_free(e.se);
}

/* ---- remarks ----------------------------------------------------------------- */

void pg_whole_loops_remark(LLVMModuleRef m, const pg_classifier *cls,
                           const pg_function_plan *plan) {
  int analysis = pg_remark_wanted(m, PG_REMARK_ANALYSIS);
  int missed = pg_remark_wanted(m, PG_REMARK_MISSED);
  for (unsigned k = 0; k < plan->nscopes; ++k)
    for (const pg_whole_loop *wl = plan->scopes[k].whole_loops; wl; wl = wl->next) {
      int candidate = wl->why == PG_WL_CANDIDATE;
      if (candidate ? !analysis : !missed)
        continue;
      char *msg = candidate ? pg_wl_candidate_text(wl, plan->scopes[k].n_instrumented > 0)
                            : pg_wl_refusal_text(cls, wl);
      pg_remark_loop(candidate ? PG_REMARK_ANALYSIS : PG_REMARK_MISSED,
                     candidate ? "WholeLoop" : "NoWholeLoop", wl->loop, msg);
      free(msg);
    }
}

void pg_whole_loops_free(pg_function_plan *plan) {
  for (unsigned k = 0; k < plan->nscopes; ++k) {
    pg_whole_loop *wl = plan->scopes[k].whole_loops;
    while (wl) {
      pg_whole_loop *next = wl->next;
      free(wl->invariants);
      free(wl->nodes);
      free(wl->values);
      free(wl->rotation);
      free(wl->exits);
      for (unsigned i = 0; i < wl->nliveouts; ++i)
        free(wl->liveouts[i].members);
      free(wl->liveouts);
      free(wl);
      wl = next;
    }
    plan->scopes[k].whole_loops = NULL;
  }
}
