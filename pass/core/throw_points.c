/* throw_points.c - exceptions leaving a live region (throw_points.h). */
#include "throw_points.h"
#include "abi_ir.h"
#include "ir_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Calls that never return normally: they throw or go on unwinding. */
static int is_raise_name(const char *name) {
  static const char *const kExact[] = {"__cxa_throw", "__cxa_rethrow", "_Unwind_Resume"};
  for (size_t i = 0; i < sizeof kExact / sizeof kExact[0]; ++i)
    if (strcmp(name, kExact[i]) == 0)
      return 1;
  /* std::__throw_length_error and friends: _ZSt<length>__throw_... */
  return strncmp(name, "_ZSt", 4) == 0 && strstr(name, "__throw_") != NULL;
}

int pg_is_throw_call(const char *name) {
  return is_raise_name(name) || strcmp(name, "__cxa_allocate_exception") == 0 ||
         strcmp(name, "__cxa_free_exception") == 0;
}

static const char *callee_name(LLVMValueRef inst) {
  return pg_is_call(inst) ? pg_called_name(inst) : NULL;
}

static int is_raise(LLVMValueRef inst) {
  const char *name = callee_name(inst);
  return LLVMIsAResumeInst(inst) || (name && is_raise_name(name));
}

static int is_allocation(LLVMValueRef inst) {
  const char *name = callee_name(inst);
  return name && strcmp(name, "__cxa_allocate_exception") == 0;
}

/* ---- a function's blocks: indices, and the paths that end in a throw ---- */

typedef struct block_index {
  LLVMBasicBlockRef bb;
  unsigned pos;
} block_index;

typedef struct fn_blocks {
  LLVMBasicBlockRef *blocks;   /* in function order */
  block_index *order;          /* by address */
  char *bound;                 /* every path from the block's start ends in a throw */
  unsigned n;
} fn_blocks;

static int by_block(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const block_index *)a)->bb;
  uintptr_t y = (uintptr_t)((const block_index *)b)->bb;
  return (x > y) - (x < y);
}

/* bb's position, or n when it is not one of the function's blocks. */
static unsigned index_of(const fn_blocks *f, LLVMBasicBlockRef bb) {
  block_index key = {bb, 0};
  const block_index *hit = f->n ? bsearch(&key, f->order, f->n, sizeof *f->order, by_block) : NULL;
  return hit ? hit->pos : f->n;
}

/* Does bb end by throwing (a raise right before `unreachable`, or resume)? */
static int ends_in_raise(LLVMBasicBlockRef bb) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  if (!term)
    return 0;
  if (LLVMIsAResumeInst(term))
    return 1;
  LLVMValueRef prev = LLVMGetPreviousInstruction(term);
  return LLVMIsAUnreachableInst(term) && prev && is_raise(prev);
}

/* bound[i]: every path from block i ends in a throw.  Least fixpoint:
 * only what is shown becomes true (a loop of blocks shows nothing). */
static void throw_bound(fn_blocks *f) {
  for (unsigned i = 0; i < f->n; ++i)
    f->bound[i] = (char)ends_in_raise(f->blocks[i]);
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned i = 0; i < f->n; ++i) {
      if (f->bound[i])
        continue;
      LLVMValueRef term = LLVMGetBasicBlockTerminator(f->blocks[i]);
      unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
      int all = ns > 0;
      for (unsigned s = 0; s < ns && all; ++s) {
        unsigned p = index_of(f, LLVMGetSuccessor(term, s));
        all = p < f->n && f->bound[p];
      }
      if (all) {
        f->bound[i] = 1;
        changed = 1;
      }
    }
  }
}

static void fn_blocks_init(fn_blocks *f, LLVMValueRef fn) {
  f->n = LLVMCountBasicBlocks(fn);
  f->blocks = calloc(f->n ? f->n : 1, sizeof *f->blocks);
  f->order = calloc(f->n ? f->n : 1, sizeof *f->order);
  f->bound = calloc(f->n ? f->n : 1, 1);
  if (!f->blocks || !f->order || !f->bound)
    pg_out_of_memory();
  LLVMGetBasicBlocks(fn, f->blocks);
  for (unsigned i = 0; i < f->n; ++i)
    f->order[i] = (block_index){f->blocks[i], i};
  qsort(f->order, f->n, sizeof *f->order, by_block);
  throw_bound(f);
}

static void fn_blocks_free(fn_blocks *f) {
  free(f->blocks);
  free(f->order);
  free(f->bound);
}

