/* wait_loops.c - host waits on memory a kernel may write (see wait_loops.h).
 *
 * A read counts only when its value flows (through SSA values: compares,
 * logic, casts, phis, selects, extractvalue, intrinsics; and through stack
 * slots it is spilled to, as at -O0) into a branch that leaves a loop
 * containing the read.  Reference counts, the guards of function-local
 * statics and progress counters decide no loop exit, so they stay harmless;
 * `while (flag.load() != i)`, `while (*(volatile int *)p == 0)` and
 * `while (f.fetch_add(0) != i)` are waits.  Not seen: loops LoopInfo does not
 * know (irreducible cycles) and exits that depend on the read only through
 * control flow (`if (flag) done = true;` at -O0). */
#include "wait_loops.h"
#include "ir_util.h"
#include "../shim/pygraph_shim.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int contains(LLVMValueRef *xs, unsigned n, LLVMValueRef x) {
  for (unsigned i = 0; i < n; ++i)
    if (xs[i] == x)
      return 1;
  return 0;
}

/* The kind of a volatile or atomic read; NULL for any other instruction. */
static const char *shared_read_kind(LLVMValueRef inst) {
  switch (LLVMGetInstructionOpcode(inst)) {
  case LLVMLoad:
    return LLVMGetVolatile(inst) ? "volatile load"
           : LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic ? "atomic load" : NULL;
  case LLVMAtomicRMW:
    return "atomic read-modify-write";
  case LLVMAtomicCmpXchg:
    return "atomic compare-exchange";
  default:
    return NULL;
  }
}

/* Does `name` (a mangled symbol) belong to CUB's per-device attribute
 * cache?  Its entries' flags are a lock between host threads: the thread
 * that fills an entry (with a host query) releases it, others spin until
 * then; no kernel is given their address.  The rule takes every read in
 * the cache's functions, so a filler inlined into its operator() is taken
 * too: CUB's fillers are host queries (PtxVersionUncached, SmVersion), and
 * a user's filler would have to poll device-written memory to matter. */
static int cub_attribute_cache(const char *name) {
  return (strncmp(name, "_ZN3cub", 7) == 0 || strncmp(name, "_ZZN3cub", 8) == 0) &&
         strstr(name, "PerDeviceAttributeCache") != NULL;
}

/* A read of CUB's attribute cache: in its own functions, or inlined, of
 * the cache object itself (a function-local static). */
static int reads_cub_attribute_cache(LLVMValueRef inst) {
  size_t n;
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
  LLVMValueRef base = pg_underlying_object(LLVMGetOperand(inst, 0));
  return cub_attribute_cache(LLVMGetValueName2(fn, &n)) ||
         (LLVMIsAGlobalVariable(base) && cub_attribute_cache(LLVMGetValueName2(base, &n)));
}

/* A read of memory another agent may write: not a local nothing else sees,
 * nor a library's host-only lock. */
static int is_shared_read(LLVMValueRef inst) {
  return shared_read_kind(inst) && !pg_is_private_stack_slot(LLVMGetOperand(inst, 0)) &&
         !reads_cub_attribute_cache(inst);
}

static int is_source(const pg_wait_set *w, LLVMValueRef inst) {
  if (pg_is_call(inst)) {
    LLVMValueRef f = pg_called_function(inst);
    return f && contains(w->returners, w->nret, f);
  }
  return is_shared_read(inst);
}

/* 1 when terminator t leaves a loop of li that contains block `from`. */
static int exits_loop_around(pg_loop_info *li, LLVMValueRef t, LLVMBasicBlockRef from) {
  for (pg_loop *l = pg_loop_for_block(li, LLVMGetInstructionParent(t)); l; l = pg_loop_parent(l)) {
    if (!pg_loop_contains_block(l, from))
      continue;
    for (unsigned s = 0; s < LLVMGetNumSuccessors(t); ++s)
      if (!pg_loop_contains_block(l, LLVMGetSuccessor(t, s)))
        return 1;
  }
  return 0;
}

enum reach { REACH_NONE = 0, REACH_RET = 1, REACH_EXIT = 2 };

/* The values one read's value reaches, each once, however many: `order` is
 * the worklist (values in the order they were reached), `slots` an
 * open-addressing hash set of the same values (a power-of-2 size, at most
 * half full, NULL for an empty slot). */
typedef struct value_walk {
  LLVMValueRef *order;
  unsigned n, cap;
  LLVMValueRef *slots;
  size_t nslots;
} value_walk;

static size_t slot_hash(LLVMValueRef v, size_t mask) {
  uint64_t h = (uint64_t)(uintptr_t)v;
  h = (h ^ (h >> 29)) * 0x9e3779b97f4a7c15ull;
  return (size_t)(h >> 17) & mask;
}

/* Puts v in its free slot (v is not in the set yet). */
static void place(value_walk *w, LLVMValueRef v) {
  size_t mask = w->nslots - 1, i = slot_hash(v, mask);
  while (w->slots[i])
    i = (i + 1) & mask;
  w->slots[i] = v;
}

