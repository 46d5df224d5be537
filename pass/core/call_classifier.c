/* call_classifier.c - classify host calls and summarise module functions. */
#include "call_classifier.h"
#include "harmless_externals.h"
#include "wait_loops.h"
#include "ir_util.h"
#include "../shim/pygraph_shim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kLaunchCap = 1000 };
static const long long kMemcpyDeviceToDevice = 3;

int pg_is_stub(const pg_classifier *c, LLVMValueRef fn) {
  return fn && pg_registry_find(c->registry, fn) != NULL;
}

const pg_function_summary *pg_summary_of(const pg_classifier *c, LLVMValueRef fn) {
  for (unsigned i = 0; i < c->n_summaries; ++i)
    if (c->summaries[i].fn == fn)
      return &c->summaries[i];
  return NULL;
}

static void set_why(const pg_classifier *c, pg_call_info *out, char *text) {
  out->kind = PG_CALL_BARRIER;
  out->why = pg_pool_take(c->texts, text);
}

/* fmt has one %s, for name; the location follows. */
static void barrier(const pg_classifier *c, pg_call_info *out, LLVMValueRef inst,
                    const char *fmt, const char *name) {
  char *loc = pg_loc_dup(inst);
  char *what = pg_strf(fmt, name);
  set_why(c, out, pg_strf("%s at %s", what, loc));
  free(what);
  free(loc);
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

static void classify_api(const pg_classifier *c, LLVMValueRef inst, LLVMValueRef caller,
                         const pg_api_entry *api, pg_call_info *out) {
  switch (api->cls) {
  case PG_API_LAUNCH:
    out->kernel = launched_kernel(c, inst, api);
    out->kind = pg_is_stub(c, caller) ? PG_CALL_STUB_INTERNAL : PG_CALL_LAUNCH;
    return;
  case PG_API_STREAM_OP:
    if (!pg_api_routed(api)) {
      barrier(c, out, inst, "%s (not deferred by pygraph yet)", api->name);
      return;
    }
    if (strncmp(api->name, "cudaMemcpyAsync", 15) == 0) {
      long long kind;
      if (pg_const_int(LLVMGetOperand(inst, 3), &kind) && kind != kMemcpyDeviceToDevice &&
          kind != 4 /* cudaMemcpyDefault: checked at run time */) {
        barrier(c, out, inst, "%s copies host memory", api->name);
        return;
      }
    }
    out->kind = PG_CALL_ROUTED_OP;
    return;
  case PG_API_SYNC:
  case PG_API_OWN_CAPTURE:
  case PG_API_UNCAPTURABLE: {
    char *loc = pg_loc_dup(inst);
    set_why(c, out, pg_strf("%s %s at %s", api->name, api->why, loc));
    free(loc);
    return;
  }
  case PG_API_HARMLESS:
    out->kind = PG_CALL_HARMLESS;
    return;
  }
}

void pg_classify(const pg_classifier *c, LLVMValueRef inst, pg_call_info *out) {
  memset(out, 0, sizeof *out);
  out->kind = PG_CALL_HARMLESS;
  out->why = "";
  if (!pg_is_call(inst)) {
    if (pg_wait_set_has(&c->waits, inst))
      barrier(c, out, inst, "%s deciding a loop exit (the host may wait for a kernel)",
              pg_wait_kind(inst));
    return;
  }
  LLVMValueRef caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(inst));
  LLVMValueRef callee = pg_called_function(inst);
  out->callee = callee;
  if (pg_wait_set_has(&c->waits, inst)) {
    size_t n;
    char *dn = pg_demangle(LLVMGetValueName2(callee, &n));
    char *what = pg_strf("call of '%s', a volatile or atomic read,", dn);
    free(dn);
    barrier(c, out, inst, "%s deciding a loop exit (the host may wait for a kernel)", what);
    free(what);
    return;
  }
  if (!callee) {
    LLVMValueRef cv = LLVMGetCalledValue(inst);
    barrier(c, out, inst, "%s", LLVMIsAInlineAsm(cv) ? "inline assembly" : "indirect call");
    return;
  }
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  if (LLVMGetIntrinsicID(callee))
    return;
  const pg_kernel *k = pg_registry_find(c->registry, callee);
  if (k) {
    /* <<<>>> at -O0: the call of the stub is the launch site */
    out->kernel = k;
    out->kind = pg_is_stub(c, caller) ? PG_CALL_STUB_INTERNAL : PG_CALL_LAUNCH;
    return;
  }
  out->api = pg_api_lookup(name);
  if (out->api) {
    classify_api(c, inst, caller, out->api, out);
    return;
  }
  if (!LLVMIsDeclaration(callee)) {
    const pg_function_summary *s = pg_summary_of(c, callee);
    int opens = pg_capture_call_opens(&c->captures, callee);
    if (opens || pg_capture_call_closes(&c->captures, callee)) {
      char *dn = pg_demangle(name);
      barrier(c, out, inst, opens ? "call of '%s', which may begin the program's own stream capture"
                               : "call of '%s', which ends the program's own stream capture",
              dn);
      free(dn);
    } else if (s && s->may_sync) {
      /* "call of 'f' at x.cu:22, which may synchronize (cudaMemcpy ... at x.cu:10)" */
      char *dn = pg_demangle(name);
      char *loc = pg_loc_dup(inst);
      set_why(c, out, pg_strf("call of '%s' at %s, which may synchronize (%s)", dn, loc, s->why));
      free(loc);
      free(dn);
    } else if (s && s->launches) {
      out->kind = PG_CALL_LAUNCHING_CALLEE;
    }
    return;
  }
  if (pg_is_harmless_external(name))
    return;
  char *dn = pg_demangle(name);
  barrier(c, out, inst,
          pg_api_looks_like_cuda(name) ? "CUDA call '%s' that pygraph does not know"
                                       : "call of external function '%s' with unknown effect",
          dn);
  free(dn);
}

/* One pass over f with the current summaries; returns 1 if s changed. */
static int summarise(const pg_classifier *c, pg_function_summary *s) {
  int may_sync = 0;
  unsigned launches = 0;
  const char *why = "";
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(s->fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      pg_call_info ci;
      pg_classify(c, i, &ci);
      if (ci.kind == PG_CALL_LAUNCH) {
        ++launches;
      } else if (ci.kind == PG_CALL_LAUNCHING_CALLEE) {
        launches += pg_summary_of(c, ci.callee)->launches;
      } else if (ci.kind == PG_CALL_BARRIER && !may_sync) {
        /* keep the root cause, not the chain of calls leading to it */
        const pg_function_summary *cs = ci.callee ? pg_summary_of(c, ci.callee) : NULL;
        may_sync = 1;
        why = cs && cs->may_sync ? cs->why : ci.why;
      }
    }
  if (launches > kLaunchCap)
    launches = kLaunchCap;
  if (may_sync == s->may_sync && launches == s->launches)
    return 0;
  s->may_sync = may_sync;
  s->launches = launches;
  s->why = why;
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

void pg_classifier_init(pg_classifier *c, LLVMModuleRef m, const pg_kernel_registry *r) {
  memset(c, 0, sizeof *c);
  c->registry = r;
  c->texts = calloc(1, sizeof *c->texts);
  unsigned n = pg_count_definitions(m);
  c->summaries = calloc(n ? n : 1, sizeof *c->summaries);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      c->summaries[c->n_summaries++].fn = f;
  pg_wait_set_build(&c->waits, m);
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
  pg_capture_set_free(&c->captures);
  pg_pool_free(c->texts);
  free(c->texts);
  memset(c, 0, sizeof *c);
}
