/* batchable.c - the batchability verdict of loop regions (batchable.h). */
#include "batchable.h"
#include "harmless_externals.h"
#include "ir_util.h"
#include "wait_loops.h"

#include <stdlib.h>
#include <string.h>

typedef enum fact_state { FACT_VISITING, FACT_DONE } fact_state;

/* What one module function does, judged once for the whole module. */
typedef struct fn_fact {
  LLVMValueRef fn;
  fact_state state;
  pg_batch_why why;     /* PG_BATCH_OK, or the first reason it is not batch-safe */
  LLVMValueRef at;      /* where: in fn, or in a function it calls */
  int may_unwind;       /* a resume, or a call that may unwind out of it */
} fn_fact;

struct pg_batch_memo {
  const pg_call_map *calls;
  fn_fact *facts;       /* looked up by a linear scan: only callees of loops */
  unsigned n, cap;
};

pg_batch_memo *pg_batch_memo_new(const pg_call_map *calls) {
  pg_batch_memo *m = calloc(1, sizeof *m);
  if (!m)
    pg_out_of_memory();
  m->calls = calls;
  return m;
}

void pg_batch_memo_free(pg_batch_memo *m) {
  if (!m)
    return;
  free(m->facts);
  free(m);
}

/* ---- what a call hands on ------------------------------------------- */

static const char *name_of(LLVMValueRef f) {
  size_t n;
  return LLVMGetValueName2(f, &n);
}

static int starts_with(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Calls that write through their first argument and nothing else: the
 * memory intrinsics, their libc names, and dim3's constructors (CUDA's
 * vector_types.h), which every <<<>>> calls at -O0. */
static const struct {
  const char *name;
  int prefix;
  const char *verb;
} kWriters[] = {
    {"llvm.memset.", 1, "memset"}, {"llvm.memcpy.", 1, "memcpy"},
    {"llvm.memmove.", 1, "memmove"}, {"memset", 0, "memset"},
    {"memcpy", 0, "memcpy"}, {"memmove", 0, "memmove"},
    {"_ZN4dim3C1E", 1, "dim3 construction"}, {"_ZN4dim3C2E", 1, "dim3 construction"},
};

/* The verb of a kWriters call ("memset"), NULL for any other function. */
static const char *writer_verb(LLVMValueRef f) {
  const char *n = name_of(f);
  for (size_t i = 0; i < sizeof kWriters / sizeof kWriters[0]; ++i)
    if (kWriters[i].prefix ? starts_with(n, kWriters[i].name) : strcmp(n, kWriters[i].name) == 0)
      return kWriters[i].verb;
  return NULL;
}

static int is_dim3_ctor(LLVMValueRef f) {
  return starts_with(name_of(f), "_ZN4dim3C1E") || starts_with(name_of(f), "_ZN4dim3C2E");
}

/* A launch: the runtime copies the argument values its array points to
 * and its launch configuration at the call. */
static int is_launch_api(LLVMValueRef f) {
  const pg_api_entry *api = pg_api_lookup(name_of(f));
  return api && api->cls == PG_API_LAUNCH;
}

static int is_lifetime(LLVMValueRef f) {
  return LLVMGetIntrinsicID(f) && starts_with(name_of(f), "llvm.lifetime.");
}

/* A CUDA call done with its pointer arguments when it returns: launches
 * (the runtime copies argument values and configuration), the <<<>>>
 * configuration, synchronous calls, allocation (cudaMalloc(&p) writes p
 * during the call, pooled or not) and queries.  Not stream operations: an asynchronous
 * copy reads or writes its host memory later, and a deferred one when the
 * graph runs; nor the synchronous memset and copy the runtime may defer
 * (PG_API_MAYBE_DEFERRED), which are judged exactly as their asynchronous
 * forms.  A library call the runtime records is done with host memory at
 * the call too: cuBLAS reads host scalars (host pointer mode) before it
 * returns, and so does the runtime, into the recording; a result written
 * to host memory is a real call, made at once; device pointer mode passes
 * device pointers only. */
