/* call_classifier.c - classify host calls and summarise module functions. */
#include "call_classifier.h"
#include "allow_names.h"
#include "external_calls.h"
#include "harmless_externals.h"
#include "kernel_pointers.h"
#include "options.h"
#include "throw_points.h"
#include "wait_loops.h"
#include "ir_util.h"
#include "../shim/pygraph_shim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kLaunchCap = 1000 };
/* enum cudaMemcpyKind */
static const long long kMemcpyDeviceToDevice = 3;
static const long long kMemcpyDefault = 4;

int pg_is_stub(const pg_classifier *c, LLVMValueRef fn) {
  return fn && pg_registry_find(c->registry, fn) != NULL;
}

const pg_function_summary *pg_summary_of(const pg_classifier *c, LLVMValueRef fn) {
  for (unsigned i = 0; i < c->n_summaries; ++i)
    if (c->summaries[i].fn == fn)
      return &c->summaries[i];
  return NULL;
}

static void set_barrier(pg_call_info *out, pg_barrier_reason why) {
  out->kind = PG_CALL_BARRIER;
  out->why = why;
}

/* The kernel a launch API call launches, when the handle is a constant. */
static const pg_kernel *launched_kernel(const pg_classifier *c, LLVMValueRef call,
                                        const pg_api_entry *api) {
  unsigned idx = strncmp(api->name, "cudaLaunchKernelExC", 19) == 0 ? 1 : 0;
  if (api->driver)
    return NULL; /* driver launches take a CUfunction: not known statically */
  if (LLVMGetNumArgOperands(call) <= idx)
    return NULL;
  return pg_registry_find(c->registry, LLVMGetOperand(call, idx));
}

/* A routed cudaMemcpyAsync whose direction constant involves the host. */
static int copies_host_memory(LLVMValueRef inst, const pg_api_entry *api) {
  long long kind;
  return strncmp(api->name, "cudaMemcpyAsync", 15) == 0 &&
         pg_const_int(LLVMGetOperand(inst, 3), &kind) && kind != kMemcpyDeviceToDevice &&
         kind != kMemcpyDefault /* checked at run time */;
}

static int is_free(const pg_api_entry *api) { return strcmp(api->name, "cudaFree") == 0; }

/* A synchronous copy the runtime does not defer (sync_copies.h). */
static int sync_copy_barrier(const pg_classifier *c, const pg_call_info *ci) {
  switch (pg_sync_copy_judge(ci->inst, ci->api, c->host_visible_memory)) {
  case PG_COPY_NONE:
  case PG_COPY_DEVICE:
  case PG_COPY_SNAPSHOT:
    return 0;
  default:
    return 1;
  }
}

char *pg_sync_copy_detail(const pg_classifier *c, const pg_call_info *ci) {
  return pg_sync_copy_why(ci->inst, ci->api, c->host_visible_memory);
}

static void classify_api(const pg_classifier *c, LLVMValueRef inst, LLVMValueRef caller,
                         const pg_api_entry *api, pg_call_info *out) {
  switch (api->cls) {
  case PG_API_LAUNCH:
    out->kernel = launched_kernel(c, inst, api);
    out->kind = pg_is_stub(c, caller) ? PG_CALL_STUB_INTERNAL : PG_CALL_LAUNCH;
    return;
  case PG_API_STREAM_OP:
  case PG_API_MAYBE_DEFERRED:
    if (!pg_api_routed(api))
      set_barrier(out, PG_WHY_API_NOT_ROUTED);
    else if (copies_host_memory(inst, api))
      set_barrier(out, PG_WHY_API_HOST_COPY);
    else if (sync_copy_barrier(c, out))
      set_barrier(out, PG_WHY_API_SYNC_COPY);
    else
      out->kind = PG_CALL_ROUTED_OP;
    return;
  case PG_API_POOLED:
    if (!pg_api_routed(api))
      set_barrier(out, PG_WHY_API_NOT_ROUTED);
    else if (c->host_visible_memory && is_free(api))
      set_barrier(out, PG_WHY_FREE_HOST_VISIBLE);
    else
      out->kind = PG_CALL_ROUTED_OP;
    return;
  case PG_API_FUNC_SETTING:
  case PG_API_DEVICE_SET:
    if (!pg_api_routed(api))
      set_barrier(out, PG_WHY_API_NOT_ROUTED);
    else
      out->kind = PG_CALL_ROUTED_OP;
    return;
  case PG_API_LIBRARY:
    out->kind = PG_CALL_ROUTED_OP;
    return;
  case PG_API_LIBRARY_OTHER:
    set_barrier(out, PG_WHY_LIBRARY_CALL);
    return;
  case PG_API_SYNC:
  case PG_API_OWN_CAPTURE:
  case PG_API_UNCAPTURABLE:
    set_barrier(out, PG_WHY_API_CLASS);
    return;
  case PG_API_HARMLESS:
    out->kind = PG_CALL_HARMLESS;
    return;
  }
}

