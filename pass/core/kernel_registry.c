/* kernel_registry.c - find kernel stubs and their device names.
 *
 * Under the classic offload driver, __cuda_register_globals calls
 * __cudaRegisterFunction(handle, stub, "mangled", "mangled", ...).  Under the
 * new driver (-fgpu-rdc --offload-new-driver) there is no such call; instead
 * each kernel has an offload entry {.., ptr stub, ptr name, ..}.  Without
 * either (--cuda-host-only without a GPU binary) the name is derived from
 * the stub's own: _Z19__device_stub__axpyPf -> _Z4axpyPf.
 */
#include "kernel_registry.h"
#include "ir_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char kStubPrefix[] = "__device_stub__";

static void add_kernel(pg_kernel_registry *r, LLVMValueRef stub, const char *mangled) {
  if (pg_registry_find(r, stub))
    return;
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 16;
    r->kernels = realloc(r->kernels, r->cap * sizeof *r->kernels);
  }
  pg_kernel *k = &r->kernels[r->n++];
  k->stub = stub;
  k->mangled = strdup(mangled);
}

/* _Z19__device_stub__axpyPf -> _Z4axpyPf; NULL when not a stub name. */
static char *kernel_name_from_stub(const char *stub) {
  const char *p = strstr(stub, kStubPrefix);
  if (!p)
    return NULL;
  if (p == stub) /* extern "C" kernel: the stub is __device_stub__name */
    return strdup(p + sizeof kStubPrefix - 1);
  const char *digits = p;
  while (digits > stub && digits[-1] >= '0' && digits[-1] <= '9')
    --digits;
  if (digits == p)
    return NULL;
  long len = strtol(digits, NULL, 10) - (long)(sizeof kStubPrefix - 1);
  if (len <= 0)
    return NULL;
  size_t out_len = strlen(stub) + 8;
  char *out = malloc(out_len);
  snprintf(out, out_len, "%.*s%ld%s", (int)(digits - stub), stub, len,
           p + sizeof kStubPrefix - 1);
  return out;
}

static void scan_register_calls(pg_kernel_registry *r, LLVMModuleRef m) {
  LLVMValueRef reg = LLVMGetNamedFunction(m, "__cudaRegisterFunction");
  if (!reg)
    return;
  for (LLVMUseRef u = LLVMGetFirstUse(reg); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef call = LLVMGetUser(u);
    if (!LLVMIsACallInst(call) || LLVMGetNumArgOperands(call) < 3)
      continue;
    LLVMValueRef stub = pg_strip(LLVMGetOperand(call, 1));
    const char *name = pg_global_cstring(LLVMGetOperand(call, 2));
    if (stub && LLVMIsAFunction(stub) && name) {
      add_kernel(r, stub, name);
      r->has_registration = 1;
    }
  }
}

static void scan_offload_entries(pg_kernel_registry *r, LLVMModuleRef m) {
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    const char *sec = LLVMGetSection(g);
    LLVMValueRef init = LLVMGetInitializer(g);
    if (!sec || !strstr(sec, "offload") || !init || !LLVMIsAConstantStruct(init))
      continue;
    LLVMValueRef stub = NULL;
    const char *name = NULL;
    for (int i = 0; i < LLVMGetNumOperands(init); ++i) {
      LLVMValueRef op = pg_strip(LLVMGetOperand(init, i));
      if (!stub && op && LLVMIsAFunction(op))
        stub = op;
      else if (stub && !name)
        name = pg_global_cstring(op);
    }
    if (stub && name) {
      add_kernel(r, stub, name);
      r->has_registration = 1;
    }
  }
}

static void scan_stub_names(pg_kernel_registry *r, LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *fname = LLVMGetValueName2(f, &len);
    char *kname = kernel_name_from_stub(fname);
    if (kname) {
      add_kernel(r, f, kname);
      free(kname);
    }
  }
}

void pg_registry_build(pg_kernel_registry *r, LLVMModuleRef m) {
  memset(r, 0, sizeof *r);
  scan_register_calls(r, m);
  scan_offload_entries(r, m);
  scan_stub_names(r, m);
}

void pg_registry_free(pg_kernel_registry *r) {
  for (unsigned i = 0; i < r->n; ++i) {
    free(r->kernels[i].mangled);
  }
  free(r->kernels);
  memset(r, 0, sizeof *r);
}

const pg_kernel *pg_registry_find(const pg_kernel_registry *r, LLVMValueRef fn) {
  fn = pg_strip(fn);
  for (unsigned i = 0; i < r->n; ++i)
    if (r->kernels[i].stub == fn)
      return &r->kernels[i];
  return NULL;
}