/* A throw point goes right before inst: a raise, or the allocation of an
 * exception that is certainly thrown (std::make_exception_ptr allocates one
 * and returns). */
static int is_marker(const fn_blocks *f, LLVMValueRef inst) {
  if (is_raise(inst))
    return 1;
  if (!is_allocation(inst))
    return 0;
  unsigned p = index_of(f, LLVMGetInstructionParent(inst));
  return p < f->n && f->bound[p];
}

static LLVMValueRef first_marker(const fn_blocks *f, LLVMBasicBlockRef bb) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
    if (is_marker(f, i))
      return i;
  return NULL;
}

static int has_raise(LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (is_raise(i))
        return 1;
  return 0;
}

/* ---- what runs only after a throw point --------------------------------- */

/* Must-analysis over f's blocks: in[i] when every predecessor has passed a
 * marker by its end.  Starts from "yes" everywhere but the entry and only
 * turns answers off: the greatest fixpoint, as an "all paths" question
 * needs.  The blocks entered after a throw point, and the instructions
 * after a block's first marker, go into t. */
static void after_markers(pg_throw_paths *t, const fn_blocks *f) {
  char *in = calloc(f->n ? f->n : 1, 1);
  LLVMValueRef *marker = calloc(f->n ? f->n : 1, sizeof *marker);
  if (!in || !marker)
    pg_out_of_memory();
  for (unsigned i = 0; i < f->n; ++i) {
    in[i] = i > 0;
    marker[i] = first_marker(f, f->blocks[i]);
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned i = 1; i < f->n; ++i)
      for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(f->blocks[i])); u && in[i];
           u = LLVMGetNextUse(u)) {
        LLVMValueRef term = LLVMGetUser(u);
        if (!LLVMIsAInstruction(term))
          continue;   /* a blockaddress: not a path */
        unsigned p = index_of(f, LLVMGetInstructionParent(term));
        if (p < f->n && !in[p] && !marker[p]) {
          in[i] = 0;
          changed = 1;
        }
      }
  }
  for (unsigned i = 0; i < f->n; ++i) {
    if (in[i])
      PG_PUSH(t->after, t->n, t->cap, f->blocks[i]);
    else if (marker[i])
      for (LLVMValueRef x = LLVMGetNextInstruction(marker[i]); x; x = LLVMGetNextInstruction(x))
        PG_PUSH(t->insts, t->ninsts, t->capinsts, x);
  }
  free(marker);
  free(in);
}

void pg_throw_paths_build(pg_throw_paths *t, LLVMModuleRef m) {
  memset(t, 0, sizeof *t);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (LLVMIsDeclaration(fn) || !has_raise(fn))
      continue;
    fn_blocks f;
    fn_blocks_init(&f, fn);
    after_markers(t, &f);
    fn_blocks_free(&f);
  }
  if (t->n)
    qsort(t->after, t->n, sizeof *t->after, pg_by_address);
  if (t->ninsts)
    qsort(t->insts, t->ninsts, sizeof *t->insts, pg_by_address);
}

void pg_throw_paths_free(pg_throw_paths *t) {
  free(t->after);
  free(t->insts);
  memset(t, 0, sizeof *t);
}

int pg_after_throw(const pg_throw_paths *t, LLVMValueRef inst) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
  return (t->n && bsearch(&bb, t->after, t->n, sizeof *t->after, pg_by_address)) ||
         (t->ninsts && bsearch(&inst, t->insts, t->ninsts, sizeof *t->insts, pg_by_address));
}

/* ---- inserting the throw points ------------------------------------------ */

unsigned pg_insert_throw_points(LLVMModuleRef m) {
  unsigned n = 0;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMTypeRef ty = pg_protocol_type(m, PG_PROTOCOL_throw_point);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (LLVMIsDeclaration(fn) || !has_raise(fn))
      continue;
    fn_blocks f;
    fn_blocks_init(&f, fn);
    for (unsigned k = 0; k < f.n; ++k)
      for (LLVMValueRef i = LLVMGetFirstInstruction(f.blocks[k]); i; i = LLVMGetNextInstruction(i))
        if (is_marker(&f, i)) {
          pg_call_before(b, i, ty, pg_protocol_fn(m, PG_PROTOCOL_throw_point), NULL, 0);
          ++n;
        }
    fn_blocks_free(&f);
  }
  LLVMDisposeBuilder(b);
  return n;
}