/* A call of a function the module defines. */
static void classify_defined_callee(const pg_classifier *c, LLVMValueRef callee,
                                    pg_call_info *out) {
  const pg_function_summary *s = pg_summary_of(c, callee);
  if (pg_capture_call_opens(&c->captures, callee))
    set_barrier(out, PG_WHY_OPENS_CAPTURE);
  else if (pg_capture_call_closes(&c->captures, callee))
    set_barrier(out, PG_WHY_CLOSES_CAPTURE);
  else if (s && s->may_sync) {
    set_barrier(out, PG_WHY_CALLEE_MAY_SYNC);
    if (s->checked_only)
      out->kind = PG_CALL_EXTERNAL_CHECKED;   /* its checked calls split where needed */
  }
  else if (s && s->launches)
    out->kind = PG_CALL_LAUNCHING_CALLEE;
}

/* A call with a direct callee that is not a wait. */
static void classify_direct_call(const pg_classifier *c, LLVMValueRef inst, LLVMValueRef callee,
                                 pg_call_info *out) {
  if (LLVMGetIntrinsicID(callee))
    return;
  LLVMValueRef caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
  const pg_kernel *k = pg_registry_find(c->registry, callee);
  if (k) {
    /* <<<>>> at -O0: the call of the stub is the launch site */
    out->kernel = k;
    out->kind = pg_is_stub(c, caller) ? PG_CALL_STUB_INTERNAL : PG_CALL_LAUNCH;
    return;
  }
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  out->api = pg_api_lookup(name);
  if (out->api)
    classify_api(c, inst, caller, out->api, out);
  else if (!LLVMIsDeclaration(callee))
    classify_defined_callee(c, callee, out);
  else if (!pg_is_harmless_external(name) && !pg_is_throw_call(name)) {
    set_barrier(out, pg_api_looks_like_cuda(name) ? PG_WHY_UNKNOWN_CUDA
                                                  : PG_WHY_UNKNOWN_EXTERNAL);
    if (out->why == PG_WHY_UNKNOWN_EXTERNAL && pg_external_checked(callee, inst))
      out->kind = PG_CALL_EXTERNAL_CHECKED;
  }
}

/* A call through a pointer: a profiler annotation is harmless; a launch
 * through a kernel pointer is checked at run time (kernel_pointers.h). */
static void classify_indirect_call(const pg_classifier *c, LLVMValueRef inst,
                                   pg_call_info *out) {
  if (pg_is_nvtx_dispatch(inst))
    return;
  if (pg_is_pointer_launch(&c->pointer_launches, inst)) {
    set_barrier(out, PG_WHY_KERNEL_POINTER);
    if (pg_opts()->across_files)
      out->kind = PG_CALL_EXTERNAL_CHECKED;
    return;
  }
  set_barrier(out, LLVMIsAInlineAsm(LLVMGetCalledValue(inst)) ? PG_WHY_INLINE_ASM
                                                              : PG_WHY_INDIRECT_CALL);
}

