/* region_builder.h - form graph regions in one host function.
 *
 * A scope is either an outermost loop that launches kernels (one region per
 * iteration) or the part of the function outside such loops (straight-line
 * runs).  Barriers (calls that may synchronize or observe the device) split
 * a scope into segments; a segment with enough launch sites becomes one
 * runtime region segment.  A loop without barriers whose iterations may
 * run late (batchable.h) is one segment that needs one launch site.  The
 * plan records where begin/end calls go; the instrumenter applies it.
 */
#ifndef PYGRAPH_REGION_BUILDER_H
#define PYGRAPH_REGION_BUILDER_H

#include "batchable.h"
#include "call_map.h"
#include "launch_sites.h"
#include "../shim/pygraph_shim.h"

typedef struct pg_segment {
  LLVMValueRef begin_before; /* begin(r, index) goes right before this */
  LLVMValueRef after;        /* barrier that starts it; NULL at scope entry */
  pg_loop *after_loop;       /* function scope: the region loop it starts after, or NULL */
  LLVMValueRef before;       /* first barrier the segment runs into, NULL if none */
  unsigned weight;           /* launch sites and library calls reached; repeated ones
                                count twice */
  unsigned sites;            /* launch sites reached, each once (a callee's: its own) */
  unsigned library_calls;    /* library calls the runtime records reached, each once: each
                                launches work too, so they count in the weight */
  LLVMValueRef first_launch; /* for remarks */
  int index;                 /* runtime segment number, -1 if left eager */
} pg_segment;

/* A checked external call (PG_CALL_EXTERNAL_CHECKED) inside an
 * instrumented segment, and the segment reserved for the rest of the
 * iteration when the runtime splits there (external_calls.h). */
typedef struct pg_soft_split {
  LLVMValueRef call;
  int index;
} pg_soft_split;

typedef struct pg_scope {
  LLVMValueRef fn;
  pg_loop *loop;             /* NULL: the function outside region loops */
  pg_segment *segs;
  unsigned nsegs, capsegs;
  LLVMValueRef *ends;        /* end(r) goes right before each of these */
  unsigned nends, capends;
  LLVMValueRef *entry_ends;  /* at the top of loop exit blocks: end(r), exit(r) if batchable */
  unsigned nentry_ends, capentry_ends;
  pg_soft_split *softs;      /* reserved segments, counted in n_instrumented */
  unsigned nsofts, capsofts;
  unsigned n_instrumented;
  unsigned line_begin, line_end;
  unsigned trip_count;       /* constant trip count of the loop, 0 if unknown */
  pg_batch_verdict batch;    /* loops with batch=N > 0: batch.ok makes it PYGRAPH_REGION_BATCH */
  struct pg_whole_loop *whole_loops; /* its loops judged as whole-loop graphs (convergence_loops.h) */
} pg_scope;

typedef struct pg_function_plan {
  pg_loop_info *loops;
  pg_scope *scopes;
  unsigned nscopes;
} pg_function_plan;

/* Plans fn and tells sites which of its launch sites the plan covers and
 * why the others stay eager.  Loops that become regions are put in
 * simplified form; memo keeps the verdicts on callees of batchable loops. */
void pg_plan_function(const pg_call_map *calls, LLVMValueRef fn, pg_launch_sites *sites,
                      pg_batch_memo *memo, pg_function_plan *plan);
void pg_plan_free(pg_function_plan *plan);

#endif
