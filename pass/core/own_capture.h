/* own_capture.h - code that runs inside the program's own stream capture.
 *
 * Between cudaStreamBeginCapture and cudaStreamEndCapture the program is
 * building a graph of its own; a pygraph region there would allocate, record
 * or defer during that capture and break it.  An instruction is inside when
 * some begin reaches it without passing an end (calls of module functions
 * that may return with a capture open count as begins, calls that end one on
 * every path as ends), or when it lies in a function called from inside. */
#ifndef PYGRAPH_OWN_CAPTURE_H
#define PYGRAPH_OWN_CAPTURE_H

#include <llvm-c/Core.h>

typedef struct pg_captured {
  LLVMValueRef inst;
  LLVMValueRef begin;       /* the begin (or begin-like call) it follows */
} pg_captured;

typedef struct pg_capture_fn {
  LLVMValueRef fn;
  int opens;                /* may return with a capture it began still open */
  int closes;               /* ends a capture on every path to a return */
  int inside;               /* called from inside a capture: runs wholly inside */
} pg_capture_fn;

typedef struct pg_capture_set {
  pg_captured *insts;       /* sorted by inst */
  unsigned n, cap;
  pg_capture_fn *fns;
  unsigned nfns;
} pg_capture_set;

void pg_capture_set_build(pg_capture_set *s, LLVMModuleRef m);
void pg_capture_set_free(pg_capture_set *s);
/* The begin whose capture inst runs in, or NULL when it runs outside. */
LLVMValueRef pg_capture_begun_at(const pg_capture_set *s, LLVMValueRef inst);
/* 1 for calls of module functions that may open (or always close) a
 * capture: they are barriers in their callers. */
int pg_capture_call_opens(const pg_capture_set *s, LLVMValueRef callee);
int pg_capture_call_closes(const pg_capture_set *s, LLVMValueRef callee);

#endif