void pg_classify(const pg_classifier *c, LLVMValueRef inst, pg_call_info *out) {
  memset(out, 0, sizeof *out);
  out->inst = inst;
  out->kind = PG_CALL_HARMLESS;
  out->why = PG_WHY_NONE;
  if (!pg_is_call(inst)) {
    if (pg_wait_set_has(&c->waits, inst))
      set_barrier(out, PG_WHY_WAIT_LOAD);
    return;
  }
  out->callee = pg_called_function(inst);
  if (pg_after_throw(&c->throws, inst))
    return; /* building the exception: the throw point closed the region */
  if (pg_wait_set_has(&c->waits, inst))
    set_barrier(out, PG_WHY_WAIT_CALL);
  else if (!out->callee)
    classify_indirect_call(c, inst, out);
  else
    classify_direct_call(c, inst, out->callee, out);
}

/* ---- reasons, as text (remarks only) --------------------------------- */

static char *demangled_callee(const pg_call_info *ci) {
  size_t n;
  return pg_demangle(LLVMGetValueName2(ci->callee, &n));
}

static const char *const kWaitExit = "deciding a loop exit (the host may wait for a kernel)";

/* The reason without its location; malloc'd. */
static char *barrier_what(const pg_classifier *c, const pg_call_info *ci) {
  char *dn = ci->callee ? demangled_callee(ci) : NULL;
  char *what = NULL;
  switch (ci->why) {
  case PG_WHY_NONE: /* not reached: pg_call_why answers "" */
  case PG_WHY_CALLEE_MAY_SYNC: /* has its own shape: callee_may_sync_why */
    what = pg_strf("%s", "");
    break;
  case PG_WHY_WAIT_LOAD: what = pg_strf("%s %s", pg_wait_kind(ci->inst), kWaitExit); break;
  case PG_WHY_WAIT_CALL:
    what = pg_strf("call of '%s', a volatile or atomic read, %s", dn, kWaitExit);
    break;
  case PG_WHY_INLINE_ASM: what = pg_strf("inline assembly"); break;
  case PG_WHY_INDIRECT_CALL: what = pg_strf("indirect call"); break;
  case PG_WHY_KERNEL_POINTER:
    what = pg_strf("launch through a kernel pointer%s",
                   pg_opts()->across_files ? " (checked at run time)" : ", with across-files=0");
    break;
  case PG_WHY_API_NOT_ROUTED:
    what = pg_strf("%s (not deferred by pygraph yet)", ci->api->name);
    break;
  case PG_WHY_API_HOST_COPY: what = pg_strf("%s copies host memory", ci->api->name); break;
  case PG_WHY_API_SYNC_COPY: {
    char *detail = pg_sync_copy_detail(c, ci);
    what = pg_strf("%s %s (%s)", ci->api->name, ci->api->why, detail);
    free(detail);
    break;
  }
  case PG_WHY_API_CLASS: what = pg_strf("%s %s", ci->api->name, ci->api->why); break;
  case PG_WHY_FREE_HOST_VISIBLE:
    what = pg_strf("%s %s, and this file calls %s (host memory kernels can write, which the "
                   "host may read once the free returns)",
                   ci->api->name, ci->api->why, c->host_visible_memory);
    break;
  case PG_WHY_OPENS_CAPTURE:
    what = pg_strf("call of '%s', which may begin the program's own stream capture", dn);
    break;
  case PG_WHY_CLOSES_CAPTURE:
    what = pg_strf("call of '%s', which ends the program's own stream capture", dn);
    break;
  case PG_WHY_UNKNOWN_CUDA: what = pg_strf("CUDA call '%s' that pygraph does not know", dn); break;
  case PG_WHY_LIBRARY_CALL:
    what = pg_strf("%s '%s' that pygraph does not record", ci->api->why, dn);
    break;
  case PG_WHY_UNKNOWN_EXTERNAL: /* has its own shape: external_call_why */
    what = pg_strf("%s", "");
    break;
  }
  free(dn);
  return what;
}