static int done_at_return(LLVMValueRef f) {
  const pg_api_entry *api = pg_api_lookup(name_of(f));
  return api && (api->cls == PG_API_LAUNCH || api->cls == PG_API_SYNC ||
                 api->cls == PG_API_POOLED || api->cls == PG_API_FUNC_SETTING ||
                 api->cls == PG_API_UNCAPTURABLE || api->cls == PG_API_LIBRARY ||
                 api->cls == PG_API_HARMLESS);
}

/* Argument `op` of `call` is read (or, for dim3, written) during the call
 * only: also the source of a synchronous host-to-device copy, which the
 * runtime reads at the call as the real call does (sync_copies.h). */
static int copies_at_call(LLVMValueRef call, unsigned op) {
  LLVMValueRef f = pg_called_function(call);
  if (!f || op >= (unsigned)LLVMGetNumArgOperands(call))
    return 0;
  if (done_at_return(f) || is_lifetime(f))
    return 1;
  if (op == 1 && pg_sync_copy_reads_source_at_call(call, f))
    return 1;
  return op == 0 && is_dim3_ctor(f);
}

/* A stack slot that is only written and handed to launches (the argument
 * array of an inlined <<<>>> stub, a launch configuration): an address
 * stored into it reaches only the runtime, which copies at the call. */
static int feeds_only_launches(LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 0) != v)
      continue;
    if (LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == v &&
        feeds_only_launches(user))
      continue;
    LLVMValueRef f = pg_called_function(user);
    if (f && (is_launch_api(f) || is_lifetime(f)))
      continue;
    return 0;
  }
  return 1;
}

/* pg_use_filter: uses of a slot's address that hand it to no one keeping it. */
static int hands_off(LLVMValueRef user, unsigned op, void *ctx) {
  (void)ctx;
  if (pg_is_call(user))
    return copies_at_call(user, op);
  if (LLVMIsAStoreInst(user) && op == 0) {
    LLVMValueRef slot = pg_underlying_object(LLVMGetOperand(user, 1));
    return LLVMIsAAllocaInst(slot) && feeds_only_launches(slot);
  }
  return 0;
}

/* ptr points into a stack slot no kernel and no other thread can see. */
static int is_private(LLVMValueRef ptr) {
  return pg_is_private_stack_slot_except(ptr, hands_off, NULL);
}

int pg_batch_is_private(LLVMValueRef ptr) { return is_private(ptr); }

/* ---- judging instructions -------------------------------------------- */

static int found(pg_batch_verdict *v, pg_batch_why why, LLVMValueRef at) {
  v->why = why;
  v->at = at;
  return 1;
}

/* CUDA calls are C and copy what they need at the call. */
static int is_cuda(const pg_call_info *ci, LLVMValueRef f) {
  return ci->kind == PG_CALL_LAUNCH || ci->kind == PG_CALL_STUB_INTERNAL ||
         ci->kind == PG_CALL_ROUTED_OP || pg_api_lookup(name_of(f)) != NULL;
}

static unsigned judge_function(pg_batch_memo *m, LLVMValueRef f);

/* A module function called at `call`: its verdict, as the caller's. */
static int judge_callee(pg_batch_memo *m, LLVMValueRef call, LLVMValueRef f,
                        pg_batch_verdict *v, int *unwinds) {
  unsigned k = judge_function(m, f);
  const fn_fact *ff = &m->facts[k];
  v->callee = f;
  if (ff->state == FACT_VISITING) {
    v->inner = PG_BATCH_RECURSIVE;
    v->inner_at = call;
    return found(v, PG_BATCH_CALLEE, call);
  }
  if (ff->why != PG_BATCH_OK) {
    v->inner = ff->why;
    v->inner_at = ff->at;
    return found(v, PG_BATCH_CALLEE, call);
  }
  *unwinds = *unwinds && ff->may_unwind;
  return 0;
}

