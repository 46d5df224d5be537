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
  case PG_EAGER_TOO_FEW: {
    char *origin = segment_origin(c, why);
    /* A barrier is why there are segments at all; anything else kept a
     * loop without one from batching. */
    char *batch = why->batch.why > PG_BATCH_OK && why->batch.why != PG_BATCH_BARRIER
                      ? pg_batch_why_text(c, &why->batch)
                      : NULL;
    char *text = pg_strf("only %u launch site%s %s before the next barrier; a graph region "
                         "needs at least %d (min-launches)%s%s",
                         why->weight, why->weight == 1 ? "" : "s", origin,
                         pg_opts()->min_launches, batch ? "; loop not batchable: " : "",
                         batch ? batch : "");
    free(batch);
    free(origin);
    return text;
  }
  }
  return pg_strf("not inside any region");
}

void pg_sites_remark_eager(const pg_launch_sites *t, const pg_classifier *c) {
  for (unsigned i = 0; i < t->n; ++i) {
    const site_rec *r = &t->recs[i];
    if (r->covered)
      continue;
    char *why = eager_text(c, &r->eager);
    char *kernel = pg_launch_kernel_name(r->launch);
    char *msg = pg_strf("launch of '%s' stays eager: %s", kernel, why);
    pg_remark(PG_REMARK_MISSED, "Eager", r->launch->inst, msg);
    free(msg);
    free(kernel);
    free(why);
  }
}
