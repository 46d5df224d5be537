/* host_pass.c - pygraph on the host module: analyse launch sites, form
 * regions, instrument them, and say what happened in remarks. */
#include "pass_entry.h"
#include "call_classifier.h"
#include "device_pass.h"
#include "instrumenter.h"
#include "ir_util.h"
#include <llvm-c/DebugInfo.h>
#include "launch_sites.h"
#include "options.h"
#include "region_builder.h"
#include "twin_registration.h"
#include "../shim/pygraph_shim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct host_ctx {
  LLVMModuleRef m;
  pg_kernel_registry reg;
  pg_classifier cls;
  pg_site_table sites;
  pg_function_plan *plans;
  LLVMValueRef *plan_fns;
  unsigned nplans;
  int remark_passed, remark_missed, remark_analysis;
} host_ctx;

static int is_candidate(host_ctx *h, LLVMValueRef f) {
  if (LLVMIsDeclaration(f) || pg_is_stub(&h->cls, f))
    return 0;
  const pg_function_summary *s = pg_summary_of(&h->cls, f);
  return s && s->launches > 0;
}

/* -Rpass-analysis: every launch site, and every classified synchronizing
 * CUDA call inside a loop. */
static void analysis_remarks(host_ctx *h) {
  int warned_no_debug = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(h->m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || pg_is_stub(&h->cls, f))
      continue;
    pg_loop_info *li = pg_loops_compute(f);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        pg_call_info ci;
        pg_classify(&h->cls, i, &ci);
        if (ci.kind == PG_CALL_LAUNCH) {
          char *msg = pg_describe_launch(&ci, i);
          pg_remark(PG_REMARK_ANALYSIS, "LaunchSite", i, msg);
          free(msg);
          if (!LLVMInstructionGetDebugLoc(i) && !warned_no_debug) {
            warned_no_debug = 1;
            pg_remark(PG_REMARK_ANALYSIS, "NoDebugInfo", f,
                      "no debug locations: compile with -g or -gline-tables-only to get "
                      "file:line in pygraph remarks");
          }
        } else if (ci.kind == PG_CALL_BARRIER && ci.api &&
                   (ci.api->cls == PG_API_SYNC || ci.api->cls == PG_API_UNCAPTURABLE ||
                    ci.api->cls == PG_API_OWN_CAPTURE) &&
                   pg_loop_for_block(li, bb)) {
          char *msg = pg_strf("%s inside a loop %s (%s)", ci.api->name, ci.api->why,
                              pg_api_class_name(ci.api->cls));
          pg_remark(PG_REMARK_ANALYSIS, "SyncInLoop", i, msg);
          free(msg);
        }
      }
    pg_loops_free(li);
  }
}

static void plan_all(host_ctx *h) {
  unsigned n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(h->m); f; f = LLVMGetNextFunction(f))
    n += is_candidate(h, f);
  h->plans = calloc(n ? n : 1, sizeof *h->plans);
  h->plan_fns = calloc(n ? n : 1, sizeof *h->plan_fns);
  for (LLVMValueRef f = LLVMGetFirstFunction(h->m); f; f = LLVMGetNextFunction(f))
    if (is_candidate(h, f)) {
      h->plan_fns[h->nplans] = f;
      pg_plan_function(&h->cls, f, &h->sites, &h->plans[h->nplans++]);
    }
}

/* Launches inside launching callees called from a region run in that
 * region, whatever their own function decided. */
static void cover_callees(host_ctx *h) {
  for (unsigned k = 0; k < h->sites.ncallees; ++k) {
    LLVMValueRef f = h->sites.region_callees[k];
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        pg_call_info ci;
        pg_classify(&h->cls, i, &ci);
        if (ci.kind == PG_CALL_LAUNCH) {
          pg_site_find(&h->sites, i)->covered = 1;
        } else if (ci.kind == PG_CALL_LAUNCHING_CALLEE) {
          int known = 0;
          for (unsigned j = 0; j < h->sites.ncallees; ++j)
            known |= h->sites.region_callees[j] == ci.callee;
          if (!known) {
            if (h->sites.ncallees == h->sites.capcallees) {
              h->sites.capcallees = 2 * h->sites.capcallees + 8;
              h->sites.region_callees = realloc(h->sites.region_callees,
                                                h->sites.capcallees * sizeof(LLVMValueRef));
            }
            h->sites.region_callees[h->sites.ncallees++] = ci.callee;
          }
        }
      }
  }
}

