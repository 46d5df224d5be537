/* launch_sites.c - the launch-site table and the callees regions reach. */
#include "launch_sites.h"
#include "ir_util.h"
#include "launch_describe.h"
#include "options.h"
#include "../shim/pygraph_shim.h"

#include <stdlib.h>
#include <string.h>

typedef struct site_rec {
  const pg_call_info *launch;
  int covered;
  pg_eager_reason eager;      /* meaningful when not covered */
} site_rec;

struct pg_launch_sites {
  site_rec *recs;             /* in the order the region builder first reached them */
  unsigned n, cap;
  LLVMValueRef *region_callees;
  unsigned ncallees, capcallees;
};

pg_launch_sites *pg_sites_new(void) {
  pg_launch_sites *t = calloc(1, sizeof *t);
  if (!t)
    pg_out_of_memory();
  return t;
}

void pg_sites_free(pg_launch_sites *t) {
  if (!t)
    return;
  free(t->recs);
  free(t->region_callees);
  free(t);
}

static site_rec *find_or_add(pg_launch_sites *t, const pg_call_info *launch) {
  for (unsigned i = 0; i < t->n; ++i)
    if (t->recs[i].launch == launch)
      return &t->recs[i];
  site_rec r;
  memset(&r, 0, sizeof r);
  r.launch = launch;
  r.eager.kind = PG_EAGER_NO_REGION;
  PG_PUSH(t->recs, t->n, t->cap, r);
  return &t->recs[t->n - 1];
}

void pg_sites_cover(pg_launch_sites *t, const pg_call_info *launch) {
  find_or_add(t, launch)->covered = 1;
}

void pg_sites_keep_eager(pg_launch_sites *t, const pg_call_info *launch,
                         const pg_eager_reason *why) {
  site_rec *r = find_or_add(t, launch);
  if (why->kind == PG_EAGER_OWN_CAPTURE || r->eager.kind == PG_EAGER_NO_REGION)
    r->eager = *why;
}

void pg_sites_add_region_callee(pg_launch_sites *t, LLVMValueRef fn) {
  for (unsigned i = 0; i < t->ncallees; ++i)
    if (t->region_callees[i] == fn)
      return;
  PG_PUSH(t->region_callees, t->ncallees, t->capcallees, fn);
}

unsigned pg_sites_num_region_callees(const pg_launch_sites *t) { return t->ncallees; }

LLVMValueRef pg_sites_region_callee(const pg_launch_sites *t, unsigned i) {
  return t->region_callees[i];
}

LLVMValueRef *pg_sites_launched_stubs(const pg_launch_sites *t, unsigned *n) {
  LLVMValueRef *stubs = calloc(t->n + 1, sizeof *stubs);
  if (!stubs)
    pg_out_of_memory();
  *n = 0;
  for (unsigned i = 0; i < t->n; ++i)
    if (t->recs[i].covered && t->recs[i].launch->kernel)
      stubs[(*n)++] = t->recs[i].launch->kernel->stub;
  return stubs;
}

/* "after cudaMemcpy synchronizes at x.cu:9", "outside loops", ... */
static char *segment_origin(const pg_classifier *c, const pg_eager_reason *why) {
  if (!why->after)
    return pg_strf("%s", why->in_loop ? "at the start of the loop iteration" : "outside loops");
  char *barrier = pg_call_why(c, why->after);
  char *origin = pg_strf("after %s", barrier[0] ? barrier : "a barrier");
  free(barrier);
  return origin;
}

/* " (cudaMemcpy synchronizes at x.cu:12)": the barrier a segment runs
 * into, "" when it runs into none. */
static char *next_barrier(const pg_classifier *c, const pg_eager_reason *why) {
  if (!why->before)
    return pg_strf("%s", "");
  char *barrier = pg_call_why(c, why->before);
  char *text = pg_strf(" (%s)", barrier);
  free(barrier);
  return text;
}

