/* host_pass.c - pygraph on the host module: analyse launch sites, form
 * regions, instrument them, and say what happened in remarks. */
#include "pass_entry.h"
#include "batchable.h"
#include "call_classifier.h"
#include "call_map.h"
#include "external_calls.h"
#include "throw_points.h"
#include "own_copies.h"
#include "convergence_loops.h"
#include "whole_loop.h"
#include "device_pass.h"
#include "instrumenter.h"
#include "ir_util.h"
#include "launch_describe.h"
#include "launch_sites.h"
#include "library_api_table.h"
#include "options.h"
#include "region_builder.h"
#include "twin_registration.h"
#include "pygraph_abi.h"
#include "../shim/pygraph_shim.h"

#include <llvm-c/DebugInfo.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct host_ctx {
  LLVMModuleRef m;
  pg_kernel_registry reg;
  pg_classifier cls;
  pg_call_map calls;
  pg_launch_sites *sites;
  pg_batch_memo *batch;
  pg_function_plan *plans;
  LLVMValueRef *plan_fns;
  unsigned nplans;
} host_ctx;

static int is_candidate(host_ctx *h, LLVMValueRef f) {
  if (LLVMIsDeclaration(f) || pg_is_stub(&h->cls, f))
    return 0;
  const pg_function_summary *s = pg_summary_of(&h->cls, f);
  return s && s->launches > 0;
}

static int is_sync_like(const pg_api_entry *api) {
  return api && (api->cls == PG_API_SYNC || api->cls == PG_API_UNCAPTURABLE ||
                 api->cls == PG_API_OWN_CAPTURE);
}

/* "an" before a library's name said letter by letter from a vowel sound
 * ("an NCCL call"), else "a" ("a cuBLAS call"). */
static const char *indefinite_article(const char *noun) {
  return noun[0] == 'N' ? "an" : "a";
}

/* The -Rpass-analysis text of a library call inside a loop (cuBLAS, NCCL): one
 * the runtime records (PG_API_LIBRARY), or one it does not, a barrier;
 * NULL for any other call.  malloc'd. */
static char *library_in_loop_text(const pg_call_info *ci, const char **name) {
  size_t n;
  if (ci->kind == PG_CALL_ROUTED_OP && ci->api->cls == PG_API_LIBRARY) {
    *name = "LibraryRecorded";
    return pg_strf("%s inside a loop: %s %s recorded in a region as one graph node (a graph "
                   "captured from the library), not a barrier%s",
                   ci->api->name, indefinite_article(ci->api->why), ci->api->why,
                   pg_library_writes_result(ci->api->name)
                       ? "; in host pointer mode its result goes to host memory: a real "
                         "synchronization, which ends the region at run time"
                       : "");
  }
  if (ci->kind != PG_CALL_BARRIER || ci->why != PG_WHY_LIBRARY_CALL)
    return NULL;
  *name = "LibraryBarrier";
  return pg_strf("%s inside a loop: %s %s that pygraph does not record, a barrier",
                 LLVMGetValueName2(ci->callee, &n), indefinite_article(ci->api->why),
                 ci->api->why);
}

/* The -Rpass-analysis text of a CUDA call inside a loop that synchronizes,
 * that is synchronous in name but deferred (cuda_api_table.h,
 * PG_API_MAYBE_DEFERRED; a host-to-device copy with the bytes read at the
 * call, sync_copies.h), or an allocation the runtime's pool serves
 * (PG_API_POOLED); of a library call (library_in_loop_text); NULL for any
 * other call.  malloc'd. */