/* "call of 'f' at x.cu:22, which may synchronize (cudaMemcpy ... at x.cu:10)" */
static char *callee_may_sync_why(const pg_classifier *c, const pg_call_info *ci) {
  char *dn = demangled_callee(ci);
  char *loc = pg_loc_dup(ci->inst);
  char *root = pg_call_why(c, &pg_summary_of(c, ci->callee)->cause);
  char *text = pg_strf("call of '%s' at %s, which may synchronize (%s)", dn, loc, root);
  free(root);
  free(loc);
  free(dn);
  return text;
}

/* "external call 'f(int)' at x.cu:9, which may synchronize (if it does
 * not, add -fplugin-arg-pygraph-allow=f)": the option that lifts it. */
static char *external_call_why(const pg_call_info *ci) {
  size_t n;
  const char *symbol = LLVMGetValueName2(ci->callee, &n);
  char *dn = pg_demangle(symbol);
  char *loc = pg_loc_dup(ci->inst);
  char *option = pg_allow_option(symbol);
  char *text = pg_strf("external call '%s' at %s, which may synchronize (if it does not, add %s)",
                       dn, loc, option);
  free(option);
  free(loc);
  free(dn);
  return text;
}

char *pg_call_why(const pg_classifier *c, const pg_call_info *ci) {
  if (ci->kind != PG_CALL_BARRIER && ci->kind != PG_CALL_EXTERNAL_CHECKED)
    return pg_strf("%s", "");
  if (ci->why == PG_WHY_CALLEE_MAY_SYNC)
    return callee_may_sync_why(c, ci);
  if (ci->why == PG_WHY_UNKNOWN_EXTERNAL)
    return external_call_why(ci);
  char *what = barrier_what(c, ci);
  char *loc = pg_loc_dup(ci->inst);
  char *text = pg_strf("%s at %s", what, loc);
  free(loc);
  free(what);
  return text;
}

/* One pass over f with the current summaries; returns 1 if s changed. */
static int summarise(const pg_classifier *c, pg_function_summary *s) {
  int may_sync = 0, hard = 0;
  unsigned launches = 0;
  pg_call_info cause;
  memset(&cause, 0, sizeof cause);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      pg_call_info ci;
      pg_classify(c, i, &ci);
      if (ci.kind == PG_CALL_LAUNCH) {
        ++launches;
      } else if (ci.kind == PG_CALL_LAUNCHING_CALLEE) {
        launches += pg_summary_of(c, ci.callee)->launches;
      } else if (ci.kind == PG_CALL_BARRIER || ci.kind == PG_CALL_EXTERNAL_CHECKED) {
        if (pg_runs_in_caller_region(c, &ci))
          launches += pg_summary_of(c, ci.callee)->launches;
        /* keep the root cause, not the chain of calls leading to it; a real
         * barrier's over a checked call's */
        int is_hard = ci.kind == PG_CALL_BARRIER;
        if (!may_sync || (is_hard && !hard)) {
          const pg_function_summary *cs = ci.callee ? pg_summary_of(c, ci.callee) : NULL;
          cause = cs && cs->may_sync ? cs->cause : ci;
        }
        may_sync = 1;
        hard |= is_hard;
      }
    }
  if (launches > kLaunchCap)
    launches = kLaunchCap;
  int checked_only = may_sync && !hard;
  if (may_sync == s->may_sync && launches == s->launches && checked_only == s->checked_only)
    return 0;
  s->checked_only = checked_only;
  s->may_sync = may_sync;
  s->launches = launches;
  s->cause = cause;
  return 1;
}

int pg_is_scope_barrier(const pg_classifier *c, const pg_call_info *ci, int loop_scope) {
  if (ci->kind == PG_CALL_BARRIER)
    return 1;
  return !loop_scope && ci->kind == PG_CALL_LAUNCHING_CALLEE &&
         pg_summary_of(c, ci->callee)->loop_launches;
}

