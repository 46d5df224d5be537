/* launch_describe.c - operands of a launch site, as remark text.
 *
 * A <<<g,b,s,st>>> launch passes its configuration to
 * __cudaPushCallConfiguration(i64 gxy, i32 gz, i64 bxy, i32 bz, i64 s, ptr st)
 * in a block that dominates the stub call (-O0) or the inlined stub's
 * cudaLaunchKernel (-O2); a direct launch API call carries them itself.
 * What a dimension holds there is dim3_value.c's to prove.
 */
#include "launch_describe.h"
#include "dim3_value.h"
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

/* "(x,y,z)", each component a number only where dim3_value.c proves it
 * reaches the launch, else "<dynamic>"; "<dynamic>" alone when none is. */
static void render_dim3(LLVMValueRef launch, LLVMValueRef xy, LLVMValueRef z, char *buf,
                        size_t len) {
  pg_dim3 d;
  pg_dim3_value(launch, xy, z, &d);
  if (!d.known[0] && !d.known[1] && !d.known[2]) {
    snprintf(buf, len, "<dynamic>");
    return;
  }
  char part[3][16];
  for (int k = 0; k < 3; ++k)
    snprintf(part[k], sizeof part[k], d.known[k] ? "%u" : "<dynamic>", d.v[k]);
  snprintf(buf, len, "(%s,%s,%s)", part[0], part[1], part[2]);
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
  /* fit the longest rendering: "(<dynamic>,<dynamic>,<dynamic>)" */
  char grid[48], block[48], shmem[32], stream[32];
  int ptsz = ci->api && strstr(ci->api->name, "_ptsz") != NULL;
  LLVMValueRef push = find_push_config(call);
  if (push) {
    render_dim3(call, LLVMGetOperand(push, 0), LLVMGetOperand(push, 1), grid, sizeof grid);
    render_dim3(call, LLVMGetOperand(push, 2), LLVMGetOperand(push, 3), block, sizeof block);
    render_int(LLVMGetOperand(push, 4), shmem, sizeof shmem);
    render_stream(LLVMGetOperand(push, 5), ptsz, stream, sizeof stream);
  } else if (ci->api && strncmp(ci->api->name, "cudaLaunchKernel", 16) == 0 &&
             strncmp(ci->api->name, "cudaLaunchKernelExC", 19) != 0) {
    render_dim3(call, LLVMGetOperand(call, 1), LLVMGetOperand(call, 2), grid, sizeof grid);
    render_dim3(call, LLVMGetOperand(call, 3), LLVMGetOperand(call, 4), block, sizeof block);
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