static char *sync_in_loop_text(const host_ctx *h, const pg_call_info *ci, const char **name) {
  char *library = library_in_loop_text(ci, name);
  if (library)
    return library;
  char *copy = ci->kind == PG_CALL_BARRIER ? pg_sync_copy_detail(&h->cls, ci) : NULL;
  *name = "SyncInLoop";
  if (copy) {
    char *text = pg_strf("%s inside a loop %s (%s)", ci->api->name, ci->api->why, copy);
    free(copy);
    return text;
  }
  if (ci->kind == PG_CALL_BARRIER && is_sync_like(ci->api))
    return pg_strf("%s inside a loop %s (%s)", ci->api->name, ci->api->why,
                   pg_api_class_name(ci->api->cls));
  if (ci->kind == PG_CALL_ROUTED_OP && ci->api->cls == PG_API_POOLED) {
    *name = "AllocPooled";
    return pg_strf("%s inside a loop: served from pygraph's allocation pool in a region (the "
                   "same block each iteration, no CUDA call)",
                   ci->api->name);
  }
  if (ci->kind == PG_CALL_ROUTED_OP && ci->api->cls == PG_API_FUNC_SETTING) {
    *name = "SettingInRegion";
    return pg_strf("%s inside a loop: made at once in a region (a launch of the kernel "
                   "deferred before it runs first when the setting changes)",
                   ci->api->name);
  }
  if (ci->kind == PG_CALL_ROUTED_OP && ci->api->cls == PG_API_DEVICE_SET) {
    *name = "DeviceInRegion";
    return pg_strf("%s inside a loop: made at once in a region (the launches after it are "
                   "recorded in a graph state of the device it sets)",
                   ci->api->name);
  }
  if (ci->kind != PG_CALL_ROUTED_OP || ci->api->cls != PG_API_MAYBE_DEFERRED)
    return NULL;
  *name = "SyncDeferred";
  if (pg_sync_copy_judge(ci->inst, ci->api, h->cls.host_visible_memory) == PG_COPY_SNAPSHOT)
    return pg_strf("%s inside a loop reads its host memory at the call: deferred in a region "
                   "with the bytes read then (at most %u), a barrier at run time when larger "
                   "or not from pageable host memory to device memory",
                   ci->api->name, PYGRAPH_HOST_BYTES_MAX);
  return pg_strf("%s inside a loop does not make the host wait on device memory: deferred in "
                 "a region, a barrier at run time when its memory is not device memory",
                 ci->api->name);
}

/* The launch-site remark, and once per module a hint when there is no
 * debug location to show. */
static void launch_site_remark(const pg_call_info *ci, LLVMValueRef f, int *warned_no_debug) {
  char *msg = pg_describe_launch(ci, ci->inst);
  pg_remark(PG_REMARK_ANALYSIS, "LaunchSite", ci->inst, msg);
  free(msg);
  if (!LLVMInstructionGetDebugLoc(ci->inst) && !*warned_no_debug) {
    *warned_no_debug = 1;
    pg_remark(PG_REMARK_ANALYSIS, "NoDebugInfo", f,
              "no debug locations: compile with -g or -gline-tables-only to get "
              "file:line in pygraph remarks");
  }
}

/* -Rpass-analysis: every launch site, every classified synchronizing CUDA
 * call inside a loop, and every synchronous one deferred there. */
