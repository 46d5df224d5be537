/* external_calls.c - the across-files protocol: checked external calls,
 * barrier points and markers (external_calls.h). */
#include "external_calls.h"
#include "abi_ir.h"
#include "ir_util.h"
#include "kernel_pointers.h"
#include "options.h"
#include "pygraph_abi.h"
#include "../shim/pygraph_shim.h"

#include <stdlib.h>
#include <string.h>

/* Symbols of libraries no user file defines: calls of them end the region
 * at compile time, as any barrier (a run-time check would only split it
 * there every time). */
static const char *const kLibraryPrefixes[] = {
    "cu",     /* cuBLAS, cuFFT, cuRAND, cuSPARSE, cuSOLVER, cuDNN, the CUDA APIs */
    "nccl", "nvtx", "nvml", "MPI_", "PMPI_", "omp_", "__kmpc_", "GOMP_", "pthread_",
    "_ZNSt", "_ZNKSt", "_ZSt", "_ZN9__gnu_cxx", "_ZNK9__gnu_cxx", /* the C++ library */
    "__cxa_", "_Unwind_", "__gxx_",
};

static int library_symbol(const char *name) {
  for (size_t i = 0; i < sizeof kLibraryPrefixes / sizeof kLibraryPrefixes[0]; ++i)
    if (strncmp(name, kLibraryPrefixes[i], strlen(kLibraryPrefixes[i])) == 0)
      return 1;
  return 0;
}

int pg_external_checked(LLVMValueRef callee, LLVMValueRef call) {
  size_t n;
  const char *name = LLVMGetValueName2(callee, &n);
  /* A call that never returns nor unwinds (exit, abort, a failed assert)
   * needs only what was deferred to run first, which its hook's split
   * does: no marker names it, so the split always happens. */
  int ends_here = pg_call_no_return(call) && !pg_call_may_unwind(call);
  return pg_opts()->across_files && (!pg_call_no_return(call) || ends_here) &&
         !library_symbol(name);
}

/* "__pygraph_aware.<symbol>", malloc'd. */
static char *marker_name(const char *symbol) {
  return pg_strf("__pygraph_aware.%s", symbol);
}

/* The weak reference to the marker of callee (declared once per module). */
static LLVMValueRef marker_ref(LLVMModuleRef m, LLVMValueRef callee) {
  size_t n;
  char *name = marker_name(LLVMGetValueName2(callee, &n));
  LLVMValueRef g = LLVMGetNamedGlobal(m, name);
  if (!g) {
    g = LLVMAddGlobal(m, LLVMInt8TypeInContext(LLVMGetModuleContext(m)), name);
    LLVMSetLinkage(g, LLVMExternalWeakLinkage);
  }
  free(name);
  return g;
}

static void call_before(LLVMModuleRef m, LLVMValueRef before, pg_protocol_call which,
                        LLVMValueRef *args, unsigned nargs) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
  pg_call_before(b, before, pg_protocol_type(m, which), pg_protocol_fn(m, which), args, nargs);
  LLVMDisposeBuilder(b);
}

void pg_external_hook(LLVMModuleRef m, LLVMValueRef call, LLVMValueRef region, int index) {
  LLVMValueRef callee = pg_called_function(call);
  LLVMValueRef args[5] = {
      region ? region : LLVMConstNull(pg_abi_ir_type(m, PG_IR_PTR)),
      LLVMConstInt(pg_abi_ir_type(m, PG_IR_U32), region ? (unsigned)index : 0, 0)};
  if (!callee) { /* a launch through a kernel pointer: its stub is checked */
    unsigned n;
    args[2] = LLVMGetCalledValue(call);
    args[3] = pg_kernel_stub_table(m, &n);
    args[4] = LLVMConstInt(pg_abi_ir_type(m, PG_IR_U32), n, 0);
    call_before(m, call, PG_PROTOCOL_kernel_pointer_call, args, 5);
    return;
  }
  /* A function of this module whose only barriers are checked calls is
   * pygraph code by construction: the function itself stands for its
   * marker (not NULL), and its own hooks split where needed. */
  args[2] = LLVMIsDeclaration(callee) ? marker_ref(m, callee) : callee;
  call_before(m, call, PG_PROTOCOL_external_call, args, 3);
}

/* Was `call` given its hook (by the instrumenter, with its region)? */
static int hooked(LLVMValueRef call) {
  LLVMValueRef prev = LLVMGetPreviousInstruction(call);
  const char *name = prev && LLVMIsACallInst(prev) ? pg_called_name(prev) : NULL;
  return name && (strcmp(name, PYGRAPH_ROUTED_PREFIX "external_call") == 0 ||
                  strcmp(name, PYGRAPH_ROUTED_PREFIX "kernel_pointer_call") == 0);
}

/* CUDA's registration code and pygraph's own functions run no program
 * code a caller's iteration could be live in. */
static int runtime_glue(LLVMValueRef fn) {
  size_t n;
  const char *name = LLVMGetValueName2(fn, &n);
  return strncmp(name, "__cuda", 6) == 0 || strncmp(name, "__pygraph", 9) == 0 ||
         strncmp(name, ".pygraph", 8) == 0;
}

static void hooks_and_barrier_points(LLVMModuleRef m, const pg_call_map *calls,
                                     LLVMValueRef fn) {
  unsigned n;
  const pg_call_info *ci = pg_calls_in(calls, fn, &n);
  for (unsigned k = 0; k < n; ++k) {
    if (ci[k].kind == PG_CALL_EXTERNAL_CHECKED && !hooked(ci[k].inst))
      pg_external_hook(m, ci[k].inst, NULL, 0);
    else if (ci[k].kind == PG_CALL_BARRIER)
      call_before(m, ci[k].inst, PG_PROTOCOL_barrier_point, NULL, 0);
  }
}

/* A constant byte named after fn, with fn's visibility: callers in other
 * files find it through their weak references. */
static void define_marker(LLVMModuleRef m, LLVMValueRef fn) {
  size_t n;
  char *name = marker_name(LLVMGetValueName2(fn, &n));
  if (!LLVMGetNamedGlobal(m, name)) {
    LLVMTypeRef i8 = LLVMInt8TypeInContext(LLVMGetModuleContext(m));
    LLVMValueRef g = LLVMAddGlobal(m, i8, name);
    LLVMSetInitializer(g, LLVMConstInt(i8, 0, 0));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetVisibility(g, LLVMGetVisibility(fn));
  }
  free(name);
}

/* Does m call CUDA at all (a launch is a CUDA call too)?  A file that does
 * not (plain C++ the driver compiles with the plugin) gets no barrier
 * points, so its indirect and external calls cost nothing, and no markers:
 * a region calling into it splits there, as at any file built without the
 * plugin. */
static int module_uses_cuda(LLVMModuleRef m) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    size_t n;
    const char *name = LLVMGetValueName2(fn, &n);
    if (LLVMIsDeclaration(fn) && (pg_api_looks_like_cuda(name) || strncmp(name, "__cuda", 6) == 0))
      return 1;
  }
  return 0;
}

int pg_external_protocol(LLVMModuleRef m, const pg_call_map *calls) {
  if (!pg_opts()->across_files || !module_uses_cuda(m))
    return 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
    if (LLVMIsDeclaration(fn) || runtime_glue(fn) || pg_is_stub(calls->cls, fn))
      continue;
    hooks_and_barrier_points(m, calls, fn);
    if (LLVMGetLinkage(fn) == LLVMExternalLinkage)
      define_marker(m, fn);
  }
  return 1;
}
