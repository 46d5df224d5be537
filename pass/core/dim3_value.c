/* dim3_value.c - the constant a launch dimension holds where it is
 * launched, when the IR proves it.
 *
 * A dim3 reaches a launch as the pair (i64 x | y << 32, i32 z).  After SROA
 * (-O1 and up) the pair is SSA: constants, zext/shl/or of the components,
 * phis and selects.  At -O0 it is loaded from stack slots written by dim3's
 * constructor, by stores of single components and by memcpys of whole
 * dim3s, a reassigned variable several times: a component is then the value
 * every write reaching the load agrees on, found by walking the CFG
 * backwards from the load.  Anything else (a slot whose address escapes, a
 * write of unknown extent, a path on which the slot is uninitialised, two
 * writes that disagree, a walk past its budget) is unknown: a remark never
 * shows a dimension the program may not launch with.
 */
#include "dim3_value.h"
#include "ir_util.h"
#include "../shim/pygraph_shim.h"

#include <llvm-c/Target.h>

#include <stdlib.h>
#include <string.h>

/* Instructions one component's walks may visit, and nesting of copies and
 * SSA operands followed: past them the component is unknown. */
enum { kBudget = 20000, kMaxDepth = 16 };

typedef struct eval_ctx {
  LLVMModuleRef m;
  LLVMTargetDataRef dl;
  unsigned budget;
  unsigned depth;
} eval_ctx;

/* One write to a stack slot: bytes [lo, hi) of it; hi < 0: extent unknown. */
typedef struct slot_write {
  LLVMValueRef inst;
  long long lo, hi;
} slot_write;

typedef struct slot {
  LLVMValueRef alloca;
  slot_write *writes;
  unsigned nwrites, capwrites;
} slot;

static int value_u32(eval_ctx *e, LLVMValueRef v, unsigned bit, unsigned *out);
static int slot_u32(eval_ctx *e, LLVMValueRef alloca, LLVMValueRef at, long long off,
                    unsigned *out);

static int is_dim3_ctor(const char *name) {
  /* dim3(unsigned x, unsigned y, unsigned z), complete or base object */
  return name && (strcmp(name, "_ZN4dim3C1Ejjj") == 0 || strcmp(name, "_ZN4dim3C2Ejjj") == 0);
}

static int starts(const char *name, const char *prefix) {
  return name && strncmp(name, prefix, strlen(prefix)) == 0;
}

/* Records that inst writes len bytes (len < 0: unknown) at ptr; 0 when ptr
 * is no constant offset into the slot. */
static int add_write(eval_ctx *e, slot *s, LLVMValueRef inst, LLVMValueRef ptr, long long len) {
  long long off;
  if (pg_strip_constant_offsets(e->m, ptr, &off) != s->alloca)
    return 0;
  slot_write w = {inst, off, len < 0 ? -1 : off + len};
  PG_PUSH(s->writes, s->nwrites, s->capwrites, w);
  return 1;
}

/* A call using p (the slot or a pointer into it): 1 when it is one whose
 * effect on the slot is known (a copy, a fill, dim3's constructor, a
 * lifetime marker), the write recorded. */
static int call_write(eval_ctx *e, slot *s, LLVMValueRef call, LLVMValueRef p) {
  const char *n = pg_called_name(call);
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(call);
  long long len;
  if (!LLVMIsACallInst(call) || !n)
    return 0;
  for (unsigned i = 1; i < nargs; ++i)
    if (LLVMGetOperand(call, i) == p) /* p as a source: only copies read it */
      return i == 1 && LLVMGetOperand(call, 0) != p &&
             (starts(n, "llvm.memcpy") || starts(n, "llvm.memmove"));
  if (starts(n, "llvm.lifetime."))
    return add_write(e, s, call, p, -1); /* undefined before start, after end */
  if (starts(n, "llvm.memcpy") || starts(n, "llvm.memmove") || starts(n, "llvm.memset"))
    return add_write(e, s, call, p, pg_const_int(LLVMGetOperand(call, 2), &len) ? len : -1);
  if (is_dim3_ctor(n) && nargs == 4)
    return add_write(e, s, call, p, 12);
  return 0;
}

/* Records the writes of every use of p (the slot or a pointer derived from
 * it); 0 when the slot's address escapes or a use is not understood. */
