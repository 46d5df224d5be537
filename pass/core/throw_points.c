/* throw_points.c - exceptions leaving a live region (throw_points.h). */
#include "throw_points.h"
#include "abi_ir.h"
#include "ir_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int pg_is_throw_call(const char *name) {
  static const char *const kExact[] = {"__cxa_allocate_exception", "__cxa_throw",
                                       "__cxa_rethrow", "_Unwind_Resume",
                                       "__cxa_free_exception"};
  for (size_t i = 0; i < sizeof kExact / sizeof kExact[0]; ++i)
    if (strcmp(name, kExact[i]) == 0)
      return 1;
  /* std::__throw_length_error and friends: _ZSt<length>__throw_... */
  return strncmp(name, "_ZSt", 4) == 0 && strstr(name, "__throw_") != NULL;
}

static int is_throw(LLVMValueRef inst) {
  const char *name = pg_is_call(inst) ? pg_called_name(inst) : NULL;
  return name && pg_is_throw_call(name);
}

static int has_throw(LLVMBasicBlockRef bb) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
    if (is_throw(i))
      return 1;
  return 0;
}

static int by_address(const void *a, const void *b) {
  uintptr_t x = (uintptr_t) * (const LLVMBasicBlockRef *)a;
  uintptr_t y = (uintptr_t) * (const LLVMBasicBlockRef *)b;
  return (x > y) - (x < y);
}

static int in_sorted(LLVMBasicBlockRef *v, unsigned n, LLVMBasicBlockRef bb) {
  return n && bsearch(&bb, v, n, sizeof *v, by_address) != NULL;
}

/* A function's blocks by address, with their position in the function. */
typedef struct block_index {
  LLVMBasicBlockRef bb;
  unsigned pos;
} block_index;

static int by_block(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const block_index *)a)->bb;
  uintptr_t y = (uintptr_t)((const block_index *)b)->bb;
  return (x > y) - (x < y);
}

static block_index *sorted_index(LLVMBasicBlockRef *blocks, unsigned n) {
  block_index *v = calloc(n ? n : 1, sizeof *v);
  if (!v)
    pg_out_of_memory();
  for (unsigned i = 0; i < n; ++i)
    v[i] = (block_index){blocks[i], i};
  qsort(v, n, sizeof *v, by_block);
  return v;
}

/* bb's position, or n when it is not one of the function's blocks. */
static unsigned index_of(const block_index *v, unsigned n, LLVMBasicBlockRef bb) {
  block_index key = {bb, 0};
  const block_index *hit = n ? bsearch(&key, v, n, sizeof *v, by_block) : NULL;
  return hit ? hit->pos : n;
}

/* Must-analysis over fn's blocks (their order in fn, blocks[i]): in[i]
 * when every predecessor has passed a throw by its end.  Starts from "yes"
 * everywhere but the entry and only turns answers off: the greatest
 * fixpoint, as a dominance-like "all paths" question needs. */
static void after_throw_blocks(pg_throw_paths *t, LLVMValueRef fn) {
  unsigned n = LLVMCountBasicBlocks(fn);
  LLVMBasicBlockRef *blocks = calloc(n, sizeof *blocks);
  char *in = calloc(n, 1), *throws = calloc(n, 1);
  if (!blocks || !in || !throws)
    pg_out_of_memory();
  LLVMGetBasicBlocks(fn, blocks);
  block_index *order = sorted_index(blocks, n);
  for (unsigned i = 0; i < n; ++i) {
    in[i] = i > 0;
    throws[i] = (char)has_throw(blocks[i]);
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned i = 1; i < n; ++i) {
      if (!in[i])
        continue;
      for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(blocks[i])); u && in[i];
           u = LLVMGetNextUse(u)) {
        LLVMValueRef term = LLVMGetUser(u);
        if (!LLVMIsAInstruction(term))
          continue;   /* a blockaddress: not a path */
        unsigned p = index_of(order, n, LLVMGetInstructionParent(term));
        if (p < n && !in[p] && !throws[p]) {
          in[i] = 0;
          changed = 1;
        }
      }
    }
  }
  for (unsigned i = 0; i < n; ++i) {
    if (in[i])
      PG_PUSH(t->after, t->n, t->cap, blocks[i]);
    if (throws[i])
      PG_PUSH(t->with, t->nwith, t->capwith, blocks[i]);
  }
  free(order);
  free(throws);
  free(in);
  free(blocks);
}

void pg_throw_paths_build(pg_throw_paths *t, LLVMModuleRef m) {
  memset(t, 0, sizeof *t);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    int any = 0;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !any;
         bb = LLVMGetNextBasicBlock(bb))
      any = has_throw(bb);
    if (any)
      after_throw_blocks(t, fn);
  }
  if (t->n)
    qsort(t->after, t->n, sizeof *t->after, by_address);
  if (t->nwith)
    qsort(t->with, t->nwith, sizeof *t->with, by_address);
}

void pg_throw_paths_free(pg_throw_paths *t) {
  free(t->after);
  free(t->with);
  memset(t, 0, sizeof *t);
}

int pg_after_throw(const pg_throw_paths *t, LLVMValueRef inst) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(inst);
  if (in_sorted(t->after, t->n, bb))
    return 1;
  if (!in_sorted(t->with, t->nwith, bb))
    return 0;
  for (LLVMValueRef i = LLVMGetPreviousInstruction(inst); i; i = LLVMGetPreviousInstruction(i))
    if (is_throw(i))
      return 1;
  return 0;
}

unsigned pg_insert_throw_points(LLVMModuleRef m) {
  unsigned n = 0;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  LLVMTypeRef ty = pg_protocol_type(m, PG_PROTOCOL_throw_point);
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (is_throw(i)) {
          pg_call_before(b, i, ty, pg_protocol_fn(m, PG_PROTOCOL_throw_point), NULL, 0);
          ++n;
        }
  LLVMDisposeBuilder(b);
  return n;
}
