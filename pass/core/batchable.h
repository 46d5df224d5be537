/* batchable.h - may a loop region run several iterations per graph?
 *
 * For a batchable loop (PYGRAPH_REGION_BATCH) the runtime keeps recording
 * past the end of an iteration and launches K of them as one graph, so an
 * iteration's launches may run only after later iterations' host code.
 * That is safe when nothing in the loop, callees included, needs the device
 * to have run or feeds it through memory:
 *   - no scope barrier (the loop is one segment);
 *   - every store, atomic update, memset/memcpy/memmove goes to a private
 *     stack slot: an alloca whose address reaches no one but CUDA calls
 *     done with it when they return (launches, which copy their arguments,
 *     the <<<>>> configuration, synchronous calls, cudaMalloc(&p)) and the
 *     dim3 constructor;
 *   - no volatile or atomic load of memory others may write (host polling);
 *   - every call is CUDA (a launch, a routed stream operation, a harmless
 *     API call), an intrinsic, a harmless external (harmless_externals.c)
 *     or one that only reads memory (LLVM's attributes), or a module
 *     function whose body follows the same rules and calls nothing
 *     recursively;
 *   - no call that may unwind, unless it is an invoke: an exception leaving
 *     the function would skip the flush at the loop's exits.
 * The verdict is formatted only for a remark that is printed.
 */
#ifndef PYGRAPH_BATCHABLE_H
#define PYGRAPH_BATCHABLE_H

#include "call_map.h"
#include "../shim/pygraph_shim.h"

typedef enum pg_batch_why {
  PG_BATCH_NOT_JUDGED = 0, /* batch=0, or no loop */
  PG_BATCH_OK,
  PG_BATCH_BARRIER,        /* a scope barrier in the loop (`barrier`) */
  PG_BATCH_WRITE,          /* `at` writes memory that is not a private stack slot */
  PG_BATCH_SHARED_LOAD,    /* `at` is a volatile or atomic load of shared memory */
  PG_BATCH_CALLEE,         /* `at` calls `callee`, which is not batch-safe: `inner` */
  PG_BATCH_MAY_THROW,      /* `at`, a call of `callee`, may unwind out of the loop */
  PG_BATCH_DEVICE_CHANGE,  /* `at` changes the current device (cudaSetDevice): each device's
                              ops are a state of their own, one iteration at a time */
  PG_BATCH_RECURSIVE,      /* inner only: the callee is part of a call cycle */
  PG_BATCH_UNKNOWN_EFFECT  /* inner only: a declaration that may write memory */
} pg_batch_why;

typedef struct pg_batch_verdict {
  int ok;                          /* batchable */
  pg_batch_why why;
  LLVMValueRef at;                 /* the offending instruction of the loop */
  const pg_call_info *barrier;     /* BARRIER: its entry in the call map */
  LLVMValueRef callee;             /* CALLEE, MAY_THROW: the function `at` calls */
  pg_batch_why inner;              /* CALLEE: why that function is not batch-safe */
  LLVMValueRef inner_at;           /* CALLEE: where (in it, or in a function it calls) */
} pg_batch_verdict;

/* Verdicts on module functions, kept across the loops of a module. */
typedef struct pg_batch_memo pg_batch_memo;

pg_batch_memo *pg_batch_memo_new(const pg_call_map *calls);
void pg_batch_memo_free(pg_batch_memo *memo);
/* Judges loop l (every block, subloops included) and fills out. */
void pg_batch_judge(pg_batch_memo *memo, pg_loop *l, pg_batch_verdict *out);
/* Judges one instruction that is no scope barrier by the rules above (a
 * whole-loop graph, convergence_loops.h, holds a loop to them too, its
 * barriers aside): 1 and out filled when it keeps a loop from batching. */
int pg_batch_judge_effect(pg_batch_memo *memo, LLVMValueRef inst, pg_batch_verdict *out);
/* 1 when ptr points into a private stack slot (the rules above). */
int pg_batch_is_private(LLVMValueRef ptr);
/* "store to 'g'", "memset through a pointer", ... of a write v->at holds
 * for PG_BATCH_WRITE; malloc'd. */
char *pg_batch_write_text(LLVMValueRef inst);
/* Why v is not batchable ("stores to memory a kernel may read (store to
 * 'g')"); malloc'd, for remarks only. */
char *pg_batch_why_text(const pg_classifier *c, const pg_batch_verdict *v);

#endif
