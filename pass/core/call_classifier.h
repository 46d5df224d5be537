/* call_classifier.h - what one host instruction means for graph regions. */
#ifndef PYGRAPH_CALL_CLASSIFIER_H
#define PYGRAPH_CALL_CLASSIFIER_H

#include "cuda_api_table.h"
#include "kernel_registry.h"
#include "kernel_pointers.h"
#include "own_capture.h"
#include "sync_copies.h"
#include "throw_points.h"
#include "wait_loops.h"

#include <llvm-c/Core.h>

typedef enum pg_call_kind {
  PG_CALL_HARMLESS,         /* not a call (nor a wait), or a call that cannot touch the device */
  PG_CALL_LAUNCH,           /* a launch site (<<<>>> stub call or launch API) */
  PG_CALL_STUB_INTERNAL,    /* the launch API call inside a -O0 stub body */
  PG_CALL_ROUTED_OP,        /* a stream operation the runtime defers (a library call the
                               runtime records too) */
  PG_CALL_LAUNCHING_CALLEE, /* a module function that launches and never syncs */
  PG_CALL_EXTERNAL_CHECKED, /* an external function that may be pygraph-compiled code in
                               another file, or a module function whose only barriers are
                               such calls: the region goes on through it, and the runtime
                               splits it where the code called is not pygraph code
                               (external_calls.h); why says PG_WHY_UNKNOWN_EXTERNAL or
                               PG_WHY_CALLEE_MAY_SYNC */
  PG_CALL_BARRIER           /* may synchronize or observe the device: ends a region */
} pg_call_kind;

/* Why a barrier is one.  Kept as a kind, not as text: the text (with its
 * location and demangled names) is only formatted for a remark that is
 * actually printed (pg_call_why). */
typedef enum pg_barrier_reason {
  PG_WHY_NONE,              /* not a barrier */
  PG_WHY_WAIT_LOAD,         /* a volatile/atomic read deciding a loop exit */
  PG_WHY_WAIT_CALL,         /* the same, through a call */
  PG_WHY_INLINE_ASM,
  PG_WHY_INDIRECT_CALL,
  PG_WHY_KERNEL_POINTER,    /* <<<>>> through a kernel pointer (kernel_pointers.h): checked
                               at run time with across-files on, a barrier without */
  PG_WHY_API_NOT_ROUTED,    /* a stream operation the runtime does not defer yet */
  PG_WHY_API_HOST_COPY,     /* cudaMemcpyAsync from or to host memory */
  PG_WHY_API_SYNC_COPY,     /* a synchronous cudaMemcpy / cudaMemcpyToSymbol the runtime
                               does not defer (sync_copies.h, pg_sync_copy_detail) */
  PG_WHY_API_CLASS,         /* synchronizing, uncapturable, own capture: the table's why */
  PG_WHY_FREE_HOST_VISIBLE, /* cudaFree in a file that makes host memory kernels can write */
  PG_WHY_OPENS_CAPTURE,     /* a callee that may begin the program's own capture */
  PG_WHY_CLOSES_CAPTURE,    /* a callee that ends it */
  PG_WHY_CALLEE_MAY_SYNC,   /* a module function that may synchronize */
  PG_WHY_UNKNOWN_CUDA,      /* a cuda* / cu* symbol missing from the API table */
  PG_WHY_LIBRARY_CALL,      /* a call of a library pygraph knows that it does not record
                               (library_api_table.h: cuBLAS handle management, ...) */
  PG_WHY_UNKNOWN_EXTERNAL   /* any other external function */
} pg_barrier_reason;

typedef struct pg_call_info {
  LLVMValueRef inst;
  pg_call_kind kind;
  pg_barrier_reason why;    /* for barriers; PG_WHY_NONE else */
  const pg_api_entry *api;  /* when the callee is in the CUDA table */
  LLVMValueRef callee;      /* direct callee, if any */
  const pg_kernel *kernel;  /* for launches of known kernels */
} pg_call_info;

typedef struct pg_function_summary {
  LLVMValueRef fn;
  int may_sync;             /* some path calls a barrier */
  int checked_only;         /* may_sync only through external calls the runtime checks
                               (PG_CALL_EXTERNAL_CHECKED, here or in callees): a call of
                               the function is checked like them */
  unsigned launches;        /* launch sites inside, callees included (capped) */
  int loop_launches;        /* some launch repeats in a loop (here or below) */
  pg_call_info cause;       /* first barrier, its root cause ("cudaMemcpy at x.cu:12") */
} pg_function_summary;

typedef struct pg_classifier {
  const pg_kernel_registry *registry;
  pg_wait_set waits;        /* host waits on device-written memory: barriers */
  pg_throw_paths throws;    /* code that runs only once a throw began: harmless */
  pg_pointer_launches pointer_launches; /* <<<>>> through kernel pointers: checked */
  pg_capture_set captures;  /* code inside the program's own stream capture */
  pg_function_summary *summaries;
  unsigned n_summaries;
  /* A call the module makes that gives kernels host memory to write
   * (cudaMallocHost, cudaHostAlloc, cudaMallocManaged, cudaHostRegister,
   * a __managed__ variable): the host may then read device results that
   * only cudaFree's synchronization, or a host-to-device copy's wait for
   * its stream, waited for.  NULL when none. */
  const char *host_visible_memory;
} pg_classifier;

/* 1 when ci calls a module function whose launches run inside the calling
 * region: a launching callee, or a checked one that launches (its checked
 * calls split the region only where they reach code built without pygraph). */
int pg_runs_in_caller_region(const pg_classifier *c, const pg_call_info *ci);

/* Builds summaries of every function defined in m (fixpoint over the call
 * graph, so launches and syncs several call levels down count). */
void pg_classifier_init(pg_classifier *c, LLVMModuleRef m, const pg_kernel_registry *r);
void pg_classifier_free(pg_classifier *c);
/* What inst means; formats nothing.  Consumers outside the classifier read
 * the call map (call_map.h), which calls this once per instruction. */
void pg_classify(const pg_classifier *c, LLVMValueRef inst, pg_call_info *out);
/* Why ci is a barrier, with its location: "cudaMemcpy synchronizes at
 * x.cu:12"; an external call names the allow= option that would lift it;
 * "" when it is none.  malloc'd: for remarks only. */
char *pg_call_why(const pg_classifier *c, const pg_call_info *ci);
/* Why a synchronous cudaMemcpy / cudaMemcpyToSymbol stays a barrier
 * (sync_copies.h: "a device-to-host copy", "its kind is not a constant");
 * NULL for any other call, and for a copy the runtime defers.  malloc'd. */
char *pg_sync_copy_detail(const pg_classifier *c, const pg_call_info *ci);
const pg_function_summary *pg_summary_of(const pg_classifier *c, LLVMValueRef fn);
int pg_is_stub(const pg_classifier *c, LLVMValueRef fn);
/* Barrier for a scope: outside loops, a callee that launches in loops is
 * one too, so that its own loop regions run rather than one huge run. */
int pg_is_scope_barrier(const pg_classifier *c, const pg_call_info *ci, int loop_scope);

#endif