static char *too_few_text(const pg_classifier *c, const pg_eager_reason *why) {
  char *origin = segment_origin(c, why);
  char *next = next_barrier(c, why);
  /* A barrier is why there are segments at all; anything else kept a
   * loop without one from batching. */
  char *batch = why->batch.why > PG_BATCH_OK && why->batch.why != PG_BATCH_BARRIER
                    ? pg_batch_why_text(c, &why->batch)
                    : NULL;
  char *text = pg_strf("only %u launch site%s %s before the next barrier%s; a graph region "
                       "needs at least %d (min-launches)%s%s",
                       why->weight, why->weight == 1 ? "" : "s", origin, next,
                       pg_opts()->min_launches, batch ? "; loop not batchable: " : "",
                       batch ? batch : "");
  free(batch);
  free(next);
  free(origin);
  return text;
}

/* malloc'd */
static char *eager_text(const pg_classifier *c, const pg_eager_reason *why) {
  switch (why->kind) {
  case PG_EAGER_NO_REGION:
    break;
  case PG_EAGER_OWN_CAPTURE: {
    char *loc = pg_loc_dup(why->capture);
    char *text = pg_strf("inside the program's own stream capture (begun at %s)", loc);
    free(loc);
    return text;
  }
  case PG_EAGER_STRAIGHT_LINE_OFF:
    return pg_strf("launch outside loops stays eager (straight-line=0)");
  case PG_EAGER_TOO_FEW:
    return too_few_text(c, why);
  }
  return pg_strf("not inside any region");
}

/* The kind of barrier ci is, by its root cause (a module function that
 * may synchronize: what it calls). */
static const char *barrier_keyword(const pg_classifier *c, const pg_call_info *ci) {
  for (unsigned hops = 0; ci->why == PG_WHY_CALLEE_MAY_SYNC && hops < 64; ++hops)
    ci = &pg_summary_of(c, ci->callee)->cause;
  switch (ci->why) {
  case PG_WHY_WAIT_LOAD:
  case PG_WHY_WAIT_CALL: return "host-wait";
  case PG_WHY_INLINE_ASM: return "inline-asm";
  case PG_WHY_INDIRECT_CALL: return "indirect-call";
  case PG_WHY_KERNEL_POINTER: return "kernel-pointer";
  case PG_WHY_API_NOT_ROUTED: return "cuda-not-deferred";
  case PG_WHY_API_HOST_COPY: return "host-copy";
  case PG_WHY_API_SYNC_COPY: return "cuda-sync";
  case PG_WHY_FREE_HOST_VISIBLE: return "cuda-sync";
  case PG_WHY_API_CLASS:
    return ci->api->cls == PG_API_OWN_CAPTURE   ? "capture-call"
           : ci->api->cls == PG_API_UNCAPTURABLE ? "cuda-uncapturable"
                                                 : "cuda-sync";
  case PG_WHY_OPENS_CAPTURE:
  case PG_WHY_CLOSES_CAPTURE: return "capture-call";
  case PG_WHY_UNKNOWN_CUDA: return "unknown-cuda";
  case PG_WHY_LIBRARY_CALL: return "library-call";
  case PG_WHY_UNKNOWN_EXTERNAL: return "external-call";
  case PG_WHY_NONE:
  case PG_WHY_CALLEE_MAY_SYNC: break;
  }
  return "barrier";
}

const char *pg_eager_keyword(const pg_classifier *c, const pg_eager_reason *why) {
  switch (why->kind) {
  case PG_EAGER_NO_REGION: return "no-region";
  case PG_EAGER_OWN_CAPTURE: return "own-capture";
  case PG_EAGER_STRAIGHT_LINE_OFF: return "straight-line=0";
  case PG_EAGER_TOO_FEW: break;
  }
  if (why->after)
    return barrier_keyword(c, why->after);
  if (why->before)
    return barrier_keyword(c, why->before);
  return why->in_loop && why->batch.why > PG_BATCH_OK ? "not-batchable" : "alone";
}

void pg_sites_remark_eager(const pg_launch_sites *t, const pg_classifier *c) {
  for (unsigned i = 0; i < t->n; ++i) {
    const site_rec *r = &t->recs[i];
    if (r->covered)
      continue;
    char *why = eager_text(c, &r->eager);
    char *kernel = pg_launch_kernel_name(r->launch);
    char *msg = pg_strf("launch of '%s' stays eager: %s [%s]", kernel, why,
                        pg_eager_keyword(c, &r->eager));
    pg_remark(PG_REMARK_MISSED, "Eager", r->launch->inst, msg);
    free(msg);
    free(kernel);
    free(why);
  }
}