static int collect_writes(eval_ctx *e, slot *s, LLVMValueRef p, unsigned depth) {
  if (depth > kMaxDepth)
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(p); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user))
      continue;
    if (LLVMIsAStoreInst(user)) {
      LLVMValueRef val = LLVMGetOperand(user, 0);
      if (val == p || !add_write(e, s, user, p, (long long)LLVMStoreSizeOfType(e->dl, LLVMTypeOf(val))))
        return 0; /* the address itself is stored somewhere */
    } else if (LLVMIsAGetElementPtrInst(user)) {
      if (LLVMGetOperand(user, 0) != p || !collect_writes(e, s, user, depth + 1))
        return 0;
    } else if (!call_write(e, s, user, p)) {
      return 0;
    }
  }
  return 1;
}

/* What write w leaves in bytes [off, off+4) of its slot; 1 when known. */
static int written_u32(eval_ctx *e, const slot_write *w, long long off, unsigned *out) {
  if (w->hi < 0 || off < w->lo || off + 4 > w->hi)
    return 0; /* unknown extent, or covers the component only in part */
  LLVMValueRef i = w->inst;
  long long rel = off - w->lo, byte;
  if (LLVMIsAStoreInst(i))
    return value_u32(e, LLVMGetOperand(i, 0), (unsigned)rel * 8, out);
  const char *n = pg_called_name(i);
  if (is_dim3_ctor(n))
    return rel % 4 == 0 && value_u32(e, LLVMGetOperand(i, 1 + (unsigned)(rel / 4)), 0, out);
  if (starts(n, "llvm.memset")) {
    if (!pg_const_int(LLVMGetOperand(i, 1), &byte))
      return 0;
    *out = (unsigned)(byte & 0xff) * 0x01010101u;
    return 1;
  }
  long long src_off; /* a copy: what its source held there at the copy */
  LLVMValueRef src = pg_strip_constant_offsets(e->m, LLVMGetOperand(i, 1), &src_off);
  return LLVMIsAAllocaInst(src) && slot_u32(e, src, i, src_off + rel, out);
}

static const slot_write *write_at(const slot *s, LLVMValueRef inst, long long off) {
  for (unsigned k = 0; k < s->nwrites; ++k) {
    const slot_write *w = &s->writes[k];
    if (w->inst == inst && (w->hi < 0 || (w->lo < off + 4 && off < w->hi)))
      return w;
  }
  return NULL;
}

typedef struct walk {
  LLVMValueRef *todo;           /* last instruction of a path to scan back from */
  unsigned ntodo, captodo;
  LLVMBasicBlockRef *seen;      /* blocks whose end was queued */
  unsigned nseen, capseen;
} walk;

/* Queues the ends of bb's predecessors not queued yet; 0 when bb has none
 * (the function's entry: the slot is uninitialised on that path). */
static int queue_preds(walk *wk, LLVMBasicBlockRef bb) {
  int any = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef term = LLVMGetUser(u);
    if (!LLVMIsATerminatorInst(term))
      continue;
    any = 1;
    LLVMBasicBlockRef p = LLVMGetInstructionParent(term);
    int dup = 0;
    for (unsigned k = 0; k < wk->nseen && !dup; ++k)
      dup = wk->seen[k] == p;
    if (dup)
      continue;
    PG_PUSH(wk->seen, wk->nseen, wk->capseen, p);
    PG_PUSH(wk->todo, wk->ntodo, wk->captodo, term);
  }
  return any;
}

/* The value bytes [off, off+4) of slot s hold right before `at`: the one
 * every write reaching `at` leaves there.  A path back to a block already
 * queued adds no write of its own, so each block's end is scanned once. */
static int reaching_u32(eval_ctx *e, const slot *s, LLVMValueRef at, long long off,
                        unsigned *out) {
  walk wk;
  memset(&wk, 0, sizeof wk);
  int have = 0, ok = 1;
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(at);
  LLVMValueRef i = LLVMGetPreviousInstruction(at);
  for (;;) {
    int found = 0;
    for (; i; i = LLVMGetPreviousInstruction(i)) {
      if (!e->budget) {
        ok = 0;
        break;
      }
      --e->budget;
      const slot_write *w = write_at(s, i, off);
      unsigned v;
      if (!w)
        continue;
      ok = written_u32(e, w, off, &v) && (!have || v == *out);
      have = found = 1;
      *out = v;
      break;
    }
    if (!ok || (!found && !queue_preds(&wk, bb))) {
      ok = 0;
      break;
    }
    if (!wk.ntodo)
      break;
    i = wk.todo[--wk.ntodo];
    bb = LLVMGetInstructionParent(i);
  }
  free(wk.todo);
  free(wk.seen);
  return ok && have;
}