/* A known harmless C function (libm, stdio): it cannot throw, though calls
 * LLVM makes up (std::pow(2, n) becomes exp2) lack the nounwind. */
static int is_c_harmless(LLVMValueRef f) {
  const char *name = name_of(f);
  return LLVMIsDeclaration(f) && strncmp(name, "_Z", 2) != 0 && pg_is_harmless_external(name);
}

/* A call that is no barrier.  Sets *unwinds when an exception may leave
 * the caller through it. */
static int judge_call(pg_batch_memo *m, LLVMValueRef call, pg_batch_verdict *v, int *unwinds) {
  LLVMValueRef f = pg_called_function(call);
  const pg_call_info *ci = pg_call_at(m->calls, call);
  if (f && ci->api && ci->api->cls == PG_API_DEVICE_SET)
    return found(v, PG_BATCH_DEVICE_CHANGE, call);
  /* indirect calls and inline assembly are barriers, but for launches
   * through a kernel pointer: checked at run time, a pointer that is not
   * this file's splits the region, running what the unit deferred */
  if (!f || is_cuda(ci, f))
    return 0;
  *unwinds = !LLVMIsAInvokeInst(call) && pg_call_may_unwind(call) && !is_c_harmless(f);
  if (writer_verb(f)) {
    if (!is_private(LLVMGetOperand(call, 0)))
      return found(v, PG_BATCH_WRITE, call);
  } else if (!LLVMIsDeclaration(f)) {
    return judge_callee(m, call, f, v, unwinds);
  } else if (!LLVMGetIntrinsicID(f) && !pg_is_harmless_external(name_of(f)) &&
             !pg_call_only_reads_memory(call)) {
    v->callee = f;
    v->inner = PG_BATCH_UNKNOWN_EFFECT;
    v->inner_at = call;
    return found(v, PG_BATCH_CALLEE, call);
  }
  return 0;
}

/* 1 (and v filled) when instruction i, no barrier, keeps its loop from
 * batching. */
static int judge_effect(pg_batch_memo *m, LLVMValueRef i, pg_batch_verdict *v, int *unwinds) {
  *unwinds = 0;
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMCall:
  case LLVMInvoke:
    return judge_call(m, i, v, unwinds);
  case LLVMStore:
    return !is_private(LLVMGetOperand(i, 1)) && found(v, PG_BATCH_WRITE, i);
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg:
    return !is_private(LLVMGetOperand(i, 0)) && found(v, PG_BATCH_WRITE, i);
  case LLVMLoad:
    /* the host polling memory a kernel writes, or another thread's */
    return (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic) &&
           !is_private(LLVMGetOperand(i, 0)) && found(v, PG_BATCH_SHARED_LOAD, i);
  default:
    return 0;
  }
}

/* 1 (and v filled) when instruction i keeps its loop from batching. */
static int judge_inst(pg_batch_memo *m, LLVMValueRef i, pg_batch_verdict *v, int *unwinds) {
  *unwinds = 0;
  const pg_call_info *ci = pg_call_at(m->calls, i);
  if (pg_is_scope_barrier(m->calls->cls, ci, 1)) {
    v->barrier = ci;
    return found(v, PG_BATCH_BARRIER, i);
  }
  return judge_effect(m, i, v, unwinds);
}

int pg_batch_judge_effect(pg_batch_memo *m, LLVMValueRef i, pg_batch_verdict *out) {
  int unwinds;
  memset(out, 0, sizeof *out);
  if (judge_effect(m, i, out, &unwinds))
    return 1;
  if (!unwinds)
    return 0;
  out->callee = pg_called_function(i);
  return found(out, PG_BATCH_MAY_THROW, i);
}

/* The body of f by the loop's rules, except that unwinding is only noted:
 * it matters where f is called, by a call rather than an invoke. */
