/* launch_sites.h - the module's launch sites: which ones run inside a graph
 * region, why the others stay eager, and the launching callees and kernel
 * stubs the regions reach.
 *
 * The only writer of that state: the region builder and the host pass
 * report into it (cover, keep eager, region callee); the host pass reads it
 * back for remarks and for the kernels that need indirect twins.
 */
#ifndef PYGRAPH_LAUNCH_SITES_H
#define PYGRAPH_LAUNCH_SITES_H

#include "batchable.h"
#include "call_classifier.h"

typedef enum pg_eager_kind {
  PG_EAGER_NO_REGION,         /* no region reached it */
  PG_EAGER_OWN_CAPTURE,       /* inside the program's own stream capture */
  PG_EAGER_STRAIGHT_LINE_OFF, /* outside loops, with straight-line=0 */
  PG_EAGER_TOO_FEW            /* its segment has fewer than min-launches sites */
} pg_eager_kind;

/* Why a launch stays eager; rendered only for -Rpass-missed. */
typedef struct pg_eager_reason {
  pg_eager_kind kind;
  LLVMValueRef capture;       /* OWN_CAPTURE: where the program's capture begins */
  unsigned weight;            /* TOO_FEW: launch sites of the segment */
  const pg_call_info *after;  /* TOO_FEW: barrier the segment starts after, or NULL */
  const pg_call_info *before; /* TOO_FEW: first barrier it runs into, or NULL */
  int in_loop;                /* TOO_FEW: the segment is part of a loop iteration */
  pg_batch_verdict batch;     /* TOO_FEW in a loop: why the loop is not batchable */
} pg_eager_reason;

typedef struct pg_launch_sites pg_launch_sites;

pg_launch_sites *pg_sites_new(void);
void pg_sites_free(pg_launch_sites *t);

/* launch (a PG_CALL_LAUNCH of the call map) runs inside a region. */
void pg_sites_cover(pg_launch_sites *t, const pg_call_info *launch);
/* A region left launch eager: the first reason is kept, except that the
 * program's own capture overrides any. */
void pg_sites_keep_eager(pg_launch_sites *t, const pg_call_info *launch,
                         const pg_eager_reason *why);
/* fn, a launching callee, is called inside a region (kept once). */
void pg_sites_add_region_callee(pg_launch_sites *t, LLVMValueRef fn);
unsigned pg_sites_num_region_callees(const pg_launch_sites *t);
LLVMValueRef pg_sites_region_callee(const pg_launch_sites *t, unsigned i);

/* Stubs of the known kernels of covered sites, in site order (malloc'd). */
LLVMValueRef *pg_sites_launched_stubs(const pg_launch_sites *t, unsigned *n);
/* -Rpass-missed: "launch of 'k' stays eager: <why> [<keyword>]" for every
 * uncovered site; the keyword (pg_eager_keyword) names the reason's kind. */
void pg_sites_remark_eager(const pg_launch_sites *t, const pg_classifier *c);
/* Why's kind in a word: own-capture, straight-line=0, no-region; for too
 * few launch sites, the kind of barrier before the segment (else after it):
 * cuda-sync, cuda-uncapturable, cuda-not-deferred, host-copy, host-wait,
 * external-call, unknown-cuda, capture-call, indirect-call, inline-asm;
 * without one, not-batchable (a loop that cannot batch) or alone. */
const char *pg_eager_keyword(const pg_classifier *c, const pg_eager_reason *why);

#endif
