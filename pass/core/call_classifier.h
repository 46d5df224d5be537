/* call_classifier.h - what one host instruction means for graph regions. */
#ifndef PYGRAPH_CALL_CLASSIFIER_H
#define PYGRAPH_CALL_CLASSIFIER_H

#include "cuda_api_table.h"
#include "kernel_registry.h"
#include "own_capture.h"
#include "string_pool.h"
#include "wait_loops.h"

#include <llvm-c/Core.h>

typedef enum pg_call_kind {
  PG_CALL_HARMLESS,         /* not a call (nor a wait), or a call that cannot touch the device */
  PG_CALL_LAUNCH,           /* a launch site (<<<>>> stub call or launch API) */
  PG_CALL_STUB_INTERNAL,    /* the launch API call inside a -O0 stub body */
  PG_CALL_ROUTED_OP,        /* a stream operation the runtime defers */
  PG_CALL_LAUNCHING_CALLEE, /* a module function that launches and never syncs */
  PG_CALL_BARRIER           /* may synchronize or observe the device: ends a region */
} pg_call_kind;

typedef struct pg_function_summary {
  LLVMValueRef fn;
  int may_sync;             /* some path calls a barrier */
  unsigned launches;        /* launch sites inside, callees included (capped) */
  int loop_launches;        /* some launch repeats in a loop (here or below) */
  const char *why;          /* first barrier: "cudaMemcpy at x.cu:12 synchronizes" */
} pg_function_summary;

typedef struct pg_classifier {
  const pg_kernel_registry *registry;
  pg_wait_set waits;        /* host waits on device-written memory: barriers */
  pg_capture_set captures;  /* code inside the program's own stream capture */
  pg_function_summary *summaries;
  unsigned n_summaries;
  pg_string_pool *texts;    /* owns every why above, whatever its length */
} pg_classifier;

typedef struct pg_call_info {
  pg_call_kind kind;
  const pg_api_entry *api;  /* when the callee is in the CUDA table */
  LLVMValueRef callee;      /* direct callee, if any */
  const pg_kernel *kernel;  /* for launches of known kernels */
  const char *why;          /* for barriers: the reason, with location; "" else */
} pg_call_info;

/* Builds summaries of every function defined in m (fixpoint over the call
 * graph, so launches and syncs several call levels down count). */
void pg_classifier_init(pg_classifier *c, LLVMModuleRef m, const pg_kernel_registry *r);
void pg_classifier_free(pg_classifier *c);
void pg_classify(const pg_classifier *c, LLVMValueRef inst, pg_call_info *out);
const pg_function_summary *pg_summary_of(const pg_classifier *c, LLVMValueRef fn);
int pg_is_stub(const pg_classifier *c, LLVMValueRef fn);
/* Barrier for a scope: outside loops, a callee that launches in loops is
 * one too, so that its own loop regions run rather than one huge run. */
int pg_is_scope_barrier(const pg_classifier *c, const pg_call_info *ci, int loop_scope);

#endif
