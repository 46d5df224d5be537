/* launch_args.c - the size of a launch's argument array. */
#include "launch_args.h"
#include "ir_util.h"

#include <llvm-c/Target.h>

#include <string.h>

/* Operand index of `args` in the launch calls, or -1.  The dim3
 * parameters of cudaLaunchKernel are coerced into several IR operands by
 * the host ABI, so its `args` is counted from the end:
 * (func, grid..., block..., args, shmem, stream).  The driver's take only
 * scalars and pointers: cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem,
 * stream, kernelParams, extra), cuLaunchKernelEx(config, f, kernelParams,
 * extra), and their _ptsz forms. */
static int args_operand(const pg_api_entry *api, unsigned n_operands) {
  if (api->cls != PG_API_LAUNCH)
    return -1;
  if (api->driver) {
    if (strncmp(api->name, "cuLaunchKernelEx", 16) == 0)
      return n_operands == 4 ? 2 : -1;
    return n_operands == 11 ? 9 : -1;
  }
  if (strncmp(api->name, "cudaLaunchKernelExC", 19) == 0)
    return n_operands == 3 ? 2 : -1;
  if (strncmp(api->name, "cudaLaunchKernel", 16) == 0)
    return n_operands >= 6 ? (int)n_operands - 3 : -1;
  return -1;
}

/* `v` with casts and all-zero-index GEPs (an array decayed to a pointer
 * to its first entry, as -O0 code passes it) stripped. */
static int is_gep(LLVMValueRef v) {
  return LLVMIsAGetElementPtrInst(v) ||
         (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr);
}

static LLVMValueRef array_base(LLVMValueRef v) {
  for (v = pg_strip(v); v && is_gep(v); v = pg_strip(LLVMGetOperand(v, 0))) {
    unsigned n = (unsigned)LLVMGetNumOperands(v);
    for (unsigned i = 1; i < n; ++i) {
      long long idx;
      if (!pg_const_int(LLVMGetOperand(v, i), &idx) || idx != 0)
        return NULL;
    }
  }
  return v;
}

unsigned pg_launch_arg_slots(LLVMModuleRef m, const pg_call_info *ci, LLVMValueRef call) {
  int idx = ci->api ? args_operand(ci->api, LLVMGetNumArgOperands(call)) : -1;
  if (idx < 0)
    return 0;
  LLVMValueRef array = array_base(LLVMGetOperand(call, (unsigned)idx));
  if (!array || !LLVMIsAAllocaInst(array))
    return 0;
  long long count;
  if (!pg_const_int(LLVMGetOperand(array, 0), &count) || count <= 0)
    return 0;
  LLVMTargetDataRef dl = LLVMGetModuleDataLayout(m);
  unsigned long long bytes = LLVMABISizeOfType(dl, LLVMGetAllocatedType(array));
  unsigned long long ptr_bytes = LLVMPointerSize(dl);
  unsigned long long total = bytes * (unsigned long long)count;
  /* Only a whole number of pointers is an argument array. */
  if (ptr_bytes == 0 || total % ptr_bytes != 0 || total / ptr_bytes > 0xffffffffull)
    return 0;
  return (unsigned)(total / ptr_bytes);
}