static void region_remarks(host_ctx *h) {
  const char *verb = pg_opts()->analyze_only ? "would form" : "formed";
  for (unsigned p = 0; p < h->nplans; ++p) {
    size_t len;
    char *fname = pg_demangle(LLVMGetValueName2(h->plan_fns[p], &len));
    for (unsigned k = 0; k < h->plans[p].nscopes; ++k) {
      pg_scope *s = &h->plans[p].scopes[k];
      for (unsigned i = 0; i < s->nsegs; ++i) {
        pg_segment *seg = &s->segs[i];
        if (seg->index < 0)
          continue;
        char where[64] = ""; /* two unsigned numbers fit */
        if (s->loop && s->line_begin)
          snprintf(where, sizeof where, " (lines %u-%u)", s->line_begin, s->line_end);
        char *msg = pg_strf("%s graph region in '%s': %s%s, segment %d of %u, %u launch site%s",
                            verb, fname, s->loop ? "loop iteration" : "straight-line run", where,
                            seg->index, s->n_instrumented, seg->weight, seg->weight == 1 ? "" : "s");
        pg_remark(PG_REMARK_PASSED, "Region", seg->first_launch ? seg->first_launch
                                                                : seg->begin_before, msg);
        free(msg);
      }
    }
    free(fname);
  }
  for (unsigned i = 0; i < h->sites.n; ++i) {
    pg_site_rec *r = &h->sites.recs[i];
    if (r->covered)
      continue;
    pg_call_info ci;
    pg_classify(&h->cls, r->call, &ci);
    char *msg = pg_strf("launch of '%s' stays eager: %s", pg_launch_kernel_name(&ci),
                        r->why ? r->why : "not inside any region");
    pg_remark(PG_REMARK_MISSED, "Eager", r->call, msg);
    free(msg);
  }
}

static int instrument_all(host_ctx *h) {
  int any = 0;
  for (unsigned p = 0; p < h->nplans; ++p) {
    size_t len;
    char *fname = pg_demangle(LLVMGetValueName2(h->plan_fns[p], &len));
    for (unsigned k = 0; k < h->plans[p].nscopes; ++k)
      any |= h->plans[p].scopes[k].n_instrumented > 0;
    pg_instrument_function(h->m, &h->plans[p], fname);
    free(fname);
  }
  if (any) {
    /* Twins of the kernels launched inside regions; registered before the
     * rerouting so that each site descriptor can name its twin. */
    LLVMValueRef *stubs = calloc(h->sites.n + 1, sizeof *stubs);
    unsigned n = 0;
    for (unsigned i = 0; i < h->sites.n; ++i) {
      if (!h->sites.recs[i].covered)
        continue;
      pg_call_info ci;
      pg_classify(&h->cls, h->sites.recs[i].call, &ci);
      if (ci.kernel)
        stubs[n++] = ci.kernel->stub;
    }
    pg_register_twins(h->m, stubs, n, NULL);
    free(stubs);
    pg_reroute_calls(h->m, &h->cls);
  }
  return any;
}

static int run_host(LLVMModuleRef m) {
  host_ctx h;
  memset(&h, 0, sizeof h);
  h.m = m;
  pg_registry_build(&h.reg, m);
  pg_classifier_init(&h.cls, m, &h.reg);
  if (pg_remark_enabled(m, PG_REMARK_ANALYSIS))
    analysis_remarks(&h);
  plan_all(&h);
  cover_callees(&h);
  region_remarks(&h);
  int changed = pg_opts()->analyze_only ? 0 : instrument_all(&h);
  for (unsigned p = 0; p < h.nplans; ++p)
    pg_plan_free(&h.plans[p]);
  free(h.plans);
  free(h.plan_fns);
  pg_site_table_free(&h.sites);
  pg_classifier_free(&h.cls);
  pg_registry_free(&h.reg);
  return changed;
}

int pg_run_module(LLVMModuleRef m) {
  if (pg_opts()->disable)
    return 0;
  if (pg_module_is_device(m))
    return pg_run_device(m);
  return run_host(m);
}
