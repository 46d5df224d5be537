/* launch_describe.c - operands of a launch site, as remark text.
 *
 * A <<<g,b,s,st>>> launch passes its configuration to
 * __cudaPushCallConfiguration(i64 gxy, i32 gz, i64 bxy, i32 bz, i64 s, ptr st)
 * in a block that dominates the stub call (-O0) or the inlined stub's
 * cudaLaunchKernel (-O2); a direct launch API call carries them itself.
 * At -O0 the dim3 values travel through allocas built by dim3's
 * constructor, which we follow when it is a plain constant construction.
 */
#include "launch_describe.h"
#include "ir_util.h"
#include "../shim/pygraph_shim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static LLVMValueRef find_push_config(LLVMValueRef call) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
  LLVMValueRef from = LLVMGetPreviousInstruction(call);
  for (int steps = 0; steps < 4 && bb; ++steps) {
    for (LLVMValueRef i = from; i; i = LLVMGetPreviousInstruction(i)) {
      const char *n = pg_called_name(i);
      if (n && strcmp(n, "__cudaPushCallConfiguration") == 0)
        return i;
    }
    LLVMBasicBlockRef preds[2];
    if (pg_block_preds(bb, preds, 2) != 1)
      return NULL;
    bb = preds[0];
    from = LLVMGetLastInstruction(bb);
  }
  return NULL;
}

/* The alloca (or global) a pointer is based on, and the byte offset. */
static LLVMValueRef base_of(LLVMValueRef p, long long *off) {
  *off = 0;
  while (p && LLVMIsAGetElementPtrInst(p)) {
    unsigned n = (unsigned)LLVMGetNumOperands(p);
    long long o, sum = 0;
    for (unsigned i = 1; i < n; ++i) {
      if (!pg_const_int(LLVMGetOperand(p, i), &o))
        return NULL;
      sum += o; /* only all-zero struct GEPs or i8 byte GEPs get here */
    }
    if (n > 2 && sum != 0)
      return NULL;
    *off += sum;
    p = LLVMGetOperand(p, 0);
  }
  return p;
}

/* dim3 component `idx` stored at alloca `a` by `call dim3::dim3(a, x, y, z)`,
 * possibly after a memcpy from another such alloca. */
static int dim3_component(LLVMValueRef a, int idx, long long *out) {
  for (int hops = 0; hops < 3 && a; ++hops) {
    LLVMValueRef next = NULL;
    for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      const char *n = pg_called_name(user);
      if (!n || LLVMGetOperand(user, 0) != a)
        continue;
      if (strncmp(n, "_ZN4dim3C", 9) == 0 && LLVMGetNumArgOperands(user) == 4)
        return pg_const_int(LLVMGetOperand(user, 1 + idx), out);
      if (strncmp(n, "llvm.memcpy", 11) == 0)
        next = LLVMGetOperand(user, 1);
    }
    a = next;
  }
  return 0;
}

/* Renders the packed (i64 xy, i32 z) pair as "(x,y,z)". */
static void render_dim3(LLVMValueRef xy, LLVMValueRef z, char *buf, size_t len) {
  long long vxy, vz;
  if (pg_const_int(xy, &vxy) && pg_const_int(z, &vz)) {
    snprintf(buf, len, "(%u,%u,%lld)", (unsigned)(vxy & 0xffffffffu),
             (unsigned)((unsigned long long)vxy >> 32), vz);
    return;
  }
  if (xy && LLVMIsALoadInst(xy)) {
    long long off;
    LLVMValueRef a = base_of(LLVMGetOperand(xy, 0), &off);
    long long x, y, zz;
    if (a && off == 0 && dim3_component(a, 0, &x) && dim3_component(a, 1, &y) &&
        dim3_component(a, 2, &zz)) {
      snprintf(buf, len, "(%lld,%lld,%lld)", x, y, zz);
      return;
    }
  }
  snprintf(buf, len, "<dynamic>");
}

static void render_int(LLVMValueRef v, char *buf, size_t len) {
  long long x;
  if (pg_const_int(v, &x))
    snprintf(buf, len, "%lld", x);
  else
    snprintf(buf, len, "<dynamic>");
}

static void render_stream(LLVMValueRef v, int ptsz, char *buf, size_t len) {
  if (v && LLVMIsAConstantPointerNull(v)) {
    snprintf(buf, len, ptsz ? "per-thread-default" : "default");
    return;
  }
  if (v && LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMIntToPtr) {
    long long x;
    if (pg_const_int(LLVMGetOperand(v, 0), &x)) {
      snprintf(buf, len, x == 1 ? "legacy" : x == 2 ? "per-thread" : "%lld", x);
      return;
    }
  }
  snprintf(buf, len, "<dynamic>");
}

char *pg_launch_kernel_name(const pg_call_info *ci) {
  if (ci->kernel)
    return pg_demangle(ci->kernel->mangled);
  return pg_strf("%s", ci->api && ci->api->driver ? "<CUfunction>" : "<kernel pointer>");
}

char *pg_describe_launch(const pg_call_info *ci, LLVMValueRef call) {
  /* fit the longest renderings: "(%lld,%lld,%lld)" is at most 66 bytes */
  char grid[72], block[72], shmem[32], stream[32];
  int ptsz = ci->api && strstr(ci->api->name, "_ptsz") != NULL;
  LLVMValueRef push = find_push_config(call);
  if (push) {
    render_dim3(LLVMGetOperand(push, 0), LLVMGetOperand(push, 1), grid, sizeof grid);
    render_dim3(LLVMGetOperand(push, 2), LLVMGetOperand(push, 3), block, sizeof block);
    render_int(LLVMGetOperand(push, 4), shmem, sizeof shmem);
    render_stream(LLVMGetOperand(push, 5), ptsz, stream, sizeof stream);
  } else if (ci->api && strncmp(ci->api->name, "cudaLaunchKernel", 16) == 0 &&
             strncmp(ci->api->name, "cudaLaunchKernelExC", 19) != 0) {
    render_dim3(LLVMGetOperand(call, 1), LLVMGetOperand(call, 2), grid, sizeof grid);
    render_dim3(LLVMGetOperand(call, 3), LLVMGetOperand(call, 4), block, sizeof block);
    render_int(LLVMGetOperand(call, 6), shmem, sizeof shmem);
    render_stream(LLVMGetOperand(call, 7), ptsz, stream, sizeof stream);
  } else {
    snprintf(grid, sizeof grid, "<dynamic>");
    snprintf(block, sizeof block, "<dynamic>");
    snprintf(shmem, sizeof shmem, "<dynamic>");
    snprintf(stream, sizeof stream, "<dynamic>");
  }
  char *kernel = pg_launch_kernel_name(ci);
  char *text = pg_strf("launch of '%s' grid=%s block=%s shmem=%s stream=%s", kernel, grid,
                       block, shmem, stream);
  free(kernel);
  return text;
}