static int slot_u32(eval_ctx *e, LLVMValueRef alloca, LLVMValueRef at, long long off,
                    unsigned *out) {
  slot s = {alloca, NULL, 0, 0};
  int ok = 0;
  if (e->depth < kMaxDepth && collect_writes(e, &s, alloca, 0)) {
    ++e->depth;
    ok = reaching_u32(e, &s, at, off, out);
    --e->depth;
  }
  free(s.writes);
  return ok;
}

static unsigned int_width(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 0;
}

/* A loaded component: what the stack slot holds at the load. */
static int load_u32(eval_ctx *e, LLVMValueRef load, unsigned bit, unsigned *out) {
  long long off;
  if (LLVMGetVolatile(load) || LLVMByteOrder(e->dl) != LLVMLittleEndian)
    return 0;
  LLVMValueRef base = pg_strip_constant_offsets(e->m, LLVMGetOperand(load, 0), &off);
  return LLVMIsAAllocaInst(base) && slot_u32(e, base, load, off + bit / 8, out);
}

/* The same value from every incoming value of a phi or arm of a select. */
static int agreed_u32(eval_ctx *e, LLVMValueRef v, unsigned first, unsigned n, unsigned bit,
                      unsigned *out) {
  for (unsigned k = first; k < n; ++k) {
    unsigned x;
    if (!value_u32(e, LLVMGetOperand(v, k), bit, &x) || (k > first && x != *out))
      return 0;
    *out = x;
  }
  return n > first;
}

static int inst_u32(eval_ctx *e, LLVMValueRef v, unsigned bit, unsigned *out) {
  LLVMValueRef op0 = LLVMGetNumOperands(v) > 0 ? LLVMGetOperand(v, 0) : NULL;
  LLVMValueRef op1 = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
  unsigned a, b;
  long long c;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMLoad:
    return load_u32(e, v, bit, out);
  case LLVMZExt:
    if (bit >= int_width(op0))
      return *out = 0, 1;
    return value_u32(e, op0, bit, out);
  case LLVMTrunc:
    return value_u32(e, op0, bit, out);
  case LLVMOr:
    if (!value_u32(e, op0, bit, &a) || !value_u32(e, op1, bit, &b))
      return 0;
    return *out = a | b, 1;
  case LLVMShl: /* by whole components only: x | (y << 32) */
    if (!pg_const_int(op1, &c) || c < 0 || c % 32)
      return 0;
    if (bit < (unsigned long long)c)
      return *out = 0, 1;
    return value_u32(e, op0, bit - (unsigned)c, out);
  case LLVMAnd:
    if (!pg_const_int(op1, &c))
      return 0;
    b = (unsigned)((unsigned long long)c >> bit);
    if (!b)
      return *out = 0, 1;
    if (!value_u32(e, op0, bit, &a))
      return 0;
    return *out = a & b, 1;
  case LLVMSelect:
    return agreed_u32(e, v, 1, 3, bit, out);
  case LLVMPHI:
    return agreed_u32(e, v, 0, LLVMCountIncoming(v), bit, out);
  default:
    return 0;
  }
}

/* Bits [bit, bit+32) of the integer v. */
static int value_u32(eval_ctx *e, LLVMValueRef v, unsigned bit, unsigned *out) {
  unsigned w = int_width(v);
  if (!w || w > 64 || bit + 32 > w)
    return 0;
  if (LLVMIsAConstantInt(v)) {
    *out = (unsigned)(LLVMConstIntGetZExtValue(v) >> bit);
    return 1;
  }
  if (!LLVMIsAInstruction(v) || e->depth >= kMaxDepth)
    return 0;
  ++e->depth;
  int ok = inst_u32(e, v, bit, out);
  --e->depth;
  return ok;
}

void pg_dim3_value(LLVMValueRef launch, LLVMValueRef xy, LLVMValueRef z, pg_dim3 *d) {
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(LLVMGetInstructionParent(launch)));
  LLVMValueRef parts[3] = {xy, xy, z};
  unsigned bits[3] = {0, 32, 0};
  for (int k = 0; k < 3; ++k) {
    eval_ctx e = {m, LLVMGetModuleDataLayout(m), kBudget, 0};
    d->known[k] = parts[k] && value_u32(&e, parts[k], bits[k], &d->v[k]);
  }
}