/* After the fixpoint: which functions launch inside loops, directly or
 * through callees (a second monotone fixpoint). */
static void mark_loop_launches(pg_classifier *c) {
  for (unsigned i = 0; i < c->n_summaries; ++i) {
    pg_function_summary *s = &c->summaries[i];
    if (!s->launches || pg_is_stub(c, s->fn))
      continue;
    pg_loop_info *li = pg_loops_compute(s->fn);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb && !s->loop_launches;
         bb = LLVMGetNextBasicBlock(bb)) {
      if (!pg_loop_for_block(li, bb))
        continue;
      for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
        pg_call_info ci;
        pg_classify(c, in, &ci);
        if (ci.kind == PG_CALL_LAUNCH || ci.kind == PG_CALL_LAUNCHING_CALLEE) {
          s->loop_launches = 1;
          break;
        }
      }
    }
    pg_loops_free(li);
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned i = 0; i < c->n_summaries; ++i) {
      pg_function_summary *s = &c->summaries[i];
      if (s->loop_launches || !s->launches)
        continue;
      for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb && !s->loop_launches;
           bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef in = LLVMGetFirstInstruction(bb); in; in = LLVMGetNextInstruction(in)) {
          pg_call_info ci;
          pg_classify(c, in, &ci);
          if (ci.kind == PG_CALL_LAUNCHING_CALLEE && pg_summary_of(c, ci.callee)->loop_launches) {
            s->loop_launches = changed = 1;
            break;
          }
        }
    }
  }
}

/* The first of the calls that give kernels host memory to write that m
 * makes (pg_classifier.host_visible_memory), or NULL. */
static const char *host_visible_memory_call(LLVMModuleRef m) {
  static const char *const kNames[] = {
      "cudaMallocHost",   "cudaHostAlloc",   "cudaMallocManaged", "cudaHostRegister",
      "cudaHostGetDevicePointer", "cuMemAllocHost_v2", "cuMemHostAlloc", "cuMemAllocManaged",
      "cuMemHostRegister_v2", "__cudaRegisterManagedVar"};
  for (size_t i = 0; i < sizeof kNames / sizeof kNames[0]; ++i) {
    LLVMValueRef f = LLVMGetNamedFunction(m, kNames[i]);
    if (f && LLVMGetFirstUse(f))
      return kNames[i];
  }
  return NULL;
}

void pg_classifier_init(pg_classifier *c, LLVMModuleRef m, const pg_kernel_registry *r) {
  memset(c, 0, sizeof *c);
  c->registry = r;
  c->host_visible_memory = host_visible_memory_call(m);
  unsigned n = pg_count_definitions(m);
  c->summaries = calloc(n ? n : 1, sizeof *c->summaries);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      c->summaries[c->n_summaries++].fn = f;
  pg_wait_set_build(&c->waits, m);
  pg_throw_paths_build(&c->throws, m);
  pg_pointer_launches_build(&c->pointer_launches, m);
  pg_capture_set_build(&c->captures, m);
  /* Monotone: may_sync only turns on and launches only grow (capped). */
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned i = 0; i < c->n_summaries; ++i)
      changed |= summarise(c, &c->summaries[i]);
  }
  mark_loop_launches(c);
}

void pg_classifier_free(pg_classifier *c) {
  free(c->summaries);
  pg_wait_set_free(&c->waits);
  pg_throw_paths_free(&c->throws);
  pg_pointer_launches_free(&c->pointer_launches);
  pg_capture_set_free(&c->captures);
  memset(c, 0, sizeof *c);
}

int pg_runs_in_caller_region(const pg_classifier *c, const pg_call_info *ci) {
  if (ci->kind == PG_CALL_LAUNCHING_CALLEE)
    return 1;
  if (ci->kind != PG_CALL_EXTERNAL_CHECKED || !ci->callee || LLVMIsDeclaration(ci->callee))
    return 0;
  const pg_function_summary *s = pg_summary_of(c, ci->callee);
  return s && s->launches > 0;
}