static void rehash(value_walk *w) {
  size_t n = w->nslots ? w->nslots * 2 : 64;
  LLVMValueRef *slots = n > w->nslots ? calloc(n, sizeof *slots) : NULL;
  if (!slots)
    pg_out_of_memory();
  free(w->slots);
  w->slots = slots;
  w->nslots = n;
  for (unsigned i = 0; i < w->n; ++i)
    place(w, w->order[i]);
}

/* Adds v to the walk unless it was reached before. */
static void visit(value_walk *w, LLVMValueRef v) {
  if (2 * ((size_t)w->n + 1) > w->nslots)
    rehash(w);
  size_t mask = w->nslots - 1;
  for (size_t i = slot_hash(v, mask); w->slots[i]; i = (i + 1) & mask)
    if (w->slots[i] == v)
      return;
  place(w, v);
  PG_PUSH(w->order, w->n, w->cap, v);
}

/* One use of a reached value v by `user`: where it takes v (a return, a
 * loop exit seen from block `from`), and the values it carries v on to. */
static int follow_use(value_walk *w, LLVMValueRef v, LLVMValueRef user, pg_loop_info *li,
                      LLVMBasicBlockRef from) {
  if (!LLVMIsAInstruction(user))
    return REACH_NONE;
  LLVMOpcode op = LLVMGetInstructionOpcode(user);
  if (op == LLVMRet)
    return REACH_RET;
  if (op == LLVMBr || op == LLVMSwitch)
    return li && exits_loop_around(li, user, from) ? REACH_EXIT : REACH_NONE;
  if (op == LLVMStore) {
    /* Spilled to a stack slot (every value at -O0): its loads carry it on. */
    LLVMValueRef slot = pg_strip(LLVMGetOperand(user, 1));
    if (LLVMGetOperand(user, 0) == v && LLVMIsAAllocaInst(slot))
      for (LLVMUseRef su = LLVMGetFirstUse(slot); su; su = LLVMGetNextUse(su))
        if (LLVMIsALoadInst(LLVMGetUser(su)))
          visit(w, LLVMGetUser(su));
    return REACH_NONE;
  }
  LLVMValueRef callee = pg_called_function(user);
  if (LLVMGetTypeKind(LLVMTypeOf(user)) == LLVMVoidTypeKind ||
      ((op == LLVMCall || op == LLVMInvoke) && !(callee && LLVMGetIntrinsicID(callee))))
    return REACH_NONE; /* into a callee: not followed (intrinsics, smin or bswap say, are) */
  visit(w, user);
  return REACH_NONE;
}

/* Where the value of src goes: a return, and (with li) a loop exit.  Every
 * value it reaches is followed: no limit on how far. */
static int follow(LLVMValueRef src, pg_loop_info *li) {
  value_walk w;
  memset(&w, 0, sizeof w);
  visit(&w, src);
  LLVMBasicBlockRef from = LLVMGetInstructionParent(src);
  int found = REACH_NONE;
  for (unsigned next = 0; next < w.n && !(found & REACH_EXIT); ++next) {
    LLVMValueRef v = w.order[next];
    for (LLVMUseRef u = LLVMGetFirstUse(v); u && !(found & REACH_EXIT); u = LLVMGetNextUse(u))
      found |= follow_use(&w, v, LLVMGetUser(u), li, from);
  }
  free(w.order);
  free(w.slots);
  return found;
}

static int has_source(const pg_wait_set *w, LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (is_source(w, i))
        return 1;
  return 0;
}

void pg_wait_set_build(pg_wait_set *w, LLVMModuleRef m) {
  memset(w, 0, sizeof *w);
  /* Functions returning a shared read (a getter like `bool ready()`), across
   * call levels: monotone, so iterate to the fixpoint. */
  for (int changed = 1; changed;) {
    changed = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
      if (LLVMIsDeclaration(f) || contains(w->returners, w->nret, f))
        continue;
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
          if (is_source(w, i) && (follow(i, NULL) & REACH_RET)) {
            PG_PUSH(w->returners, w->nret, w->capret, f);
            changed = 1;
            goto next_function;
          }
    next_function:;
    }
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || !has_source(w, f))
      continue;
    pg_loop_info *li = pg_loops_compute(f);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (is_source(w, i) && (follow(i, li) & REACH_EXIT))
          PG_PUSH(w->waits, w->n, w->cap, i);
    pg_loops_free(li);
  }
  if (w->n)
    qsort(w->waits, w->n, sizeof *w->waits, pg_by_address);   /* looked up per instruction */
}

void pg_wait_set_free(pg_wait_set *w) {
  free(w->waits);
  free(w->returners);
  memset(w, 0, sizeof *w);
}

int pg_wait_set_has(const pg_wait_set *w, LLVMValueRef inst) {
  return w->n && bsearch(&inst, w->waits, w->n, sizeof *w->waits, pg_by_address) != NULL;
}

const char *pg_wait_kind(LLVMValueRef inst) {
  const char *k = shared_read_kind(inst);
  return k ? k : "read";
}