static void judge_body(pg_batch_memo *m, LLVMValueRef f, pg_batch_verdict *v, int *may_unwind) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      int unwinds;
      if (judge_inst(m, i, v, &unwinds))
        return;
      *may_unwind |= unwinds || LLVMIsAResumeInst(i);
    }
}

/* Index of f's fact; a fact still FACT_VISITING means f calls itself
 * through the caller asking. */
static unsigned judge_function(pg_batch_memo *m, LLVMValueRef f) {
  for (unsigned k = 0; k < m->n; ++k)
    if (m->facts[k].fn == f)
      return k;
  fn_fact fact = {f, FACT_VISITING, PG_BATCH_OK, NULL, 0};
  PG_PUSH(m->facts, m->n, m->cap, fact);
  unsigned k = m->n - 1;
  pg_batch_verdict v;
  memset(&v, 0, sizeof v);
  int may_unwind = 0;
  judge_body(m, f, &v, &may_unwind); /* m->facts may move: indices only */
  fn_fact *done = &m->facts[k];
  done->state = FACT_DONE;
  done->may_unwind = may_unwind;
  /* keep the root cause, not the chain of calls leading to it */
  done->why = v.why == PG_BATCH_NOT_JUDGED ? PG_BATCH_OK
              : v.why == PG_BATCH_CALLEE   ? v.inner
                                           : v.why;
  done->at = v.why == PG_BATCH_CALLEE ? v.inner_at : v.at;
  return k;
}

/* A barrier anywhere in l: it splits the loop into segments. */
static int find_barrier(pg_batch_memo *m, pg_loop *l, pg_batch_verdict *v) {
  for (unsigned b = 0; b < pg_loop_num_blocks(l); ++b)
    for (LLVMValueRef i = LLVMGetFirstInstruction(pg_loop_block(l, b)); i;
         i = LLVMGetNextInstruction(i)) {
      const pg_call_info *ci = pg_call_at(m->calls, i);
      if (pg_is_scope_barrier(m->calls->cls, ci, 1)) {
        v->barrier = ci;
        return found(v, PG_BATCH_BARRIER, i);
      }
    }
  return 0;
}

void pg_batch_judge(pg_batch_memo *m, pg_loop *l, pg_batch_verdict *out) {
  memset(out, 0, sizeof *out);
  if (find_barrier(m, l, out))
    return; /* named first: it is also why the loop has several segments */
  for (unsigned b = 0; b < pg_loop_num_blocks(l); ++b)
    for (LLVMValueRef i = LLVMGetFirstInstruction(pg_loop_block(l, b)); i;
         i = LLVMGetNextInstruction(i)) {
      int unwinds;
      if (judge_inst(m, i, out, &unwinds))
        return;
      if (unwinds) {
        out->callee = pg_called_function(i);
        found(out, PG_BATCH_MAY_THROW, i);
        return;
      }
    }
  out->ok = 1;
  out->why = PG_BATCH_OK;
}

/* ---- the verdict as text (remarks only) ------------------------------ */

static char *demangled(LLVMValueRef f) { return pg_demangle(name_of(f)); }

/* "to 'g'", "through a pointer parameter", ... */
static char *target_text(LLVMValueRef ptr) {
  LLVMValueRef obj = pg_underlying_object(ptr);
  if (LLVMIsAGlobalValue(obj) && name_of(obj)[0]) {
    char *dn = demangled(obj);
    char *text = pg_strf("to '%s'", dn);
    free(dn);
    return text;
  }
  if (LLVMIsAAllocaInst(obj))
    return pg_strf("to a local variable whose address escapes");
  if (LLVMIsAArgument(obj))
    return pg_strf("through a pointer parameter");
  return pg_strf("through a pointer");
}

