/* wait_loops.h - host code that waits on memory another agent may write:
 * a volatile or atomic read (or a call returning one) whose value decides
 * whether a loop around it that launches nothing exits.  A kernel deferred
 * into a graph region could never end such a wait, so each one is a barrier.
 * (A loop that launches as it polls is no wait: its launches go out at the
 * latest when its region's iteration ends.) */
#ifndef PYGRAPH_WAIT_LOOPS_H
#define PYGRAPH_WAIT_LOOPS_H

#include <llvm-c/Core.h>

typedef struct pg_wait_set {
  LLVMValueRef *waits;      /* the deciding reads and calls */
  unsigned n, cap;
  LLVMValueRef *returners;  /* functions that return such a read's value */
  unsigned nret, capret;
} pg_wait_set;

/* Finds every wait in the module's defined functions (computes each
 * function's loops once, before any pass changes the CFG).  launches(ctx, i)
 * says whether instruction i launches a kernel, itself or through a callee. */
void pg_wait_set_build(pg_wait_set *w, LLVMModuleRef m,
                       int (*launches)(void *ctx, LLVMValueRef inst), void *ctx);
void pg_wait_set_free(pg_wait_set *w);
/* 1 when inst is a wait. */
int pg_wait_set_has(const pg_wait_set *w, LLVMValueRef inst);
/* What kind of read inst is ("atomic load", "call of a function returning a
 * volatile or atomic read", ...), for remarks. */
const char *pg_wait_kind(LLVMValueRef inst);

#endif
