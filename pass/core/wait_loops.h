/* wait_loops.h - host code that waits on memory another agent may write:
 * a volatile or atomic read (or a call returning one) whose value decides
 * whether a loop around it exits.  A kernel deferred into a graph region
 * could never end such a wait, so each one is a barrier.  (That includes a
 * poll loop that launches as it polls: nested in a region, its launches
 * would be deferred too.) */
#ifndef PYGRAPH_WAIT_LOOPS_H
#define PYGRAPH_WAIT_LOOPS_H

#include <llvm-c/Core.h>

typedef struct pg_wait_set {
  LLVMValueRef *waits;      /* the deciding reads and calls, sorted */
  unsigned n, cap;
  LLVMValueRef *returners;  /* functions that return such a read's value */
  unsigned nret, capret;
} pg_wait_set;

/* Finds every wait in the module's defined functions (computes each
 * function's loops once, before any pass changes the CFG). */
void pg_wait_set_build(pg_wait_set *w, LLVMModuleRef m);
void pg_wait_set_free(pg_wait_set *w);
/* 1 when inst is a wait. */
int pg_wait_set_has(const pg_wait_set *w, LLVMValueRef inst);
/* What kind of read a wait that is no call is ("atomic load", ...), for
 * remarks (the classifier names a waiting call by its callee). */
const char *pg_wait_kind(LLVMValueRef inst);

#endif