/* "store to 'g'", "memset through a pointer", ... for a PG_BATCH_WRITE. */
char *pg_batch_write_text(LLVMValueRef i) {
  const char *verb = "store";
  LLVMValueRef dest = LLVMGetOperand(i, 0);
  if (pg_is_call(i))
    verb = writer_verb(pg_called_function(i));
  else if (LLVMIsAStoreInst(i))
    dest = LLVMGetOperand(i, 1);
  else
    verb = "atomic update";
  char *target = target_text(dest);
  char *text = pg_strf("%s %s", verb, target);
  free(target);
  return text;
}

/* What sits at v->inner_at: "store to 'g'", "volatile load", "call of 'f(int)'". */
static char *inner_what(const pg_batch_verdict *v) {
  if (v->inner == PG_BATCH_WRITE)
    return pg_batch_write_text(v->inner_at);
  LLVMValueRef f = pg_called_function(v->inner_at);
  if (!f)
    return pg_strf("%s", pg_wait_kind(v->inner_at));
  char *dn = demangled(f);
  char *text = pg_strf("call of '%s'", dn);
  free(dn);
  return text;
}

/* "which may write memory a kernel reads (store to 'g' at x.cu:3)" */
static char *inner_text(const pg_batch_verdict *v) {
  const char *which = v->inner == PG_BATCH_SHARED_LOAD ? "may read memory a kernel writes"
                      : v->inner == PG_BATCH_RECURSIVE ? "is recursive"
                      : v->inner == PG_BATCH_BARRIER   ? "may synchronize"
                      : v->inner == PG_BATCH_DEVICE_CHANGE ? "changes the current device"
                                                       : "may write memory a kernel reads";
  if (v->inner_at == v->at) /* the callee itself: a declaration */
    return pg_strf("which %s", which);
  char *what = inner_what(v);
  char *loc = pg_loc_dup(v->inner_at);
  char *text = pg_strf("which %s (%s at %s)", which, what, loc);
  free(loc);
  free(what);
  return text;
}

static char *barrier_text(const pg_classifier *c, const pg_call_info *ci) {
  if (ci->callee && ci->why != PG_WHY_UNKNOWN_EXTERNAL) { /* that one names its allow= */
    char *dn = demangled(ci->callee);
    char *text = pg_strf("barrier '%s' in the loop", dn);
    free(dn);
    return text;
  }
  char *why = pg_call_why(c, ci);
  char *text = pg_strf("barrier in the loop (%s)", why);
  free(why);
  return text;
}

char *pg_batch_why_text(const pg_classifier *c, const pg_batch_verdict *v) {
  char *part = NULL, *text = NULL;
  switch (v->why) {
  case PG_BATCH_NOT_JUDGED:
    return pg_strf("batching is off (batch=0)");
  case PG_BATCH_OK:
    return pg_strf("%s", "");
  case PG_BATCH_BARRIER:
    return barrier_text(c, v->barrier);
  case PG_BATCH_WRITE:
    part = pg_batch_write_text(v->at);
    text = pg_strf("stores to memory a kernel may read (%s)", part);
    break;
  case PG_BATCH_SHARED_LOAD:
    return pg_strf("%s of memory a kernel may write", pg_wait_kind(v->at));
  case PG_BATCH_CALLEE: {
    char *dn = demangled(v->callee);
    part = inner_text(v);
    text = pg_strf("calls '%s', %s", dn, part);
    free(dn);
    break;
  }
  case PG_BATCH_MAY_THROW: {
    char *dn = demangled(v->callee);
    text = pg_strf("'%s' may throw", dn);
    free(dn);
    break;
  }
  case PG_BATCH_DEVICE_CHANGE:
    return pg_strf("%s", "changes the current device (cudaSetDevice)");
  case PG_BATCH_RECURSIVE:
  case PG_BATCH_UNKNOWN_EFFECT: /* inner reasons only */
    return pg_strf("%s", "a callee is not batch-safe");
  }
  free(part);
  return text;
}
