/* own_capture.c - which instructions run inside the program's own capture. */
#include "own_capture.h"
#include "cuda_api_table.h"
#include "ir_util.h"

#include <stdlib.h>
#include <string.h>

static pg_capture_fn *fn_of(const pg_capture_set *s, LLVMValueRef fn) {
  for (unsigned i = 0; i < s->nfns; ++i)
    if (s->fns[i].fn == fn)
      return &s->fns[i];
  return NULL;
}

int pg_capture_call_opens(const pg_capture_set *s, LLVMValueRef callee) {
  pg_capture_fn *f = callee ? fn_of(s, callee) : NULL;
  return f && f->opens;
}

int pg_capture_call_closes(const pg_capture_set *s, LLVMValueRef callee) {
  pg_capture_fn *f = callee ? fn_of(s, callee) : NULL;
  return f && f->closes;
}

static pg_capture_edge api_edge(LLVMValueRef inst) {
  const char *name = pg_is_call(inst) ? pg_called_name(inst) : NULL;
  const pg_api_entry *e = name ? pg_api_lookup(name) : NULL;
  return e ? e->capture : PG_CAPTURE_NONE;
}

static int begins(const pg_capture_set *s, LLVMValueRef inst) {
  return api_edge(inst) == PG_CAPTURE_BEGINS ||
         (pg_is_call(inst) && pg_capture_call_opens(s, pg_called_function(inst)));
}

static int ends(const pg_capture_set *s, LLVMValueRef inst) {
  return api_edge(inst) == PG_CAPTURE_ENDS ||
         (pg_is_call(inst) && pg_capture_call_closes(s, pg_called_function(inst)));
}

/* Where execution goes on after a begin: the next instruction, or the
 * normal destination of an invoke (C++ with cleanups). */
static LLVMValueRef after(LLVMValueRef inst) {
  if (LLVMIsAInvokeInst(inst))
    return LLVMGetFirstInstruction(LLVMGetNormalDest(inst));
  return LLVMGetNextInstruction(inst);
}

static void mark(pg_capture_set *s, LLVMValueRef inst, LLVMValueRef begin) {
  pg_captured c = {inst, begin};
  PG_PUSH(s->insts, s->n, s->cap, c);
}

/* Walks forward from `from` (inclusive) until an end; marks what it passes
 * when begin is given.  Returns 1 when a return is reached. */
static int walk(pg_capture_set *s, LLVMValueRef from, LLVMValueRef begin) {
  LLVMBasicBlockRef *stack = NULL, *seen = NULL;
  unsigned nstack = 0, capstack = 0, nseen = 0, capseen = 0;
  int returns = 0;
  while (from) {
    int stopped = 0;
    for (LLVMValueRef i = from; i; i = LLVMGetNextInstruction(i)) {
      if (ends(s, i)) {
        stopped = 1;
        break;
      }
      if (begin)
        mark(s, i, begin);
      returns |= LLVMIsAReturnInst(i) != NULL;
    }
    LLVMValueRef term = LLVMGetBasicBlockTerminator(LLVMGetInstructionParent(from));
    for (unsigned k = 0; !stopped && term && k < LLVMGetNumSuccessors(term); ++k) {
      LLVMBasicBlockRef succ = LLVMGetSuccessor(term, k);
      int known = 0;
      for (unsigned j = 0; j < nseen && !known; ++j)
        known = seen[j] == succ;
      if (!known) {
        PG_PUSH(seen, nseen, capseen, succ);
        PG_PUSH(stack, nstack, capstack, succ);
      }
    }
    from = nstack ? LLVMGetFirstInstruction(stack[--nstack]) : NULL;
  }
  free(stack);
  free(seen);
  return returns;
}

static int has(pg_capture_set *s, LLVMValueRef fn, int (*pred)(const pg_capture_set *, LLVMValueRef)) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (pred(s, i))
        return 1;
  return 0;
}

/* Both fixpoints are monotone: closes first (it depends on closes only),
 * then opens with closes fixed. */
static void summarise(pg_capture_set *s) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned k = 0; k < s->nfns; ++k) {
      pg_capture_fn *f = &s->fns[k];
      if (f->closes || !has(s, f->fn, ends))
        continue;
      f->closes = !walk(s, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f->fn)), NULL);
      changed |= f->closes;
    }
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned k = 0; k < s->nfns; ++k) {
      pg_capture_fn *f = &s->fns[k];
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f->fn); bb && !f->opens;
           bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !f->opens;
             i = LLVMGetNextInstruction(i))
          if (begins(s, i) && walk(s, after(i), NULL))
            f->opens = changed = 1;
    }
  }
}

/* Functions called from inside a capture run wholly inside it, and so do
 * their callees. */
static void mark_callees(pg_capture_set *s) {
  for (unsigned k = 0; k < s->n; ++k) {
    LLVMValueRef callee = pg_is_call(s->insts[k].inst) ? pg_called_function(s->insts[k].inst) : NULL;
    pg_capture_fn *f = callee ? fn_of(s, callee) : NULL;
    if (!f || f->inside)
      continue;
    f->inside = 1;
    LLVMValueRef begin = s->insts[k].begin;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(callee); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        mark(s, i, begin);
  }
}

static int by_inst(const void *a, const void *b) {
  const pg_captured *x = a, *y = b;
  return x->inst < y->inst ? -1 : x->inst > y->inst;
}

void pg_capture_set_build(pg_capture_set *s, LLVMModuleRef m) {
  memset(s, 0, sizeof *s);
  unsigned n = pg_count_definitions(m);
  s->fns = calloc(n ? n : 1, sizeof *s->fns);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      s->fns[s->nfns++].fn = f;
  summarise(s);
  for (unsigned k = 0; k < s->nfns; ++k)
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fns[k].fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (begins(s, i))
          walk(s, after(i), i);
  mark_callees(s);
  /* stable enough: duplicates keep some begin, any of which is a true one */
  qsort(s->insts, s->n, sizeof *s->insts, by_inst);
}

void pg_capture_set_free(pg_capture_set *s) {
  free(s->insts);
  free(s->fns);
  memset(s, 0, sizeof *s);
}

LLVMValueRef pg_capture_begun_at(const pg_capture_set *s, LLVMValueRef inst) {
  pg_captured key = {inst, NULL};
  const pg_captured *hit = s->n ? bsearch(&key, s->insts, s->n, sizeof *s->insts, by_inst) : NULL;
  return hit ? hit->begin : NULL;
}