static void analysis_remarks(host_ctx *h) {
  int warned_no_debug = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(h->m); f; f = LLVMGetNextFunction(f)) {
    unsigned n;
    const pg_call_info *calls = pg_calls_in(&h->calls, f, &n);
    if (!n || pg_is_stub(&h->cls, f))
      continue;
    pg_loop_info *li = pg_loops_compute(f);
    for (unsigned k = 0; k < n; ++k) {
      const pg_call_info *ci = &calls[k];
      const char *name;
      char *msg;
      if (ci->kind == PG_CALL_LAUNCH) {
        launch_site_remark(ci, f, &warned_no_debug);
      } else if ((msg = sync_in_loop_text(h, ci, &name)) != NULL) {
        if (pg_loop_for_block(li, LLVMGetInstructionParent(ci->inst)))
          pg_remark(PG_REMARK_ANALYSIS, name, ci->inst, msg);
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
      pg_plan_function(&h->calls, f, h->sites, h->batch, &h->plans[h->nplans++]);
    }
}

/* Launches inside launching callees called from a region run in that
 * region, whatever their own function decided (the list grows as callees
 * of callees are found). */
static void cover_callees(host_ctx *h) {
  for (unsigned k = 0; k < pg_sites_num_region_callees(h->sites); ++k) {
    unsigned n;
    const pg_call_info *calls = pg_calls_in(&h->calls, pg_sites_region_callee(h->sites, k), &n);
    for (unsigned i = 0; i < n; ++i)
      if (calls[i].kind == PG_CALL_LAUNCH)
        pg_sites_cover(h->sites, &calls[i]);
      else if (pg_runs_in_caller_region(&h->cls, &calls[i]))
        pg_sites_add_region_callee(h->sites, calls[i].callee);
  }
}

/* ", part 2 of 3 (after cudaMemcpy synchronizes at x.cu:12)": where a
 * scope split into several regions splits; "" for a scope of one region. */
static char *part_text(host_ctx *h, const pg_scope *s, const pg_segment *seg) {
  /* segments reserved for run-time splits (external_calls.h) are not parts */
  unsigned parts = s->n_instrumented - s->nsofts, part = 1;
  if (parts < 2)
    return pg_strf("%s", "");
  for (unsigned i = 0; i < s->nsegs; ++i)
    part += s->segs[i].index >= 0 && s->segs[i].index < seg->index;
  if (seg->after_loop) {
    unsigned first, last;
    pg_loop_lines(seg->after_loop, &first, &last);
    if (first)
      return pg_strf(", part %u of %u (after the loop at lines %u-%u)", part, parts, first,
                     last);
  }
  if (!seg->after)
    return pg_strf(", part %u of %u", part, parts);
  char *why = pg_call_why(&h->cls, pg_call_at(&h->calls, seg->after));
  char *text = pg_strf(", part %u of %u (after %s)", part, parts, why);
  free(why);
  return text;
}

/* -Rpass: one remark per region (segment), with its launch sites, and one
 * per batchable loop. */
static void region_remarks(host_ctx *h, unsigned p, const char *fname) {
  const char *verb = pg_opts()->analyze_only ? "would form" : "formed";
  for (unsigned k = 0; k < h->plans[p].nscopes; ++k) {
    pg_scope *s = &h->plans[p].scopes[k];
    char *where = s->loop && s->line_begin
                      ? pg_strf(" (lines %u-%u)", s->line_begin, s->line_end)
                      : pg_strf("%s", "");
    for (unsigned i = 0; i < s->nsegs; ++i) {
      pg_segment *seg = &s->segs[i];
      if (seg->index < 0)
        continue;
      LLVMValueRef at = seg->first_launch ? seg->first_launch : seg->begin_before;
      char *part = part_text(h, s, seg);
      char *library = seg->library_calls
                          ? pg_strf(", %u library call%s", seg->library_calls,
                                    seg->library_calls == 1 ? "" : "s")
                          : pg_strf("%s", "");
      char *msg = pg_strf("%s graph region in '%s': %s%s%s, %u launch site%s%s", verb, fname,
                          s->loop ? "loop iteration" : "straight-line run", where, part,
                          seg->sites, seg->sites == 1 ? "" : "s", library);
      free(library);
      pg_remark(PG_REMARK_PASSED, "Region", at, msg);
      free(msg);
      free(part);
      if (s->batch.ok) {
        msg = pg_strf("batchable loop%s: up to %d iterations per graph", where, pg_opts()->batch);
        pg_remark(PG_REMARK_PASSED, "Batchable", at, msg);
        free(msg);
      }
    }
    free(where);
  }
}

/* -Rpass-analysis: why each loop region is not batchable, at the
 * instruction that keeps it from batching. */
static void batch_remarks(host_ctx *h, unsigned p) {
  for (unsigned k = 0; k < h->plans[p].nscopes; ++k) {
    pg_scope *s = &h->plans[p].scopes[k];
    if (!s->loop || s->batch.why <= PG_BATCH_OK)
      continue;
    char *why = pg_batch_why_text(&h->cls, &s->batch);
    char *msg = s->line_begin ? pg_strf("loop (lines %u-%u) not batchable: %s", s->line_begin,
                                        s->line_end, why)
                              : pg_strf("loop not batchable: %s", why);
    pg_remark(PG_REMARK_ANALYSIS, "NotBatchable", s->batch.at, msg);
    free(msg);
    free(why);
  }
}

/* -Rpass-analysis: each external call a region goes on through, checked at
 * run time (external_calls.h). */
static void soft_call_remarks(host_ctx *h, unsigned p) {
  for (unsigned k = 0; k < h->plans[p].nscopes; ++k) {
    const pg_scope *s = &h->plans[p].scopes[k];
    for (unsigned i = 0; i < s->nsofts; ++i) {
      size_t len;
      LLVMValueRef callee = pg_called_function(s->softs[i].call);
      if (!callee) { /* a launch through a kernel pointer (kernel_pointers.h) */
        pg_remark(PG_REMARK_ANALYSIS, "ExternalChecked", s->softs[i].call,
                  "launch through a kernel pointer stays inside the region: the runtime splits "
                  "the region there unless the pointer is one of this file's kernels");
        continue;
      }
      char *name = pg_demangle(LLVMGetValueName2(callee, &len));
      char *msg = LLVMIsDeclaration(callee)
                      ? pg_strf("call of '%s' stays inside the region: if no file compiled "
                                "with pygraph defines it, the runtime splits the region there",
                                name)
                      : pg_strf("call of '%s' stays inside the region: the runtime splits the "
                                "region inside it where an external function it calls is not "
                                "pygraph code",
                                name);
      pg_remark(PG_REMARK_ANALYSIS, "ExternalChecked", s->softs[i].call, msg);
      free(msg);
      free(name);
    }
  }
}

static void plan_remarks(host_ctx *h) {
  if (pg_remark_wanted(h->m, PG_REMARK_PASSED))
    for (unsigned p = 0; p < h->nplans; ++p) {
      size_t len;
      char *fname = pg_demangle(LLVMGetValueName2(h->plan_fns[p], &len));
      region_remarks(h, p, fname);
      free(fname);
    }
  if (pg_remark_wanted(h->m, PG_REMARK_ANALYSIS))
    for (unsigned p = 0; p < h->nplans; ++p) {
      batch_remarks(h, p);
      soft_call_remarks(h, p);
    }
  if (pg_remark_wanted(h->m, PG_REMARK_MISSED))
    pg_sites_remark_eager(h->sites, &h->cls);
  if (pg_remark_wanted(h->m, PG_REMARK_ANALYSIS) || pg_remark_wanted(h->m, PG_REMARK_MISSED))
    for (unsigned p = 0; p < h->nplans; ++p)
      pg_whole_loops_remark(h->m, &h->cls, &h->plans[p]);
}

/* The status copy of every loop that carries the whole-loop protocol goes
 * to the runtime (pygraph_rt.h): still a barrier, seen by the runtime (a
 * counted loop has none). */
static void route_status_copies(host_ctx *h) {
  for (unsigned p = 0; p < h->nplans; ++p)
    for (unsigned k = 0; k < h->plans[p].nscopes; ++k)
      for (const pg_whole_loop *wl = h->plans[p].scopes[k].whole_loops; wl; wl = wl->next)
        if (wl->instrumented && wl->copy)
          pg_reroute_call(h->m, pg_call_at(&h->calls, wl->copy));
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
  /* Before the rerouting, which erases the calls the map names.  A file
   * without regions of its own still routes its launches: a caller in
   * another file may run them inside its region (external_calls.h). */
  int across = pg_external_protocol(h->m, &h->calls);
  if (any) {
    /* Twins of the kernels launched inside regions; registered before the
     * rerouting so that each site descriptor can name its twin. */
    unsigned n;
    LLVMValueRef *stubs = pg_sites_launched_stubs(h->sites, &n);
    pg_register_twins(h->m, stubs, n, NULL);
    free(stubs);
  }
  if (any || across) {
    pg_insert_throw_points(h->m);
    pg_reroute_calls(h->m, &h->calls);
    route_status_copies(h);
    pg_keep_own_copies(h->m);
  }
  return any || across;
}

static int run_host(LLVMModuleRef m) {
  host_ctx h;
  memset(&h, 0, sizeof h);
  h.m = m;
  pg_registry_build(&h.reg, m);
  pg_classifier_init(&h.cls, m, &h.reg);
  pg_call_map_build(&h.calls, &h.cls, m);
  h.sites = pg_sites_new();
  h.batch = pg_batch_memo_new(&h.calls);
  if (pg_remark_enabled(m, PG_REMARK_ANALYSIS))
    analysis_remarks(&h);
  plan_all(&h);
  cover_callees(&h);
  for (unsigned p = 0; p < h.nplans; ++p)
    pg_whole_loops_judge(&h.calls, h.batch, &h.plans[p]);
  plan_remarks(&h);
  int changed = pg_opts()->analyze_only ? 0 : instrument_all(&h);
  for (unsigned p = 0; p < h.nplans; ++p) {
    pg_whole_loops_free(&h.plans[p]);
    pg_plan_free(&h.plans[p]);
  }
  free(h.plans);
  free(h.plan_fns);
  pg_batch_memo_free(h.batch);
  pg_sites_free(h.sites);
  pg_call_map_free(&h.calls);
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
